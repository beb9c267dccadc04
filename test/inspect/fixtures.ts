/**
 * Real flows through `Auth()` with known secret values, shared by the inspector tests: a stand-in
 * OpenID Provider reached through `customFetch`, credentials, sign-out and email link sign-in.
 */
import { createHash, randomBytes } from "node:crypto"
import { SignJWT, exportJWK, generateKeyPair } from "jose"
import { createActor, type InspectionEvent, type Observer } from "xstate"
import { credentialsSignInMachine } from "../../src/machines/credentials-sign-in.js"
import { customFetch } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Credentials from "../../src/providers/credentials.js"
import { CookieJar, csrfTokenFor, origin, send } from "../helpers.js"
import type { OIDCConfig } from "../../src/providers/oauth.js"
import type { EmailConfig } from "../../src/providers/email-config.js"
import type { AuthConfig, Provider } from "../../src/types.js"

const keys = await generateKeyPair("RS256")
const jwk = { ...(await exportJWK(keys.publicKey)), kid: "inspect-key", alg: "RS256", use: "sig" }
let issuers = 0

/** Every secret value the flows below meet: none of them may ever reach the inspector's output. */
export class Secrets {
  readonly values = new Set<string>()
  add(...values: (string | null | undefined)[]): void {
    for (const value of values) if (value) this.values.add(value)
  }
  /** The secrets found in `text` (an empty list is the only right answer). */
  foundIn(text: string): string[] {
    return [...this.values].filter((value) => text.includes(value) || text.includes(encodeURIComponent(value)))
  }
}

/** An OpenID Provider in memory: discovery, JWKS, codes, a PKCE-checking token endpoint, userinfo. */
export class StandInOP {
  readonly issuer = `https://op-inspect-${++issuers}.test`
  readonly clientId = "inspect-client"
  readonly clientSecret = `client-secret-${randomBytes(16).toString("hex")}`
  readonly subject = "op-user-1"
  readonly #grants = new Map<string, { nonce: string | null; challenge: string | null }>()
  constructor(readonly secrets: Secrets) {
    secrets.add(this.clientSecret)
  }

  /** The user consents at the authorization endpoint: a code is minted. */
  authorize(authorizationUrl: URL): string {
    const q = authorizationUrl.searchParams
    const code = `code-${randomBytes(16).toString("base64url")}`
    this.secrets.add(code, q.get("state"), q.get("nonce"), q.get("code_challenge"))
    this.#grants.set(code, { nonce: q.get("nonce"), challenge: q.get("code_challenge") })
    return code
  }

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    switch (`${request.method} ${url.origin}${url.pathname}`) {
      case `GET ${this.issuer}/.well-known/openid-configuration`:
        return Response.json({
          issuer: this.issuer,
          authorization_endpoint: `${this.issuer}/authorize`,
          token_endpoint: `${this.issuer}/token`,
          userinfo_endpoint: `${this.issuer}/userinfo`,
          jwks_uri: `${this.issuer}/jwks`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
          code_challenge_methods_supported: ["S256"],
        })
      case `GET ${this.issuer}/jwks`:
        return Response.json({ keys: [jwk] })
      case `POST ${this.issuer}/token`: {
        const form = new URLSearchParams(await request.text())
        const verifier = form.get("code_verifier") ?? ""
        this.secrets.add(verifier, request.headers.get("authorization"))
        const grant = this.#grants.get(form.get("code") ?? "")
        if (!grant || createHash("sha256").update(verifier).digest("base64url") !== grant.challenge) return Response.json({ error: "invalid_grant" }, { status: 400 })
        const idToken = await new SignJWT({ sub: this.subject, name: "Ada Lovelace", ...(grant.nonce && { nonce: grant.nonce }) })
          .setProtectedHeader({ alg: "RS256", kid: jwk.kid, typ: "JWT" })
          .setIssuer(this.issuer)
          .setAudience(this.clientId)
          .setIssuedAt()
          .setExpirationTime("10m")
          .sign(keys.privateKey)
        const accessToken = `at-${randomBytes(16).toString("base64url")}`
        const refreshToken = `rt-${randomBytes(16).toString("base64url")}`
        this.secrets.add(idToken, accessToken, refreshToken)
        return Response.json({ access_token: accessToken, refresh_token: refreshToken, token_type: "Bearer", expires_in: 3600, id_token: idToken })
      }
      case `GET ${this.issuer}/userinfo`:
        return Response.json({ sub: this.subject, name: "Ada Lovelace", email: "ada@example.test" })
      default:
        return new Response("not found", { status: 404 })
    }
  }

  provider(): Provider {
    const provider: OIDCConfig = {
      id: "op",
      name: "Stand-in OP",
      type: "oidc",
      issuer: this.issuer,
      clientId: this.clientId,
      clientSecret: this.clientSecret,
      [customFetch]: this.fetch,
    }
    return provider as unknown as Provider
  }
}

