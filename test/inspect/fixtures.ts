/**
 * Real flows through `Auth()` with known secret values, shared by the inspector tests: a stand-in
 * OpenID Provider reached through `customFetch`, credentials, sign-out and email link sign-in.
 */
import { randomBytes } from "node:crypto"
import { createActor, type InspectionEvent, type Observer } from "xstate"
import { credentialsSignInMachine } from "../../src/machines/credentials-sign-in.js"
import { customFetch } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Credentials from "../../src/providers/credentials.js"
import { StandInProvider } from "../../src/testing/stand-in.js"
import { CookieJar, csrfTokenFor, origin, send } from "../helpers.js"
import type { OIDCConfig } from "../../src/providers/oauth.js"
import type { EmailConfig } from "../../src/providers/email-config.js"
import type { AuthConfig, Provider } from "../../src/types.js"

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

/**
 * authflow/testing's stand-in OpenID Provider (src/testing/stand-in.ts) as provider `op`, with
 * every secret it is sent or hands out added to the {@link Secrets}: the client secret, each
 * authorization request's state, nonce and PKCE challenge, each code, verifier and client
 * authentication, each access, refresh and ID token.
 */
export class StandInOP {
  readonly clientId = "inspect-client"
  readonly clientSecret = `client-secret-${randomBytes(16).toString("hex")}`
  readonly standIn = new StandInProvider({
    id: "op",
    type: "oidc",
    clientId: this.clientId,
    clientSecret: this.clientSecret,
    claims: { name: "Ada Lovelace", email: "ada@example.test" },
    emailInIdToken: false,
    refreshToken: true,
  })
  readonly subject = this.standIn.subject
  constructor(readonly secrets: Secrets) {
    secrets.add(this.clientSecret, this.standIn.accessToken)
  }

  /** The user consents at the authorization endpoint: the parameters of the redirect back to the app. */
  redirectBack(authorizationUrl: URL): URLSearchParams {
    const q = authorizationUrl.searchParams
    const params = this.standIn.redirectBack(authorizationUrl)
    this.secrets.add(params.get("code"), q.get("state"), q.get("nonce"), q.get("code_challenge"))
    return params
  }

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    if (request.method === "POST") this.secrets.add(new URLSearchParams(await request.clone().text()).get("code_verifier"), request.headers.get("authorization"))
    const response = await this.standIn.fetch(request)
    if (request.method === "POST" && response.ok) {
      const tokens = (await response.clone().json()) as Record<string, string | undefined>
      this.secrets.add(tokens.access_token, tokens.refresh_token, tokens.id_token)
    }
    return response
  }

  provider(): Provider {
    const provider: OIDCConfig = { ...this.standIn.install({ id: "op", name: "Stand-in OP", type: "oidc", clientId: this.clientId, clientSecret: this.clientSecret }), [customFetch]: this.fetch }
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
  const callback = await send(config, jar, `${origin}/auth/callback/op?${op.redirectBack(new URL(oauth.headers.get("location")!))}`)
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
  const params = op.redirectBack(authorizationUrl)
  if (forgeCode) params.set("code", "forged-code")
  return send(config, jar, `${origin}/auth/callback/op?${params}`)
}

/** Credentials sign-ins as the engine runs them (five snapshots, a user in the context; every seventh refused), fast. */
export function recordSignIns(inspector: { inspect: Observer<InspectionEvent> }, count: number): void {
  for (let i = 0; i < count; i++) {
    const actor = createActor(credentialsSignInMachine, { inspect: inspector.inspect }).start()
    actor.send({ type: "csrf.valid" })
    actor.send({ type: "credentials.read", identifier: "ada", nonString: [] })
    actor.send({ type: "rateLimit.counted", hits: [] })
    if (i % 7 === 3) {
      actor.send({ type: "authorize.returned", user: null })
      continue
    }
    actor.send({ type: "authorize.returned", user: { id: `user-${i}`, name: `User ${i}`, email: `user${i}@example.test` } })
    actor.send({ type: "attempt.refunded" })
    actor.send({ type: "signIn.answered", result: true })
    actor.send({ type: "token.encoded" })
  }
}
