/**
 * A stand-in OpenID Provider for the OAuth model tests, reached only through the provider's
 * `customFetch`: discovery, JWKS, an authorization step that mints codes, a token endpoint that
 * checks client authentication, code, redirect URI and PKCE verifier, and userinfo.
 */
import { createHash, randomBytes } from "node:crypto"
import { SignJWT, exportJWK, generateKeyPair } from "jose"


export const clientId = "model-client"
export const clientSecret = "model-client-secret"
const keys = await generateKeyPair("RS256")
const strangerKeys = await generateKeyPair("RS256")
const jwk = { ...(await exportJWK(keys.publicKey)), kid: "model-key", alg: "RS256", use: "sig" }
let issuers = 0

/** How the stand-in misbehaves, if at all. */
export interface StandInFaults {
  /** `down`: discovery answers 500; `no-authorization-endpoint`: the document lacks it. */
  discovery?: "down" | "no-authorization-endpoint"
  /**
   * `invalid_grant`: the token endpoint refuses the code; `unreachable`: the connection fails;
   * `no-id-token`: an OpenID Provider answers without the ID token it owes.
   */
  token?: "invalid_grant" | "unreachable" | "no-id-token"
  /** The ID token is signed by another key, or names another issuer, audience or nonce, or has expired. */
  idToken?: "bad-signature" | "wrong-issuer" | "wrong-audience" | "expired" | "wrong-nonce"
}

/**
 * An OpenID Provider in memory: discovery, JWKS, an authorization step that mints codes, a token
 * endpoint that checks client authentication, the code, the redirect URI and the PKCE verifier, and
 * signs an RS256 ID token carrying the nonce of the authorization request, and userinfo. Each
 * instance has its own issuer, so the engine's discovery cache never carries one test into another.
 */
export class StandInOP {
  readonly issuer = `https://op-${++issuers}.test`
  readonly subject = "op-user-1"
  readonly accessToken = `at-${randomBytes(12).toString("base64url")}`
  readonly seen: string[] = []
  readonly #grants = new Map<string, { nonce: string | null; challenge: string | null; redirectUri: string | null; subject: string; used: boolean }>()
  /** Access tokens of users other than {@link subject}, to the user they were issued for. */
  readonly #otherTokens = new Map<string, string>()

  constructor(readonly faults: StandInFaults = {}) {}

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
      authorization_response_iss_parameter_supported: true,
    }
    if (this.faults.discovery === "no-authorization-endpoint") delete metadata.authorization_endpoint
    return metadata
  }

  /** What the browser does at the authorization endpoint: the user (`subject`) consents and a code is issued. */
  authorize(authorizationUrl: URL, subject: string = this.subject): string {
    const q = authorizationUrl.searchParams
    const code = `code-${randomBytes(12).toString("base64url")}`
    this.#grants.set(code, { nonce: q.get("nonce"), challenge: q.get("code_challenge"), redirectUri: q.get("redirect_uri"), subject, used: false })
    return code
  }

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    const route = `${request.method} ${url.origin}${url.pathname}`
    this.seen.push(route)
    switch (route) {
      case `GET ${this.issuer}/.well-known/openid-configuration`:
        return this.faults.discovery === "down" ? new Response("upstream unavailable", { status: 500 }) : Response.json(this.metadata())
      case `GET ${this.issuer}/jwks`:
        return Response.json({ keys: [jwk] })
      case `POST ${this.issuer}/token`:
        if (this.faults.token === "unreachable") throw new TypeError("fetch failed: connect ECONNREFUSED")
        return this.#token(request)
      case `GET ${this.issuer}/userinfo`:
      {
        const token = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? ""
        const other = this.#otherTokens.get(token)
        if (other !== undefined) return Response.json({ sub: other, name: other, email: `${other}@example.test` })
        if (token !== this.accessToken) return Response.json({ error: "invalid_token" }, { status: 401 })
        return Response.json({ sub: this.subject, name: "Ada Lovelace", email: "Ada@Example.test" })
      }
      default:
        return new Response("not found", { status: 404 })
    }
  }

  async #token(request: Request): Promise<Response> {
    const refuse = (error: string) => Response.json({ error }, { status: 400 })
    // client_secret_basic: both halves are form-encoded before base64 (RFC 6749, section 2.3.1).
    const basic = Buffer.from(request.headers.get("authorization")?.replace(/^Basic /, "") ?? "", "base64").toString().split(":").map(decodeURIComponent)
    if (basic[0] !== clientId || basic[1] !== clientSecret) return Response.json({ error: "invalid_client" }, { status: 401 })
    const form = new URLSearchParams(await request.text())
    if (this.faults.token === "invalid_grant") return refuse("invalid_grant")
    const grant = this.#grants.get(form.get("code") ?? "")
    if (!grant || grant.used || form.get("grant_type") !== "authorization_code") return refuse("invalid_grant")
    grant.used = true
    if (form.get("redirect_uri") !== grant.redirectUri) return refuse("invalid_grant")
    if (createHash("sha256").update(form.get("code_verifier") ?? "").digest("base64url") !== grant.challenge) return refuse("invalid_grant")
    const fault = this.faults.idToken
    const nonce = fault === "wrong-nonce" ? "another-nonce" : grant.nonce
    const idToken = await new SignJWT({ sub: grant.subject, name: "Ada Lovelace", ...(nonce && { nonce }) })
      .setProtectedHeader({ alg: "RS256", kid: jwk.kid, typ: "JWT" })
      .setIssuer(fault === "wrong-issuer" ? "https://impostor.test" : this.issuer)
      .setAudience(fault === "wrong-audience" ? "another-client" : clientId)
      .setIssuedAt(fault === "expired" ? Math.floor(Date.now() / 1000) - 7200 : undefined)
      .setExpirationTime(fault === "expired" ? Math.floor(Date.now() / 1000) - 3600 : "10m")
      .sign(fault === "bad-signature" ? strangerKeys.privateKey : keys.privateKey)
    let accessToken = this.accessToken
    if (grant.subject !== this.subject) this.#otherTokens.set((accessToken = `at-${randomBytes(12).toString("base64url")}`), grant.subject)
    return Response.json({ access_token: accessToken, token_type: "Bearer", expires_in: 3600, ...(this.faults.token !== "no-id-token" && { id_token: idToken }) }, { headers: { "cache-control": "no-store" } })
  }
}
