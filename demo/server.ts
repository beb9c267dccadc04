/**
 * The authflow demo: a plain node:http server with Auth() mounted under /auth, on embedded
 * defaults — a SQLite file (created and migrated on first start), database sessions, an
 * in-process OpenID Provider on another loopback port, email sign-in with the link printed here.
 *
 *   npm install && npm start        → http://localhost:3000
 *
 * Demo accounts: ada / lovelace, grace / hopper. At the OpenID Provider, any login name works.
 * It listens on 127.0.0.1: set HOST=0.0.0.0 to open it to the network. The inspector at /inspect
 * answers only requests from this machine either way (it shows who signs in). AUTH_GITHUB_ID/AUTH_GITHUB_SECRET (and the same for Google) add those providers.
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
import GitHub from "../src/providers/github.js"
import Google from "../src/providers/google.js"
import { SIMPLEWEBAUTHN_BROWSER_BUNDLE } from "../src/pages/webauthn-browser.js"
import type { AuthConfig, Provider, Session } from "../src/types.js"

/**
 * OAuth providers the demo adds when their environment variables are set: the variables are the ones
 * `setEnvDefaults` reads, `AUTH_<ID>_ID` and `AUTH_<ID>_SECRET`, and the home page lists them.
 */
const optionalProviders: { id: string; name: string; factory: (options: { clientId: string; clientSecret?: string }) => Provider }[] = [
  { id: "github", name: "GitHub", factory: (options) => GitHub(options) },
  { id: "google", name: "Google", factory: (options) => Google(options) },
]

const envName = (id: string, suffix: "ID" | "SECRET") => `AUTH_${id.toUpperCase().replace(/-/g, "_")}_${suffix}`

/** Options of {@link startDemo}. */
export interface DemoOptions {
  /** Port of the app; 0 picks a free one. Default 3000. */
  port?: number
  /** Host to listen on. Default `127.0.0.1`: the demo and its inspector stay on this machine. */
  host?: string
  /** Where `AUTH_<ID>_ID`/`_SECRET` of the optional providers are read. Default `process.env`. */
  env?: Record<string, string | undefined>
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
  await new Promise<void>((resolve) => server.listen(options.port ?? 3000, options.host ?? "127.0.0.1", resolve))
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
  // Every flow, live, at /inspect: served only to requests from this machine (toWebRequest records the
  // socket's address), and never when NODE_ENV is production: the inspector's safe default.
  const inspector = createInspector({ basePath: "/inspect" })

  const config: AuthConfig = demoAuthConfig({ adapter: database.adapter, issuer: identityProvider.issuer, clientSecret, onSignInLink, inspect: inspector.inspect })
  const env = options.env ?? process.env
  const enabled = optionalProviders.filter((provider) => env[envName(provider.id, "ID")])
  for (const provider of enabled) {
    config.providers.push(provider.factory({ clientId: env[envName(provider.id, "ID")]!, clientSecret: env[envName(provider.id, "SECRET")] }))
  }
  const sessionOf = async (request: Request) => {
    const response = await Auth(new Request(new URL("/auth/session", request.url), { headers: request.headers }), config)
    return { session: (await response.json()) as Session | null, cookies: response.headers.getSetCookie() }
  }
  const html = (body: string, cookies: string[], status = 200) => {
    const headers = new Headers({ "content-type": "text/html; charset=utf-8" })
    for (const cookie of cookies) headers.append("set-cookie", cookie)
    return new Response(body, { status, headers })
  }

