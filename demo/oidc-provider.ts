/**
 * A real, certified OpenID Provider (`oidc-provider`) on loopback for tests and the demo: listens
 * on a random port, registers clients, and signs users in through its development login, which
 * {@link loginAtProvider} drives like a browser would.
 *
 * oidc-provider 8.x, the line that supports Node 20 (package.json `engines`): 9.x prints
 * "Unsupported runtime. Use Node.js v22.x LTS" below Node 22, to everyone running the demo there.
 * 8.x sends back-channel logouts to apps on loopback as they are; 9.x needs a `fetch` option that
 * leaves out its SSRF guard's dispatcher.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { exportJWK, generateKeyPair } from "jose"
import Provider, { type ClientMetadata, type Configuration } from "oidc-provider"

export interface TestAccount {
  sub: string
  email: string
  name: string
  email_verified?: boolean
}

export interface RunningProvider {
  issuer: string
  provider: Provider
  /** The key the provider signs ID tokens with (RS256), for tests that forge tokens it would accept. */
  signingKey: { privateKey: CryptoKey; kid: string }
  close(): Promise<void>
}

/**
 * Starts oidc-provider on 127.0.0.1 with the given clients and accounts (any login name is an
 * account id). `configuration` is laid over the defaults (refresh-token rotation, token lifetimes).
 */
export async function startOidcProvider(options: {
  clients: ClientMetadata[]
  accounts?: Record<string, TestAccount>
  port?: number
  /** Features to turn on besides the development login, e.g. `{ backchannelLogout: { enabled: true } }`. */
  features?: Record<string, unknown>
  /** Configuration laid over the defaults, e.g. `{ rotateRefreshToken: true, ttl: { AccessToken: 2 } }`. */
  configuration?: Configuration
  /** Told of every request the provider receives, e.g. to count the fetches of its key set. */
  onRequest?: (method: string, url: string) => void
}): Promise<RunningProvider> {
  let handler: ((req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void) | undefined
  const server: Server = createServer((req, res) => {
    options.onRequest?.(req.method ?? "GET", req.url ?? "/")
    handler!(req, res)
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  // A known signing key instead of oidc-provider's generated development key, so tests can sign tokens with it.
  const kid = "oidc-provider-test-signing-key"
  const { privateKey } = await generateKeyPair("RS256", { extractable: true })
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" }
  const provider = new Provider(issuer, {
    clients: options.clients,
    findAccount: (_ctx, id) => {
      const account = options.accounts?.[id] ?? { sub: id, email: `${id}@example.test`, name: id, email_verified: true }
      return { accountId: id, claims: () => ({ ...account, sub: id }) }
    },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    features: { devInteractions: { enabled: true }, ...options.features },
    pkce: { required: () => true },
    cookies: { keys: ["oidc-provider-test-key"] },
    jwks: { keys: [privateJwk] },
    // oidc-provider's own default lifetimes, as values: its default functions print a notice each
    // ("you SHOULD change it") on the first sign-in, which the demo's user cannot act on.
    ttl: { Interaction: 60 * 60, Session: 14 * 24 * 60 * 60, Grant: 14 * 24 * 60 * 60, AccessToken: 60 * 60, IdToken: 60 * 60 },
    ...options.configuration,
  })
  provider.on("server_error", (_ctx, error) => console.error("oidc-provider server_error", error))
  handler = provider.callback()
  return { issuer, provider, signingKey: { privateKey, kid }, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

/** A cookie jar for the provider's own cookies, kept apart from the app's. */
export class ProviderCookies {
  readonly cookies = new Map<string, string>()
  take(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const pair = header.split(";")[0]!
      const name = pair.slice(0, pair.indexOf("="))
      const value = pair.slice(pair.indexOf("=") + 1)
      if (/expires=Thu, 01 Jan 1970/i.test(header) || value === "") this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ")
  }
}

/** What a page of the provider makes the browser do next: follow a link, post a form, or stop there. */
type PageStep = { follow: string } | { post: string; form: Record<string, string> } | "stop"

/**
 * Walks the provider's pages as a browser with the provider's cookies `jar` would: redirects within
 * the provider are followed, each page answered by `onPage`, and the first redirect that leaves the
 * provider (back to the app) is returned; a page answered with `"stop"` returns its own URL.
 */
async function walkProvider(start: string, jar: ProviderCookies, onPage: (html: string, url: URL, status: number) => PageStep): Promise<URL> {
  let url = new URL(start)
  let form: Record<string, string> | undefined
  for (let step = 0; step < 20; step++) {
    const response = await fetch(url, {
      method: form ? "POST" : "GET",
      redirect: "manual",
      headers: { cookie: jar.header(), ...(form && { "content-type": "application/x-www-form-urlencoded" }) },
      ...(form && { body: new URLSearchParams(form) }),
    })
    jar.take(response)
    form = undefined
    const location = response.headers.get("location")
    if (location) {
      const next = new URL(location, url)
      if (next.origin !== url.origin) return next
      url = next
      continue
    }
    const next = onPage(await response.text(), url, response.status)
    if (next === "stop") return url
    if ("follow" in next) url = new URL(next.follow.replace(/&amp;/g, "&"), url)
    else {
      url = new URL(next.post.replace(/&amp;/g, "&"), url)
      form = next.form
    }
  }
  throw new Error(`oidc-provider: too many steps from ${start}`)
}

/**
 * Follows an authorization URL through the provider's development login and consent, as a browser
 * would, and returns the redirect back to the app (`redirect_uri?code=…&state=…&iss=…`). With
 * `cancel`, the user presses "[ Cancel ]" on the first page instead: the redirect then carries
 * `error=access_denied`.
 */
export async function loginAtProvider(authorizationUrl: string, login: string, options: { cancel?: boolean; jar?: ProviderCookies } = {}): Promise<URL> {
  return walkProvider(authorizationUrl, options.jar ?? new ProviderCookies(), (html, url, status): PageStep => {
    const abort = /<a href="([^"]+)">\[ Cancel \]<\/a>/.exec(html)?.[1]
    if (options.cancel && abort) return { follow: abort }
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]
    if (!action) throw new Error(`oidc-provider: no form at ${url} (${status}): ${html.slice(0, 300)}`)
    const form: Record<string, string> = /name="login"/.test(html) ? { prompt: "login", login, password: "any" } : { prompt: "consent" }
    return { post: action, form }
  })
}

/**
 * Follows the provider's end-session URL as a browser with the provider's cookies `jar` would:
 * confirms the logout on the provider's page and returns where the provider sends the browser
 * afterwards (the `post_logout_redirect_uri`, or the provider's own success page).
 */
export async function logoutAtProvider(endSessionUrl: string, jar: ProviderCookies): Promise<URL> {
  return walkProvider(endSessionUrl, jar, (html) => {
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]
    if (!action) return "stop"
    const fields = Object.fromEntries([...html.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]))
    return { post: action, form: { ...fields, logout: "yes" } }
  })
}
