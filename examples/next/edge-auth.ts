import NextAuth from "authflow/next"
import Credentials from "authflow/providers/credentials"

/**
 * The same demo account as auth.ts, served by a route on the edge runtime
 * (app/api/edge-auth/[...nextauth]/route.ts). Edge routes run in a sandbox of their own, so this
 * config keeps out what needs the Node.js routes' memory (the MemoryAdapter and Passkey) and
 * Node itself (Nodemailer): credentials and JWT sessions. With the same AUTH_SECRET and cookie
 * names, a session signed in here reads in the Node.js routes and pages, and the other way round.
 */
const demoUser = { id: "1", name: "Ada Lovelace", email: "ada@example.test" }

export const { handlers } = NextAuth({
  basePath: "/api/edge-auth",
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize({ username, password }) {
        return username === "ada" && password === "lovelace" ? demoUser : null
      },
    }),
  ],
})
