/**
 * An in-process stand-in for an OAuth 2 / OpenID Connect provider, reached only through the
 * provider's `[customFetch]`: discovery, JWKS, an authorization step that mints codes, a token
 * endpoint that checks client authentication, the code, the redirect URI and the PKCE verifier,
 * and userinfo. It can misbehave in every way the OAuth machine tells apart.
 *
 * @module
 */
import { base64url } from "jose"
import { customFetch } from "../core/symbols.js"
import { discoveryDocument, discoveryResponse, isDiscoveryRequest } from "./stand-in/discovery.js"
import { jwksResponse, signIdToken, signLogoutToken } from "./stand-in/signing.js"
import { tokenResponse, type Grant } from "./stand-in/token.js"
import { userinfoResponse } from "./stand-in/userinfo.js"
import type { RedirectBackOptions, StandInFaults, StandInOptions } from "./stand-in/options.js"
import type { OAuthProviderConfig } from "../providers/oauth.js"

/** Host-name-safe form of a provider id. */
function label(id: string): string {
  return id.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "") || "provider"
}

const newToken = (prefix: string) => `${prefix}-${base64url.encode(globalThis.crypto.getRandomValues(new Uint8Array(12)))}`

/**
 * A stand-in OAuth 2 / OpenID Connect provider in memory. {@link install} points a provider
 * configuration at it (its `issuer` and `[customFetch]`); every request the provider's code makes
 * then reaches the stand-in: discovery and JWKS under the issuer, any POST as the token request,
 * any GET with a bearer token as userinfo (so providers with their own endpoints, like GitHub's
 * `/user`, work unchanged). Its {@link faults} may change between requests.
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
  /** The access token of {@link subject}. */
  readonly accessToken = newToken("at")
  /** `METHOD url` of every request the provider's code made, in order. */
  readonly seen: string[] = []
  faults: StandInFaults
  readonly #grants = new Map<string, Grant>()
  /** Access tokens of users other than {@link subject}, to the user they were issued for. */
  readonly #otherTokens = new Map<string, string>()

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
    return discoveryDocument(this.issuer, this.faults)
  }

  /**
   * The claims of a user of the stand-in: {@link StandInOptions.claims} for {@link subject}; for
   * another subject, a user named after it whose address is `<subject>@example.test`.
   */
  claimsOf(subject: string): Record<string, unknown> {
    return subject === this.subject ? this.options.claims : { name: subject, email: `${subject}@example.test` }
  }

  /**
   * What the browser does at the authorization endpoint when the user `subject` consents: a code
   * is minted for the authorization request.
   *
   * @example
   * ```ts
   * const code = standIn.authorize(authorizationUrl, "another-user")
   * ```
   */
  authorize(authorizationUrl: URL, subject: string = this.subject): string {
    const q = authorizationUrl.searchParams
    const code = newToken("code")
    this.#grants.set(code, { nonce: q.get("nonce"), challenge: q.get("code_challenge"), redirectUri: q.get("redirect_uri"), subject, used: false })
    return code
  }

  /**
   * What the browser does at the authorization endpoint: the user consents, and the stand-in
   * answers with the redirect back to the app, as the parameters of the redirect URI.
   */
  redirectBack(authorizationUrl: URL, options: RedirectBackOptions = {}): URLSearchParams {
    const params = new URLSearchParams()
    if (options.error) params.set("error", options.error)
    else params.set("code", this.authorize(authorizationUrl, options.subject))
    const state = options.state ?? authorizationUrl.searchParams.get("state")
    if (state !== null) params.set("state", state)
    if (options.iss !== "omit") params.set("iss", options.iss ?? this.issuer)
    if (options.hybrid) params.set("id_token", "hybrid.answer.refused")
    return params
  }

  /** The `fetch` the provider's code uses (its `[customFetch]`). */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    this.seen.push(`${request.method} ${url.origin}${url.pathname}`)
    if (isDiscoveryRequest(request, url)) return discoveryResponse(this.issuer, this.faults)
    if (request.method === "GET" && url.href === `${this.issuer}/jwks`) return jwksResponse()
    if (request.method === "POST") {
      if (this.faults.token === "unreachable") throw new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED") })
      return tokenResponse(request, {
        options: this.options,
        faults: this.faults,
        grants: this.#grants,
        accessTokenFor: (subject) => this.#accessTokenFor(subject),
        idTokenFor: (grant) => this.#idToken(grant),
      })
    }
    const bearer = request.headers.get("authorization")
    if (request.method === "GET" && bearer?.startsWith("Bearer ")) {
      const token = bearer.slice("Bearer ".length)
      const subject = token === this.accessToken ? this.subject : this.#otherTokens.get(token)
      return userinfoResponse(request, subject === undefined ? undefined : { ...this.claimsOf(subject), sub: subject }, this.faults)
    }
    return new Response("not found", { status: 404 })
  }

  #accessTokenFor(subject: string): string {
    if (subject === this.subject) return this.accessToken
    const token = newToken("at")
    this.#otherTokens.set(token, subject)
    return token
  }

  /**
   * A back-channel logout token for `subject` (and, when given, the provider session `sid`), as the
   * provider would post it to the app's `{basePath}/backchannel-logout/<provider id>`.
   *
   * @example
   * ```ts
   * const logoutToken = await standIn.logoutToken()
   * await Auth(new Request(`${origin}/auth/backchannel-logout/op`, { method: "POST", body: new URLSearchParams({ logout_token: logoutToken }) }), config)
   * ```
   */
  logoutToken(options: { subject?: string; sid?: string } = {}): Promise<string> {
    return signLogoutToken({ iss: this.issuer, aud: this.options.clientId, sub: options.subject ?? this.subject, ...(options.sid && { sid: options.sid }) })
  }

  #idToken(grant: Grant): Promise<string> {
    const { email, ...rest } = this.claimsOf(grant.subject)
    // Without an email in the ID token, the profile comes from userinfo: that is where a profile fault bites.
    const withEmail = this.options.emailInIdToken !== false && this.faults.profile === undefined && email !== undefined
    return signIdToken({
      issuer: this.issuer,
      audience: this.options.clientId,
      subject: grant.subject,
      claims: { ...rest, ...(withEmail && { email }) },
      nonce: grant.nonce,
      fault: this.faults.idToken,
    })
  }
}
