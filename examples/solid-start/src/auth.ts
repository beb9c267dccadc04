import Credentials from "authflow/providers/credentials"
import type { SolidAuthConfig } from "authflow/solid-start"

/** The demo's only account. A real app looks users up and checks a password hash. */
const demoUser = { id: "1", name: "Ada Lovelace", email: "ada@example.test" }

/**
 * Shared by the API route, the middleware and the server queries. AUTH_SECRET and AUTH_TRUST_HOST
 * come from the environment (see README.md); `prefix` defaults to `/api/auth`.
 */
export const authConfig: SolidAuthConfig = {
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize({ username, password }) {
        return username === "ada" && password === "lovelace" ? demoUser : null
      },
    }),
  ],
}

/** The client-rendered pages the middleware guards (src/middleware.ts). */
export const protectedPaths = ["/client-protected"]
