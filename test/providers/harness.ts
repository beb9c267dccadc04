/**
 * A stand-in authorization server for provider tests, reached only through the provider's
 * `customFetch`, and `runProviderFlow`, which drives a whole sign-in through `Auth()` against it:
 * CSRF token → POST /signin/<id> → the provider's redirect back → /callback/<id>.
 *
 * The stand-in checks what a real server would: the client's authentication at the token endpoint
 * (basic or post), the code, the redirect_uri, the PKCE verifier against the S256 challenge, and the
 * bearer token at userinfo. What it refuses it answers with an OAuth error and records in
 * `failures`, so a test reports the cause instead of a bare "sign-in failed".
 */
import { createHash, randomBytes } from "node:crypto"
import { SignJWT, exportJWK, generateKeyPair, type JWK } from "jose"
import { customFetch } from "../../src/index.js"
import { providerConfigs } from "../../src/core/providers.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, basePath, send } from "../helpers.js"
import type { OAuthConfig, OIDCConfig, OAuthUserConfig, TokenEndpointAuthMethod } from "../../src/providers/oauth.js"
import type { Account, AuthConfig, Profile, Provider, User } from "../../src/types.js"

export const clientId = "client-id"
export const clientSecret = "client-secret"

type AnyProvider = OAuthConfig<any> | OIDCConfig<any>
export type ProviderFactory = (options?: any) => AnyProvider

/** A request the stand-in received. */
export interface SeenRequest {
  method: string
  url: string
  headers: Record<string, string>
  body: string
}

/** An extra route: `"GET https://api.github.com/user/emails"` → handler. */
export type Route = (request: Request, standIn: StandIn) => Response | Promise<Response>

export interface StandInOptions {
  /** Serve OpenID discovery and JWKS for this issuer, with endpoints under it. */
  issuer?: string
  /** Changes to the served metadata; a key set to `undefined` is removed (Apple has no userinfo). */
  metadata?: Record<string, unknown>
  /** Where the authorization request must go (explicit providers). Default: the metadata's. */
  authorizationEndpoint?: string
  /** Token endpoint (explicit providers). Default: the metadata's. */
  tokenEndpoint?: string
  /** Userinfo endpoint (explicit providers). Default: the metadata's. */
  userinfoEndpoint?: string
  /** HTTP method of the userinfo endpoint. Default GET. */
  userinfoMethod?: "GET" | "POST"
  /** The userinfo answer. */
  userinfo?: unknown
  /** How the client must authenticate at the token endpoint. */
  authMethod?: TokenEndpointAuthMethod
  /** Claims of the ID token (iss, aud, iat, exp, nonce are added); none means no ID token. */
  idTokenClaims?: Record<string, unknown>
  /** `HS256` signs with the client secret (LINE). Default RS256 with the JWKS key. */
  idTokenAlg?: "RS256" | "HS256"
  /** With HS256: MAC the ID token with this instead of the client secret (a forged token). */
  idTokenSecret?: string
  /** Fields merged into (or, when `undefined`, removed from) the token response. */
  tokenResponse?: Record<string, unknown>
  /** Extra headers on the token response. */
  tokenHeaders?: Record<string, string>
  /** Extra routes, keyed `"METHOD url-without-query"`. */
  routes?: Record<string, Route>
  /**
   * How the token endpoint takes the code: a standard form POST (default); WeChat's GET with
   * `appid`, `secret`, `code` and `grant_type` in the query; or Azure DevOps' POSTed JWT-bearer
   * assertion (the code as `assertion`, the secret as `client_assertion`, no PKCE).
   */
  tokenRequest?: "form" | "wechat-query" | "jwt-bearer-assertion"
  /** Serve userinfo as a JWT (`application/jwt`), as BankID does. */
  userinfoJwt?: boolean
}

interface Grant {
  clientId: string
  redirectUri: string
  codeChallenge: string | null
  codeChallengeMethod: string | null
  nonce: string | null
  scope: string | null
  used: boolean
}