  handle = async (request) => {
    const url = new URL(request.url)
    if (url.pathname.startsWith("/auth/")) return Auth(request, config)
    if (url.pathname === "/inspect" || url.pathname.startsWith("/inspect/")) return inspector.handler(request)
    if (url.pathname === "/favicon.ico" || url.pathname === "/favicon.svg") {
      return new Response(favicon, { headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" } })
    }
    if (url.pathname === "/protected") {
      const { session, cookies } = await sessionOf(request)
      if (!session?.user) {
        const signIn = new URL("/auth/signin", url)
        signIn.searchParams.set("callbackUrl", url.href)
        return new Response(null, { status: 302, headers: { location: signIn.href } })
      }
      return html(protectedPage(session), cookies)
    }
    if (url.pathname === "/passkey.js") return new Response(passkeyScript, { headers: { "content-type": "text/javascript; charset=utf-8" } })
    if (url.pathname !== "/") return new Response("Not found", { status: 404, headers: { "content-type": "text/plain" } })
    const { session, cookies } = await sessionOf(request)
    // Signed in: the "Add a passkey" form posts with a CSRF token, as every form to /auth does.
    let csrfToken = ""
    if (session?.user) {
      const csrfResponse = await Auth(new Request(new URL("/auth/csrf", url), { headers: request.headers }), config)
      csrfToken = ((await csrfResponse.json()) as { csrfToken: string }).csrfToken
      cookies.push(...csrfResponse.headers.getSetCookie())
    }
    return html(homePage(session, { origin: url.origin, enabled: enabled.map((provider) => provider.id), csrfToken }), cookies)
  }

  return {
    url: `http://${options.host && options.host !== "127.0.0.1" && options.host !== "::1" && options.host !== "0.0.0.0" ? options.host : "localhost"}:${port}`,
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

/** An "a" on the demo's indigo: the favicon, served at /favicon.ico and /favicon.svg. */
const favicon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#4f46e5"/><path d="M10 22l6-13 6 13M12.5 17h7" stroke="#fff" stroke-width="2.6" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>`

/**
 * An expiry for people: "in 30 days (25 Dec 2026, 08:00 UTC)", the exact instant in `datetime`.
 *
 * @example
 * ```ts
 * humanExpiry("2026-12-25T08:00:00.000Z", Date.parse("2026-11-25T08:00:00.000Z")) // "in 30 days (25 Dec 2026, 08:00 UTC)"
 * ```
 */
export function humanExpiry(expires: string, now = Date.now()): string {
  const at = Date.parse(expires)
  if (Number.isNaN(at)) return expires
  const seconds = Math.round((at - now) / 1000)
  const units: [Intl.RelativeTimeFormatUnit, number][] = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]]
  const [unit, size] = units.find(([, size]) => Math.abs(seconds) >= size) ?? ["second", 1]
  const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" }).format(Math.round(seconds / size), unit)
  const absolute = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(at)
  return `${relative} (${absolute} UTC)`
}

const styles = `
:root{color-scheme:light dark;--bg:#f4f4f5;--card:#fff;--text:#18181b;--muted:#3f3f46;--link:#4338ca;--shadow:0 1px 3px #0002}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--card:#1c2128;--text:#e6e8eb;--muted:#b5bcc6;--link:#a5b4fc;--shadow:0 1px 3px #0008}}
body{font-family:system-ui,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;background:var(--bg);color:var(--text)}
main{background:var(--card);padding:2rem 2.5rem;border-radius:12px;box-shadow:var(--shadow);max-width:34rem}
a{color:var(--link)}h1{margin-top:0}.button{display:inline-block;background:#4f46e5;color:#fff;padding:.6rem 1.2rem;border-radius:8px;text-decoration:none;border:0;font:inherit;cursor:pointer}
.button:focus-visible{outline:3px solid #a5b4fc;outline-offset:2px}.hint{color:var(--muted);font-size:.9rem;line-height:1.5}
ul{padding-left:1.2rem}code{font-size:.9em}`

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><link rel="icon" href="/favicon.svg" type="image/svg+xml">
<title>${escapeHtml(title)}</title><style>${styles}</style></head><body><main>${body}</main></body></html>`
}

function signedInAs(session: Session): string {
  const user = session.user!
  return `<p>Signed in as <strong>${escapeHtml(user.name ?? user.email ?? "")}</strong>${user.email ? ` (${escapeHtml(user.email)})` : ""}.</p>
       <p>Session expires <time datetime="${escapeHtml(session.expires)}">${escapeHtml(humanExpiry(session.expires))}</time>; every visit extends it.</p>`
}

function protectedPage(session: Session): string {
  return page(
    "Protected: authflow demo",
    `<h1>Protected page</h1>${signedInAs(session)}
<p>Only signed-in users see this page: signed out, <code>/protected</code> redirects to the sign-in page and back here.</p>
<p><a class="button" href="/auth/signout">Sign out</a> <a href="/">Home</a></p>`,
  )
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

function homePage(session: Session | null, context: { origin: string; enabled: string[]; csrfToken: string }): string {
  const who = session?.user
    ? `${signedInAs(session)}
       <form method="post" action="/auth/callback/passkey" data-add-passkey>
         <input type="hidden" name="csrfToken" value="${escapeHtml(context.csrfToken)}"><input type="hidden" name="action" value="register">
         <input type="hidden" name="data" value=""><input type="hidden" name="callbackUrl" value="/">
         <p><button class="button" type="submit">Add a passkey</button> <span data-status role="status"></span></p>
       </form>
       <p><a class="button" href="/auth/signout">Sign out</a> <a href="/protected">The protected page</a></p>
       <script src="/passkey.js"></script>`
    : `<p>You are not signed in.</p>
       <p><a class="button" href="/auth/signin">Sign in</a> <a href="/protected">The protected page</a> (sends you to sign in first)</p>
       <ul class="hint">
         <li><strong>Demo OpenID Provider</strong>: a real OpenID Provider running beside this demo; any login name works.</li>
         <li><strong>Email</strong>: the sign-in link is printed in the terminal running <code>npm start</code>.</li>
         <li><strong>Demo account</strong>: <code>ada</code> / <code>lovelace</code> or <code>grace</code> / <code>hopper</code>.</li>
         <li><strong>Passkey</strong>: type a new email and press "Sign in with Passkey" to register one, or sign in and "Add a passkey"; then sign in with it (the browser offers it in the email field).</li>
       </ul>`
  const providers = optionalProviders
    .map((provider) => {
      const state = context.enabled.includes(provider.id) ? "on" : "off"
      return `<li><strong>${provider.name}</strong> (${state}): <code>${envName(provider.id, "ID")}</code> and <code>${envName(provider.id, "SECRET")}</code>; callback URL <code>${escapeHtml(context.origin)}/auth/callback/${provider.id}</code></li>`
    })
    .join("")
  return page(
    "authflow demo",
    `<h1>authflow demo</h1>${who}
<h2>Watch your flows</h2><p><a href="/inspect">Open the flow inspector</a>: every sign-in and sign-out drawn on its state machine, live.</p>
<h2>More providers</h2><p class="hint">Each OAuth provider reads its client from two environment variables. Set them and restart <code>npm start</code>:</p><ul class="hint">${providers}</ul>
<h2>Endpoints</h2><ul><li><a href="/auth/session">/auth/session</a></li><li><a href="/auth/providers">/auth/providers</a></li><li><a href="/auth/csrf">/auth/csrf</a></li></ul>`,
  )
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const demo = await startDemo({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? "127.0.0.1" })
  console.log(`authflow demo on ${demo.url}${process.env.HOST ? ` (listening on ${process.env.HOST})` : " (listening on 127.0.0.1 only; HOST=0.0.0.0 opens it to the network)"}`)
  console.log(`  OpenID Provider: ${demo.identityProvider.issuer} (a stand-in: its warnings above, in-memory adapter and devInteractions, are about it, not about your app)`)
  if (!process.env.AUTH_SECRET) console.log("  (no AUTH_SECRET set: a random one is used, so sessions end when the demo restarts)")
  const stop = () => void demo.close().then(() => process.exit(0))
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
}
