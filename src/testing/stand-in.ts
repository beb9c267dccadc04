/**
 * An in-process stand-in for an OAuth 2 / OpenID Connect provider, reached only through the
 * provider's `[customFetch]`: discovery, JWKS, an authorization step that mints codes, a token
 * endpoint that checks client authentication, the code, the redirect URI and the PKCE verifier,
 * and userinfo. It can misbehave in every way the OAuth machine tells apart.
 *
 * @module
 */
import { createHash, randomBytes } from "node:crypto"
import { SignJWT, exportJWK, generateKeyPair } from "jose"
import { customFetch } from "../core/symbols.js"
import type { OAuthProviderConfig } from "../providers/oauth.js"

/** How a stand-in provider misbehaves, if at all. */
export interface StandInFaults {
  /** `down`: discovery answers 500; `no-authorization-endpoint`: the document lacks it. */
  discovery?: "down" | "no-authorization-endpoint"
  /**
   * `invalid_grant`: the token endpoint refuses the code; `unreachable`: the connection fails;
   * `no-id-token`: an OpenID Provider answers without its ID token; `no-access-token`: the answer
   * lacks the access token.
   */
  token?: "invalid_grant" | "unreachable" | "no-id-token" | "no-access-token"
  /** The ID token is signed by another key, or names another issuer, audience or nonce, or has expired. */
  idToken?: "bad-signature" | "wrong-issuer" | "wrong-audience" | "expired" | "wrong-nonce"
  /** The profile cannot be had: userinfo answers 500 (and the ID token carries no email, so userinfo is asked). */
  profile?: "unavailable"
}

/** How the provider's redirect back to the app differs from a correct one. */
export interface RedirectBackOptions {
  /** Send `error=<error>` instead of a code (the user refused, say `access_denied`). */
  error?: string
  /** Send this `state` instead of the one the app sent. */
  state?: string
  /** `omit`: no `iss` parameter; a string: this `iss` instead of the provider's issuer. */
  iss?: "omit" | string
}

interface Grant {
  nonce: string | null
  challenge: string | null
  redirectUri: string | null
  used: boolean
}

let signingKeys: Promise<{ key: CryptoKey; stranger: CryptoKey; jwk: Record<string, unknown> }> | undefined

/** One RS256 key pair for every stand-in of the process (and a stranger's, for forged signatures). */
function keys() {
  signingKeys ??= (async () => {
    const own = await generateKeyPair("RS256", { extractable: true })
    const stranger = await generateKeyPair("RS256")
    return { key: own.privateKey, stranger: stranger.privateKey, jwk: { ...(await exportJWK(own.publicKey)), kid: "stand-in", alg: "RS256", use: "sig" } }
  })()
  return signingKeys
}

/** Host-name-safe form of a provider id. */
function label(id: string): string {
  return id.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "") || "provider"
}

/** Options of {@link StandInProvider}. */
export interface StandInOptions {
  /** The provider id; the issuer is `https://<id>.stand-in.test`. */
  id: string
  type: "oauth" | "oidc"
  clientId: string
  /** Checked at the token endpoint unless the client authenticates with `none`. */
  clientSecret?: string
  /** `client_secret_basic` (default), `client_secret_post`, `client_secret_jwt`, `private_key_jwt` (the assertion's `iss` is checked, not its signature) or `none`. */
  tokenEndpointAuthMethod?: string
  /** The user's claims, returned by userinfo and, for OIDC, in the ID token. `sub` is always the stand-in's subject. */
  claims: Record<string, unknown>
  faults?: StandInFaults
}

/**
 * A stand-in OAuth 2 / OpenID Connect provider in memory. {@link install} points a provider
 * configuration at it (its `issuer` and `[customFetch]`); every request the provider's code makes
 * then reaches the stand-in: discovery and JWKS under the issuer, any POST as the token request,
 * any GET with a bearer token as userinfo (so providers with their own endpoints, like GitHub's
 * `/user`, work unchanged).
 *
 * @example
 * ```ts
 * const standIn = new StandInProvider({ id: "github", type: "oauth", clientId: "id", clientSecret: "secret", claims: { name: "Ada", email: "ada@example.test" } })
 * const github = standIn.install(GitHub({ clientId: "id", clientSecret: "secret" }))
 * // … POST /auth/signin/github, then:
 * const back = standIn.redirectBack(new URL(location))
 * ```
 * @see https://openid.net/specs/openid-connect-core-1_0.html
 */
export class StandInProvider {
  readonly issuer: string
  readonly subject = "stand-in-subject"
  readonly accessToken = `at-${randomBytes(12).toString("base64url")}`
  /** `METHOD url` of every request the provider's code made, in order. */
  readonly seen: string[] = []
  faults: StandInFaults
  readonly #grants = new Map<string, Grant>()

  constructor(readonly options: StandInOptions) {
    this.issuer = `https://${label(options.id)}.stand-in.test`
    this.faults = { ...options.faults }
  }

  /** The provider configuration with its issuer and `[customFetch]` pointed at this stand-in. */
  install<P extends OAuthProviderConfig>(provider: P): P {
    return { ...provider, issuer: this.issuer, [customFetch]: this.fetch }
  }

  /** The stand-in's discovery document (RFC 8414 / OpenID Connect Discovery). */
  metadata(): Record<string, unknown> {
    const metadata: Record<string, unknown> = {
      issuer: this.issuer,
      authorization_endpoint: `${this.issuer}/authorize`,
      token_endpoint: `${this.issuer}/token`,
      userinfo_endpoint: `${this.issuer}/userinfo`,
      jwks_uri: `${this.issuer}/jwks`,
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt", "none"],
      authorization_response_iss_parameter_supported: true,
    }
    if (this.faults.discovery === "no-authorization-endpoint") delete metadata.authorization_endpoint
    return metadata
  }