/** A URL without its query: how the stand-in matches routes. */
export const urlKey = (url: string | URL): string => {
  const u = new URL(url)
  return `${u.origin}${u.pathname}`
}

const b64url = (bytes: Buffer): string => bytes.toString("base64url")

function decodeFormComponent(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, " "))
}

function oauthError(status: number, error: string, description: string): Response {
  return Response.json({ error, error_description: description }, { status })
}

/** The stand-in authorization server. Its `fetch` goes in the provider options as `customFetch`. */
export class StandIn {
  readonly requests: SeenRequest[] = []
  readonly failures: string[] = []
  readonly grants = new Map<string, Grant>()
  readonly accessToken = `at-${b64url(randomBytes(12))}`
  readonly refreshToken = `rt-${b64url(randomBytes(12))}`
  /** The client authentication method the token endpoint saw. */
  authMethodSeen: TokenEndpointAuthMethod | "unknown" | undefined
  idToken: string | undefined
  private keys: Promise<{ privateKey: CryptoKey; jwk: JWK }> | undefined
  readonly kid = "stand-in-key-1"

  constructor(
    readonly options: StandInOptions,
    readonly client: { id: string; secret: string } = { id: clientId, secret: clientSecret },
  ) {}

  get issuer(): string | undefined {
    return this.options.issuer
  }

  private base(): string {
    return this.options.issuer!.replace(/\/+$/, "")
  }

  get discoveryUrl(): string {
    return `${this.base()}/.well-known/openid-configuration`
  }

