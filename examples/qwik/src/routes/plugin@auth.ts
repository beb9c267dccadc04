import { QwikAuth$ } from "authflow/qwik"
import Credentials from "authflow/providers/credentials"

/** The demo's only account. A real app looks users up and checks a password hash. */
const demoUser = { id: "1", name: "Ada Lovelace", email: "ada@example.test" }

// AUTH_SECRET and AUTH_TRUST_HOST come from the environment (see README.md).
export const { onRequest, useSession, useSignIn, useSignOut } = QwikAuth$(() => ({
  pages: { signIn: "/signin" },
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize({ username, password }) {
        return username === "ada" && password === "lovelace" ? demoUser : null
      },
    }),
  ],
}))