  /**
   * What the browser does at the authorization endpoint: the user consents, and the stand-in
   * answers with the redirect back to the app, as the parameters of the redirect URI.
   */
  redirectBack(authorizationUrl: URL, options: RedirectBackOptions = {}): URLSearchParams {
    const q = authorizationUrl.searchParams
    const params = new URLSearchParams()
    if (options.error) params.set("error", options.error)
    else {
      const code = `code-${randomBytes(12).toString("base64url")}`
      this.#grants.set(code, { nonce: q.get("nonce"), challenge: q.get("code_challenge"), redirectUri: q.get("redirect_uri"), used: false })
      params.set("code", code)
    }
    const state = options.state ?? q.get("state")
    if (state !== null) params.set("state", state)
    if (options.iss !== "omit") params.set("iss", options.iss ?? this.issuer)
    return params
  }

  /** The `fetch` the provider's code uses (its `[customFetch]`). */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    this.seen.push(`${request.method} ${url.origin}${url.pathname}`)
    if (request.method === "GET" && (url.pathname.endsWith("/.well-known/openid-configuration") || url.pathname.endsWith("/.well-known/oauth-authorization-server"))) {
      return this.faults.discovery === "down" ? new Response("upstream unavailable", { status: 500 }) : Response.json(this.metadata())
    }
    if (request.method === "GET" && url.href === `${this.issuer}/jwks`) return Response.json({ keys: [(await keys()).jwk] })
    if (request.method === "POST") {
      if (this.faults.token === "unreachable") throw new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED") })
      return this.#token(request)
    }
    if (request.method === "GET" && request.headers.get("authorization")?.startsWith("Bearer ")) return this.#userinfo(request)
    return new Response("not found", { status: 404 })
  }

  #userinfo(request: Request): Response {
    if (request.headers.get("authorization") !== `Bearer ${this.accessToken}`) return Response.json({ error: "invalid_token" }, { status: 401 })
    if (this.faults.profile === "unavailable") return new Response("userinfo unavailable", { status: 500 })
    // GitHub-style providers ask for the addresses separately when the profile has none.
    if (new URL(request.url).pathname.endsWith("/emails")) return Response.json([])
    return Response.json({ ...this.options.claims, sub: this.subject })
  }

  #clientAuthenticated(request: Request, form: URLSearchParams): boolean {
    const { clientId, clientSecret, tokenEndpointAuthMethod = "client_secret_basic" } = this.options
    switch (tokenEndpointAuthMethod) {
      case "client_secret_basic": {
        // Both halves are form-encoded before base64 (RFC 6749, section 2.3.1).
        const basic = Buffer.from(request.headers.get("authorization")?.replace(/^Basic /, "") ?? "", "base64").toString().split(":").map(decodeURIComponent)
        return basic[0] === clientId && basic[1] === (clientSecret ?? "")
      }
      case "client_secret_post":
        return form.get("client_id") === clientId && form.get("client_secret") === (clientSecret ?? "")
      case "client_secret_jwt":
      case "private_key_jwt": {
        const assertion = form.get("client_assertion")?.split(".")[1]
        if (!assertion) return false
        return (JSON.parse(Buffer.from(assertion, "base64url").toString()) as { iss?: unknown }).iss === clientId
      }
      default:
        return form.get("client_id") === clientId
    }
  }

  async #token(request: Request): Promise<Response> {
    const refuse = (error: string, status = 400) => Response.json({ error }, { status })
    const form = new URLSearchParams(await request.text())
    if (!this.#clientAuthenticated(request, form)) return refuse("invalid_client", 401)
    if (this.faults.token === "invalid_grant") return refuse("invalid_grant")
    const grant = this.#grants.get(form.get("code") ?? "")
    if (!grant || grant.used || form.get("grant_type") !== "authorization_code") return refuse("invalid_grant")
    grant.used = true
    if (form.get("redirect_uri") !== grant.redirectUri) return refuse("invalid_grant")
    if (createHash("sha256").update(form.get("code_verifier") ?? "").digest("base64url") !== grant.challenge) return refuse("invalid_grant")
    const body: Record<string, unknown> = { token_type: "Bearer", expires_in: 3600 }
    if (this.faults.token !== "no-access-token") body.access_token = this.accessToken
    if (this.options.type === "oidc" && this.faults.token !== "no-id-token") body.id_token = await this.#idToken(grant)
    return Response.json(body, { headers: { "cache-control": "no-store" } })
  }

  async #idToken(grant: Grant): Promise<string> {
    const { key, stranger } = await keys()
    const fault = this.faults.idToken
    const now = Math.floor(Date.now() / 1000)
    const { email, ...rest } = this.options.claims
    // Without an email in the ID token, the profile comes from userinfo: that is where a profile fault bites.
    const claims = { ...rest, ...(this.faults.profile === undefined && email !== undefined && { email }) }
    const nonce = fault === "wrong-nonce" ? "another-nonce" : grant.nonce
    return new SignJWT({ ...claims, sub: this.subject, ...(nonce && { nonce }) })
      .setProtectedHeader({ alg: "RS256", kid: "stand-in", typ: "JWT" })
      .setIssuer(fault === "wrong-issuer" ? "https://impostor.stand-in.test" : this.issuer)
      .setAudience(fault === "wrong-audience" ? "another-client" : this.options.clientId)
      .setIssuedAt(fault === "expired" ? now - 7200 : now)
      .setExpirationTime(fault === "expired" ? now - 3600 : now + 600)
      .sign(fault === "bad-signature" ? stranger : key)
  }
}
