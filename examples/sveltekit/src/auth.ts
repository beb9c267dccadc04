import { SvelteKitAuth } from "authflow/sveltekit"
import Credentials from "authflow/providers/credentials"
import { base } from "$app/paths"
import { dev } from "$app/environment"
import { env } from "$env/dynamic/private"

/** The demo's only account. A real app looks users up and checks a password hash. */
const demoUser = { id: "1", name: "Ada Lovelace", email: "ada@example.test" }

// AUTH_SECRET and AUTH_TRUST_HOST (or AUTH_URL) come from the environment (see README.md).
// SvelteKit's virtual modules are handed over: authflow/sveltekit does not import them itself.
export const { handle, signIn, signOut } = SvelteKitAuth(
  {
    pages: { signIn: "/signin" },
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize({ username, password }) {
          return username === "ada" && password === "lovelace" ? demoUser : null
        },
      }),
    ],
  },
  { base, dev, env },
)