  metadata(): Record<string, unknown> {
    const base = this.base()
    const metadata: Record<string, unknown> = {
      issuer: this.options.issuer,
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/token`,
      userinfo_endpoint: `${base}/userinfo`,
      jwks_uri: `${base}/jwks`,
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: [this.options.idTokenAlg ?? "RS256"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      scopes_supported: ["openid", "profile", "email"],
    }
    for (const [key, value] of Object.entries(this.options.metadata ?? {})) {
      if (value === undefined) delete metadata[key]
      else metadata[key] = value
    }
    return metadata
  }

  get authorizationEndpoint(): string | undefined {
    return this.options.authorizationEndpoint ?? (this.options.issuer ? String(this.metadata().authorization_endpoint) : undefined)
  }
  get tokenEndpoint(): string | undefined {
    return this.options.tokenEndpoint ?? (this.options.issuer ? String(this.metadata().token_endpoint) : undefined)
  }
  get userinfoEndpoint(): string | undefined {
    if (this.options.userinfoEndpoint) return this.options.userinfoEndpoint
    const endpoint = this.options.issuer ? this.metadata().userinfo_endpoint : undefined
    return typeof endpoint === "string" ? endpoint : undefined
  }

  private signingKeys() {
    this.keys ??= (async () => {
      const { privateKey, publicKey } = await generateKeyPair("RS256")
      const jwk = { ...(await exportJWK(publicKey)), kid: this.kid, alg: "RS256", use: "sig" }
      return { privateKey, jwk }
    })()
    return this.keys
  }

  /** What the user agent does at the authorization endpoint: the server remembers the request and issues a code. */
  authorize(authorizationUrl: URL): string {
    const q = authorizationUrl.searchParams
    const code = `code-${b64url(randomBytes(16))}`
    this.grants.set(code, {
      clientId: q.get("client_id") ?? "",
      redirectUri: q.get("redirect_uri") ?? "",
      codeChallenge: q.get("code_challenge"),
      codeChallengeMethod: q.get("code_challenge_method"),
      nonce: q.get("nonce"),
      scope: q.get("scope"),
      used: false,
    })
    return code
  }

  /** The `customFetch` to put on the provider options. */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    const body = request.method === "GET" || request.method === "HEAD" ? "" : await request.clone().text()
    this.requests.push({ method: request.method, url: request.url, headers: Object.fromEntries(request.headers), body })
    const key = urlKey(request.url)
    // A route key may name the access token as `{accessToken}` (HubSpot puts it in the path).
    const route = this.options.routes?.[`${request.method} ${key}`] ?? this.options.routes?.[`${request.method} ${key.replace(this.accessToken, "{accessToken}")}`]
    if (route) return route(request, this)
    if (this.options.issuer) {
      if (request.url === this.discoveryUrl && request.method === "GET") return Response.json(this.metadata())
      if (key === urlKey(String(this.metadata().jwks_uri)) && request.method === "GET") {
        return Response.json({ keys: [(await this.signingKeys()).jwk] })
      }
    }
    const token = this.tokenEndpoint
    const tokenMethod = this.options.tokenRequest === "wechat-query" ? "GET" : "POST"
    if (token && key === urlKey(token) && request.method === tokenMethod) return this.token(request, body)
    const userinfo = this.userinfoEndpoint
    if (userinfo && key === urlKey(userinfo) && request.method === (this.options.userinfoMethod ?? "GET")) {
      return this.userinfo(request)
    }
    this.failures.push(`unexpected request ${request.method} ${request.url}`)
    return new Response("not found", { status: 404 })
  }

  /** Checks `Authorization: Bearer <access token>`; returns a failure response or undefined. */
  checkBearer(request: Request, where: string): Response | undefined {
    const authorization = request.headers.get("authorization")
    if (authorization !== `Bearer ${this.accessToken}`) {
      this.failures.push(`${where}: expected the bearer access token, got ${authorization}`)
      return oauthError(401, "invalid_token", "bad bearer token")
    }
    return undefined
  }

  /** The token endpoint's own answer, for a route that checks something first (TikTok's `client_key`). */
  async tokenFor(request: Request): Promise<Response> {
    return this.token(request, await request.clone().text())
  }

  private async userinfo(request: Request): Promise<Response> {
    const refused = this.checkBearer(request, "userinfo")
    if (refused) return refused
    if (!this.options.userinfoJwt) return Response.json(this.options.userinfo ?? {})
    const claims = { iss: this.options.issuer, aud: this.client.id, ...(this.options.userinfo as Record<string, unknown>) }
    const { privateKey } = await this.signingKeys()
    const jwt = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: this.kid }).sign(privateKey)
    return new Response(jwt, { headers: { "content-type": "application/jwt" } })
  }

  private async token(request: Request, text: string): Promise<Response> {
    const fail = (status: number, error: string, description: string) => {
      this.failures.push(`token endpoint: ${description}`)
      return oauthError(status, error, description)
    }
    const mode = this.options.tokenRequest ?? "form"
    const form = mode === "wechat-query" ? new URL(request.url).searchParams : new URLSearchParams(text)
    if (mode === "wechat-query") {
      // WeChat's names: the client is `appid`, its secret `secret`.
      form.set("client_id", form.get("appid") ?? "")
      form.set("client_secret", form.get("secret") ?? "")
      form.set("redirect_uri", this.grants.get(form.get("code") ?? "")?.redirectUri ?? "")
    }
    if (mode === "jwt-bearer-assertion") {
      if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return fail(400, "unsupported_grant_type", `grant_type ${form.get("grant_type")}`)
      if (form.get("client_assertion_type") !== "urn:ietf:params:oauth:client-assertion-type:jwt-bearer") return fail(400, "invalid_client", "client_assertion_type missing")
      const code = form.get("assertion") ?? ""
      form.set("grant_type", "authorization_code")
      form.set("code", code)
      form.set("client_id", this.grants.get(code)?.clientId ?? "")
      form.set("client_secret", form.get("client_assertion") ?? "")
      form.delete("client_assertion")
    }

    // Client authentication.
    const expected = this.options.authMethod ?? "client_secret_basic"
    const authorization = request.headers.get("authorization")
    let id: string | null
    let secret: string | null
    if (authorization?.startsWith("Basic ")) {
      this.authMethodSeen = "client_secret_basic"
      const decoded = Buffer.from(authorization.slice(6), "base64").toString()
      const colon = decoded.indexOf(":")
      id = decodeFormComponent(decoded.slice(0, colon))
      secret = decodeFormComponent(decoded.slice(colon + 1))
      if (form.has("client_secret")) return fail(400, "invalid_request", "client authenticated twice (basic and post)")
    } else if (form.has("client_secret")) {
      this.authMethodSeen = "client_secret_post"
      id = form.get("client_id")
      secret = form.get("client_secret")
    } else {
      this.authMethodSeen = "unknown"
      return fail(401, "invalid_client", "no client authentication")
    }
    if (this.authMethodSeen !== expected) return fail(401, "invalid_client", `expected ${expected}, got ${this.authMethodSeen}`)
    if (id !== this.client.id || secret !== this.client.secret) return fail(401, "invalid_client", `wrong client credentials ${id}:${secret}`)

    // The grant.
    if (form.get("grant_type") !== "authorization_code") return fail(400, "unsupported_grant_type", `grant_type ${form.get("grant_type")}`)
    const code = form.get("code") ?? ""
    const grant = this.grants.get(code)
    if (!grant) return fail(400, "invalid_grant", `unknown code ${code}`)
    if (grant.used) return fail(400, "invalid_grant", "code used twice")
    grant.used = true
    if (grant.clientId !== id) return fail(400, "invalid_grant", `code issued to ${grant.clientId}, redeemed by ${id}`)
    if (form.get("redirect_uri") !== grant.redirectUri) {
      return fail(400, "invalid_grant", `redirect_uri ${form.get("redirect_uri")} differs from ${grant.redirectUri}`)
    }
    // Neither WeChat nor Azure DevOps take a PKCE verifier.
    if (grant.codeChallenge !== null && mode === "form") {
      const verifier = form.get("code_verifier")
      if (!verifier) return fail(400, "invalid_grant", "code_verifier missing")
      if (grant.codeChallengeMethod !== "S256") return fail(400, "invalid_grant", `challenge method ${grant.codeChallengeMethod}`)
      const challenge = b64url(createHash("sha256").update(verifier).digest())
      if (challenge !== grant.codeChallenge) return fail(400, "invalid_grant", "code_verifier does not match the challenge")
    }

    const now = Math.floor(Date.now() / 1000)
    const response: Record<string, unknown> = {
      access_token: this.accessToken,
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: this.refreshToken,
      ...(grant.scope ? { scope: grant.scope } : {}),
    }
    if (this.options.idTokenClaims) {
      const claims = {
        iss: this.options.issuer,
        aud: this.client.id,
        iat: now,
        exp: now + 600,
        ...(grant.nonce ? { nonce: grant.nonce } : {}),
        ...this.options.idTokenClaims,
      }
      if (this.options.idTokenAlg === "HS256") {
        this.idToken = await new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(new TextEncoder().encode(this.options.idTokenSecret ?? this.client.secret))
      } else {
        const { privateKey } = await this.signingKeys()
        this.idToken = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: this.kid, typ: "JWT" }).sign(privateKey)
      }
      response.id_token = this.idToken
    }
    for (const [key, value] of Object.entries(this.options.tokenResponse ?? {})) {
      if (value === undefined) delete response[key]
      else response[key] = value
    }
    return Response.json(response, { headers: { "cache-control": "no-store", ...this.options.tokenHeaders } })
  }
}

/** What `events.signIn` received. */
export interface SignInMessage {
  user: User
  account?: Account | null
  profile?: Profile
  isNewUser?: boolean
}

export interface FlowOptions {
  /** Provider options besides the client credentials and `customFetch` (issuer, baseUrl, overrides). */
  providerOptions?: Record<string, unknown>
  standIn: StandInOptions
  /** Query of the sign-in POST, e.g. `?prompt=login`. */
  signinQuery?: string
  callbackUrl?: string
  /** How the provider returns: a redirect (GET) or an auto-submitted form (POST, `response_mode=form_post`). */
  responseMode?: "query" | "form_post"
  /** Extra callback parameters, e.g. Apple's `user`. */
  callbackParams?: Record<string, string>
  /** Model SameSite on the way back (cross-site navigation / form POST). Default: send every cookie. */
  browserSameSite?: boolean
  /** Extra config fields. */
  config?: Partial<AuthConfig>
}

export interface FlowResult {
  provider: AnyProvider
  standIn: StandIn
  jar: CookieJar
  config: AuthConfig
  signinResponse: Response
  authorizationUrl: URL
  response: Response
  signIn: SignInMessage | undefined
  requests: SeenRequest[]
  errors: Error[]
}

/** Builds an `Auth()` config around one provider, recording `events.signIn` and logged errors. */
export function providerConfig(provider: AnyProvider, extra: Partial<AuthConfig> = {}) {
  const events: SignInMessage[] = []
  const errors: Error[] = []
  const config: AuthConfig = {
    secret: "provider-test-secret",
    trustHost: true,
    // Until types.ts lists OAuth configs among providers, they pass as loosely typed providers.
    providers: [provider as unknown as Provider],
    events: { signIn: async (message: SignInMessage) => void events.push(message) } as AuthConfig["events"],
    logger: { error: (e: Error) => void errors.push(e), warn: () => {}, debug: () => {} },
    ...extra,
  }
  return { config, events, errors }
}

/** The provider as the engine sees it: defaults with the user's options deep-merged over them. */
export function resolved(provider: AnyProvider): AnyProvider {
  return providerConfigs([provider as unknown as Provider])[0] as unknown as AnyProvider
}

/**
 * Runs one whole sign-in: CSRF → POST /signin/<id> (checked: 302 to the authorization endpoint with
 * the standard parameters and the flow cookie) → the stand-in issues a code → /callback/<id>.
 */
export async function runProviderFlow(factory: ProviderFactory, flow: FlowOptions): Promise<FlowResult> {
  const standIn = new StandIn(flow.standIn)
  const userOptions: OAuthUserConfig = { clientId, clientSecret, ...flow.providerOptions, [customFetch]: standIn.fetch }
  const provider = factory(userOptions)
  const { config, events, errors } = providerConfig(provider, flow.config)
  const id = resolved(provider).id
  const jar = new CookieJar()

  const csrfToken = await csrfTokenFor(config, jar)
  const callbackUrl = flow.callbackUrl ?? `${origin}/dashboard`
  const signinResponse = await send(config, jar, `/signin/${id}${flow.signinQuery ?? ""}`, { form: { csrfToken, callbackUrl } })
  const location = signinResponse.headers.get("location")
  if (signinResponse.status !== 302 || !location) {
    throw new Error(`sign-in answered ${signinResponse.status} (location ${location}); errors: ${errors.map((e) => e.message).join("; ")}; stand-in: ${standIn.failures.join("; ")}`)
  }
  const authorizationUrl = new URL(location)
  if (!standIn.authorizationEndpoint || urlKey(authorizationUrl) !== urlKey(standIn.authorizationEndpoint)) {
    throw new Error(`sign-in redirected to ${location}, not to the authorization endpoint ${standIn.authorizationEndpoint}; errors: ${errors.map((e) => e.message).join("; ")}`)
  }

  const code = standIn.authorize(authorizationUrl)
  const params: Record<string, string> = { code, state: authorizationUrl.searchParams.get("state") ?? "" }
  if (standIn.issuer && standIn.metadata().authorization_response_iss_parameter_supported === true) {
    params.iss = String(standIn.metadata().issuer)
  }
  Object.assign(params, flow.callbackParams)

  let response: Response
  if (flow.responseMode === "form_post") {
    jar.site = flow.browserSameSite ? "cross-site-post" : "same-site"
    response = await send(config, jar, `/callback/${id}`, { method: "POST", form: params })
  } else {
    jar.site = flow.browserSameSite ? "cross-site-get" : "same-site"
    response = await send(config, jar, `/callback/${id}?${new URLSearchParams(params)}`)
  }
  jar.site = "same-site"
  return {
    provider,
    standIn,
    jar,
    config,
    signinResponse,
    authorizationUrl,
    response,
    signIn: events[0],
    requests: standIn.requests,
    errors,
  }
}

export const sessionCookieName = cookieNames.https.sessionToken
export const flowCookieName = cookieNames.https.flow
export const redirectUri = (id: string): string => `${origin}${basePath}/callback/${id}`
