/**
 * The authflow demo: a plain node:http server with Auth() mounted under /auth, on embedded
 * defaults — a SQLite file (created and migrated on first start), database sessions, an
 * in-process OpenID Provider on another loopback port, email sign-in with the link printed here,
 * and passkeys (register one with an email on the sign-in page, or "Add a passkey" once signed in).
 *
 *   npm install && npm start        → http://localhost:3000
 *
 * Demo accounts: ada / lovelace, grace / hopper. At the OpenID Provider, any login name works.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import { randomBytes } from "node:crypto"
import { Auth } from "../src/index.js"
import { sendWebResponse, toWebRequest } from "../src/frameworks/node.js"
import { startOidcProvider, type RunningProvider } from "./oidc-provider.js"
import { createInspector } from "../src/inspect/index.js"
import { demoAuthConfig, demoDatabase } from "./auth.config.js"
import { SIMPLEWEBAUTHN_BROWSER_BUNDLE } from "../src/pages/webauthn-browser.js"
import type { AuthConfig, Session } from "../src/types.js"

/** Options of {@link startDemo}. */
export interface DemoOptions {
  /** Port of the app; 0 picks a free one. Default 3000. */
  port?: number
  /** Host to listen on. Default: all interfaces. */
  host?: string
  /** The SQLite file. Default `.data/authflow-demo.sqlite`. */
  databaseFile?: string
  /** Where sign-in links go. Default: printed to the console. */
  onSignInLink?: (email: string, url: string) => void
}

/** A running demo. */
export interface Demo {
  url: string
  server: Server
  config: AuthConfig
  identityProvider: RunningProvider
  close(): Promise<void>
}

/**
 * Starts the demo: the database, the app server, and the OpenID Provider it signs in with.
 *
 * @example
 * ```ts
 * const demo = await startDemo({ port: 0, databaseFile: ":memory:" })
 * console.log(demo.url)
 * await demo.close()
 * ```
 */
