/**
 * The authflow demo: a plain node:http server with Auth() mounted under /auth.
 *
 *   npm install && npm start        → http://localhost:3000
 *
 * Demo accounts: ada / lovelace, grace / hopper.
 */
import { createServer, type Server } from "node:http"
import { randomBytes, timingSafeEqual } from "node:crypto"
import { Auth } from "../src/index.js"
import Credentials from "../src/providers/credentials.js"
import { sendWebResponse, toWebRequest } from "../src/frameworks/node.js"
import type { AuthConfig, Session } from "../src/types.js"

const secret = process.env.AUTH_SECRET ?? randomBytes(32).toString("base64url")

const accounts = [
  { id: "1", username: "ada", password: "lovelace", name: "Ada Lovelace", email: "ada@example.test" },
  { id: "2", username: "grace", password: "hopper", name: "Grace Hopper", email: "grace@example.test" },
]

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

export const config: AuthConfig = {
  secret,
  trustHost: true,
  providers: [
    Credentials({
      name: "Demo account",
      credentials: {
        username: { label: "Username", autocomplete: "username", required: true },
        password: { label: "Password", type: "password", autocomplete: "current-password", required: true },
      },
      authorize({ username, password }) {
        const account = accounts.find((candidate) => candidate.username === String(username ?? ""))
        if (!account || !sameText(account.password, String(password ?? ""))) return null
        return { id: account.id, name: account.name, email: account.email }
      },
    }),
  ],
  theme: { brandColor: "#4f46e5" },
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function homePage(session: Session | null): string {
  const who = session?.user
    ? `<p>Signed in as <strong>${escapeHtml(session.user.name ?? "")}</strong> (${escapeHtml(session.user.email ?? "")}).</p>
       <p>Session expires ${escapeHtml(session.expires)}.</p>
       <p><a class="button" href="/auth/signout">Sign out</a></p>`
    : `<p>You are not signed in.</p>
       <p><a class="button" href="/auth/signin">Sign in</a></p>
       <p class="hint">Demo accounts: <code>ada</code> / <code>lovelace</code>, <code>grace</code> / <code>hopper</code>.</p>`
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>authflow demo</title><style>
body{font-family:system-ui,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;background:#f4f4f5;color:#18181b}
main{background:#fff;padding:2rem 2.5rem;border-radius:12px;box-shadow:0 1px 3px #0002;max-width:32rem}
h1{margin-top:0}.button{display:inline-block;background:#4f46e5;color:#fff;padding:.6rem 1.2rem;border-radius:8px;text-decoration:none}
.button:focus-visible{outline:3px solid #a5b4fc;outline-offset:2px}.hint{color:#52525b;font-size:.9rem}
ul{padding-left:1.2rem}</style></head><body><main><h1>authflow demo</h1>${who}
<h2>Endpoints</h2><ul><li><a href="/auth/session">/auth/session</a></li><li><a href="/auth/providers">/auth/providers</a></li><li><a href="/auth/csrf">/auth/csrf</a></li></ul>
</main></body></html>`
}

/** The demo's HTTP server, not yet listening. */
export function createDemoServer(): Server {
  return createServer(async (req, res) => {
  try {
    const request = await toWebRequest(req)
    const url = new URL(request.url)
    if (url.pathname.startsWith("/auth/")) return await sendWebResponse(res, await Auth(request, config))
    if (url.pathname !== "/") {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found")
      return
    }
    const sessionResponse = await Auth(new Request(new URL("/auth/session", url), { headers: request.headers }), config)
    const session = (await sessionResponse.json()) as Session | null
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "set-cookie": sessionResponse.headers.getSetCookie() })
    res.end(homePage(session))
  } catch (error) {
    console.error(error)
    if (!res.headersSent) res.writeHead(error instanceof RangeError ? 413 : 500, { "content-type": "text/plain" })
    res.end(error instanceof RangeError ? "Request too large" : "Internal error")
  }
  })
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.env.PORT ?? 3000)
  createDemoServer().listen(port, () => {
    console.log(`authflow demo on http://localhost:${port}`)
    if (!process.env.AUTH_SECRET) console.log("(no AUTH_SECRET set: using a random one, so sessions end when the demo restarts)")
  })
}