/** The password every credentials sign-in below uses, and the one a wrong attempt uses. */
export const password = `pw-${randomBytes(12).toString("hex")}`
export const wrongPassword = `wrong-${randomBytes(12).toString("hex")}`

/** A configuration with credentials, a stand-in OpenID Provider and an email provider, all observed by `inspect`. */
export function flowsConfig(inspect: AuthConfig["inspect"], secrets: Secrets) {
  const op = new StandInOP(secrets)
  const authSecret = `auth-secret-${randomBytes(16).toString("hex")}`
  secrets.add(authSecret, password, wrongPassword)
  const links: { url: string; token: string }[] = []
  const email: EmailConfig = {
    id: "email",
    name: "Email",
    type: "email",
    maxAge: 600,
    sendVerificationRequest: ({ url, token }) => {
      secrets.add(token)
      links.push({ url, token })
    },
  }
  const config: AuthConfig = {
    secret: authSecret,
    trustHost: true,
    adapter: MemoryAdapter(),
    session: { strategy: "jwt" },
    inspect,
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: ({ username, password: given }) => (given === password ? { id: "u1", name: String(username), email: "ada@example.test" } : null),
      }),
      op.provider(),
      email as unknown as Provider,
    ],
  }
  return { config, op, links }
}

/** Every cookie is a secret but the callback URL one (a URL the page may show). */
function remember(jar: CookieJar, secrets: Secrets): void {
  for (const [name, value] of jar.cookies) if (!name.includes("callback-url")) secrets.add(value, decodeURIComponent(value))
}

/**
 * Runs every kind of flow once through `Auth()`: a credentials sign-in with a wrong password and a
 * right one, a sign-out, an OAuth sign-in and its callback (the flow resumed from its sealed
 * cookie), an email link asked for and followed. Every secret met is added to `secrets`.
 */
export async function runEveryFlow(inspect: AuthConfig["inspect"], secrets: Secrets) {
  const { config, op, links } = flowsConfig(inspect, secrets)
  const jar = new CookieJar()
  const csrfToken = await csrfTokenFor(config, jar)
  secrets.add(csrfToken)
  remember(jar, secrets)

  await send(config, jar, "/callback/credentials", { form: { csrfToken, username: "ada", password: wrongPassword } })
  const signedIn = await send(config, jar, "/callback/credentials", { form: { csrfToken, username: "ada", password } })
  remember(jar, secrets)
  await send(config, jar, "/signout", { form: { csrfToken } })

  const oauth = await send(config, jar, "/signin/op", { form: { csrfToken, callbackUrl: "/dashboard" } })
  remember(jar, secrets)
  const authorizationUrl = new URL(oauth.headers.get("location")!)
  const code = op.authorize(authorizationUrl)
  const callback = await send(config, jar, `${origin}/auth/callback/op?${new URLSearchParams({ code, state: authorizationUrl.searchParams.get("state")! })}`)
  remember(jar, secrets)

  await send(config, jar, "/signin/email", { form: { csrfToken, email: "grace@example.test" } })
  const link = links.at(-1)!
  secrets.add(link.url)
  const verified = await send(config, jar, link.url)
  remember(jar, secrets)
  return { signedIn, callback, verified, config }
}

/** Starts an OAuth sign-in as the browser with `jar`: the URL the user is sent to at the provider. */
export async function startOAuth(config: AuthConfig, jar: CookieJar, callbackUrl = "/dashboard"): Promise<URL> {
  const csrfToken = await csrfTokenFor(config, jar)
  const response = await send(config, jar, "/signin/op", { form: { csrfToken, callbackUrl } })
  return new URL(response.headers.get("location")!)
}

/** Comes back from the provider to the callback, with a real code or a forged one. */
export async function finishOAuth(config: AuthConfig, jar: CookieJar, op: StandInOP, authorizationUrl: URL, forgeCode = false): Promise<Response> {
  const code = forgeCode ? "forged-code" : op.authorize(authorizationUrl)
  const params = new URLSearchParams({ code, state: authorizationUrl.searchParams.get("state")! })
  return send(config, jar, `${origin}/auth/callback/op?${params}`)
}

/** Credentials sign-ins as the engine runs them (five snapshots, a user in the context; every seventh refused), fast. */
export function recordSignIns(inspector: { inspect: Observer<InspectionEvent> }, count: number): void {
  for (let i = 0; i < count; i++) {
    const actor = createActor(credentialsSignInMachine, { inspect: inspector.inspect }).start()
    actor.send({ type: "csrf.valid" })
    if (i % 7 === 3) {
      actor.send({ type: "authorize.returned", user: null })
      continue
    }
    actor.send({ type: "authorize.returned", user: { id: `user-${i}`, name: `User ${i}`, email: `user${i}@example.test` } })
    actor.send({ type: "signIn.allowed" })
    actor.send({ type: "session.issued" })
  }
}
