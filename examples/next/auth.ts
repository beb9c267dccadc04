import NextAuth from "authflow/next"
import { MemoryAdapter } from "authflow/adapters/memory"
import Credentials from "authflow/providers/credentials"
import Passkey from "authflow/providers/passkey"

/** The demo's password account. A real app looks users up and checks a password hash. */
const demoUser = { id: "1", name: "Ada Lovelace", email: "ada@example.test" }

// Passkeys need a database for their users and authenticators; the demo keeps them in memory. Next.js
// bundles this file separately for route handlers, pages and the proxy: one store for all of them.
const shared = globalThis as { demoAdapter?: ReturnType<typeof MemoryAdapter> }
const adapter = (shared.demoAdapter ??= MemoryAdapter())

export const { handlers, auth, signIn, signInAction, signOut, unstable_update } = NextAuth({
  // AUTH_SECRET and AUTH_URL come from the environment (see README.md).
  pages: { signIn: "/signin" },
  adapter,
  // With an adapter the default would be database sessions (credentials sign-ins work with those
  // too); JWTs let the edge route (edge-auth.ts, no adapter) read the same sessions.
  session: { strategy: "jwt" },
  // Passkeys are experimental: this prints the "experimental-webauthn" warning once.
  experimental: { enableWebAuthn: true },
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize({ username, password }) {
        return username === "ada" && password === "lovelace" ? demoUser : null
      },
    }),
    // The relying party (ID, name, origin) follows the request's host; set `relayingParty` in production.
    Passkey,
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