export async function startDemo(options: DemoOptions = {}): Promise<Demo> {
  const databaseFile = options.databaseFile ?? ".data/authflow-demo.sqlite"
  if (databaseFile !== ":memory:") mkdirSync(dirname(databaseFile), { recursive: true })
  const database = await demoDatabase(databaseFile)

  let handle: (request: Request) => Promise<Response> = async () => new Response("starting", { status: 503 })
  const server = createServer(async (req, res) => {
    try {
      await sendWebResponse(res, await handle(await toWebRequest(req)))
    } catch (error) {
      if (!(error instanceof RangeError)) console.error(error)
      if (!res.headersSent) res.writeHead(error instanceof RangeError ? 413 : 500, { "content-type": "text/plain" })
      res.end(error instanceof RangeError ? "Request too large" : "Internal error")
    }
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 3000, options.host, resolve))
  const port = (server.address() as AddressInfo).port

  const clientSecret = randomBytes(24).toString("base64url")
  const identityProvider = await startOidcProvider({
    clients: [
      {
        client_id: "authflow-demo",
        client_secret: clientSecret,
        redirect_uris: [`http://localhost:${port}/auth/callback/demo-idp`, `http://127.0.0.1:${port}/auth/callback/demo-idp`],
      },
    ],
  })
  const onSignInLink = options.onSignInLink ?? ((email, url) => console.log(`\nSign-in link for ${email}:\n  ${url}\n`))
  // Every flow, live, at /inspect (refused when NODE_ENV is production: the inspector's safe default).
  const inspector = createInspector({ basePath: "/inspect" })

  const config: AuthConfig = demoAuthConfig({ adapter: database.adapter, issuer: identityProvider.issuer, clientSecret, onSignInLink, inspect: inspector.inspect })

  handle = async (request) => {
    const url = new URL(request.url)
    if (url.pathname.startsWith("/auth/")) return Auth(request, config)
    if (url.pathname === "/inspect" || url.pathname.startsWith("/inspect/")) return inspector.handler(request)
    if (url.pathname === "/passkey.js") return new Response(passkeyScript, { headers: { "content-type": "text/javascript; charset=utf-8" } })
    if (url.pathname !== "/") return new Response("Not found", { status: 404, headers: { "content-type": "text/plain" } })
    const sessionResponse = await Auth(new Request(new URL("/auth/session", url), { headers: request.headers }), config)
    const session = (await sessionResponse.json()) as Session | null
    const headers = new Headers({ "content-type": "text/html; charset=utf-8" })
    for (const cookie of sessionResponse.headers.getSetCookie()) headers.append("set-cookie", cookie)
    // Signed in: the "Add a passkey" form posts with a CSRF token, as every form to /auth does.
    let csrfToken = ""
    if (session?.user) {
      const csrfResponse = await Auth(new Request(new URL("/auth/csrf", url), { headers: request.headers }), config)
      csrfToken = ((await csrfResponse.json()) as { csrfToken: string }).csrfToken
      for (const cookie of csrfResponse.headers.getSetCookie()) headers.append("set-cookie", cookie)
    }
    return new Response(homePage(session, csrfToken), { headers })
  }

  return {
    url: `http://localhost:${port}`,
    server,
    config,
    identityProvider,
    async close() {
      await new Promise((resolve) => server.close(resolve))
      await identityProvider.close()
      await database.close()
    },
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/**
 * `@simplewebauthn/browser` (served from the library, never a CDN), then the "Add a passkey" form:
 * registration options for the signed-in user, the browser's ceremony, its answer posted to the
 * passkey provider's callback.
 */
const passkeyScript = `${SIMPLEWEBAUTHN_BROWSER_BUNDLE}
;(() => {
  const form = document.querySelector("form[data-add-passkey]")
  if (!form) return
  const status = form.querySelector("[data-status]")
  form.addEventListener("submit", async (event) => {
    event.preventDefault()
    status.textContent = ""
    try {
      const response = await fetch("/auth/webauthn-options/passkey?action=register", { credentials: "same-origin" })
      if (!response.ok) throw new Error("the options request answered " + response.status)
      const { options } = await response.json()
      const answer = await SimpleWebAuthnBrowser.startRegistration({ optionsJSON: options })
      form.elements.namedItem("data").value = JSON.stringify(answer)
      HTMLFormElement.prototype.submit.call(form)
    } catch (error) {
      console.error("[demo] passkey:", error)
      status.textContent = "The passkey was not added. Try again."
    }
  })
})()
`

function homePage(session: Session | null, csrfToken = ""): string {
  const who = session?.user
    ? `<p>Signed in as <strong>${escapeHtml(session.user.name ?? session.user.email ?? "")}</strong>${session.user.email ? ` (${escapeHtml(session.user.email)})` : ""}.</p>
       <p>Session expires ${escapeHtml(session.expires)}.</p>
       <form method="post" action="/auth/callback/passkey" data-add-passkey>
         <input type="hidden" name="csrfToken" value="${escapeHtml(csrfToken)}"><input type="hidden" name="action" value="register">
         <input type="hidden" name="data" value=""><input type="hidden" name="callbackUrl" value="/">
         <p><button class="button" type="submit">Add a passkey</button> <span data-status role="status"></span></p>
       </form>
       <p><a class="button" href="/auth/signout">Sign out</a></p>
       <script src="/passkey.js"></script>`
    : `<p>You are not signed in.</p>
       <p><a class="button" href="/auth/signin">Sign in</a></p>
       <ul class="hint">
         <li><strong>Demo OpenID Provider</strong>: a real OpenID Provider running beside this demo; any login name works.</li>
         <li><strong>Email</strong>: the sign-in link is printed in the terminal running <code>npm start</code>.</li>
         <li><strong>Demo account</strong>: <code>ada</code> / <code>lovelace</code> or <code>grace</code> / <code>hopper</code>.</li>
         <li><strong>Passkey</strong>: type a new email and press "Sign in with Passkey" to register one, or sign in and "Add a passkey"; then sign in with it (the browser offers it in the email field).</li>
       </ul>`
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>authflow demo</title><style>
body{font-family:system-ui,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;background:#f4f4f5;color:#18181b}
main{background:#fff;padding:2rem 2.5rem;border-radius:12px;box-shadow:0 1px 3px #0002;max-width:34rem}
h1{margin-top:0}.button{display:inline-block;background:#4f46e5;color:#fff;padding:.6rem 1.2rem;border-radius:8px;text-decoration:none;border:0;font:inherit;cursor:pointer}
.button:focus-visible{outline:3px solid #a5b4fc;outline-offset:2px}.hint{color:#3f3f46;font-size:.9rem;line-height:1.5}
ul{padding-left:1.2rem}</style></head><body><main><h1>authflow demo</h1>${who}
<h2>Watch your flows</h2><p><a href="/inspect">Open the flow inspector</a>: every sign-in and sign-out drawn on its state machine, live.</p>
<h2>Endpoints</h2><ul><li><a href="/auth/session">/auth/session</a></li><li><a href="/auth/providers">/auth/providers</a></li><li><a href="/auth/csrf">/auth/csrf</a></li></ul>
</main></body></html>`
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const demo = await startDemo({ port: Number(process.env.PORT ?? 3000) })
  console.log(`authflow demo on ${demo.url}`)
  console.log(`  OpenID Provider: ${demo.identityProvider.issuer}`)
  if (!process.env.AUTH_SECRET) console.log("  (no AUTH_SECRET set: a random one is used, so sessions end when the demo restarts)")
  const stop = () => void demo.close().then(() => process.exit(0))
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
}
