import NextAuth from "authflow/next"
import Credentials from "authflow/providers/credentials"

/** The demo's only account. A real app looks users up and checks a password hash. */
const demoUser = { id: "1", name: "Ada Lovelace", email: "ada@example.test" }

export const { handlers, auth, signIn, signInAction, signOut, unstable_update } = NextAuth({
  // AUTH_SECRET and AUTH_TRUST_HOST come from the environment (see README.md).
  pages: { signIn: "/signin" },
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize({ username, password }) {
        return username === "ada" && password === "lovelace" ? demoUser : null
      },
    }),
  ],
  callbacks: {
    // `update({ name })` from useSession (or unstable_update) lands here.
    jwt({ token, trigger, session }) {
      const name = (session as { name?: unknown } | undefined)?.name
      if (trigger === "update" && typeof name === "string" && name.trim()) token.name = name.trim().slice(0, 64)
      return token
    },
    // Consulted by the proxy (proxy.ts) on every page it matches.
    authorized({ auth, request }) {
      if (request.nextUrl.pathname.startsWith("/middleware-protected")) return !!auth
      return true
    },
  },
})
