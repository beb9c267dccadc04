/**
 * The stand-in's token endpoint: client authentication, the authorization code grant (the code,
 * its redirect URI and PKCE verifier, once), and the tokens it answers with.
 *
 * @module
 */
import { base64url } from "jose"
import type { StandInFaults, StandInOptions } from "./options.js"

/** An authorization code's grant: what the authorization request said, and who consented. */
export interface Grant {
  nonce: string | null
  challenge: string | null
  redirectUri: string | null
  subject: string
  used: boolean
}

/**
 * True when the token request authenticates the client the way `options` says it must.
 *
 * @example
 * ```ts
 * clientAuthenticated(request, form, { clientId: "id", clientSecret: "secret" }) // client_secret_basic
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-2.3.1
 */
export function clientAuthenticated(request: Request, form: URLSearchParams, options: Pick<StandInOptions, "clientId" | "clientSecret" | "tokenEndpointAuthMethod">): boolean {
  const { clientId, clientSecret, tokenEndpointAuthMethod = "client_secret_basic" } = options
  switch (tokenEndpointAuthMethod) {
    case "client_secret_basic": {
      // Both halves are form-encoded before base64 (RFC 6749, section 2.3.1).
      const encoded = request.headers.get("authorization")?.replace(/^Basic /, "") ?? ""
      let basic: string[]
      try {
        basic = new TextDecoder().decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0))).split(":").map(decodeURIComponent)
      } catch {
        return false
      }
      return basic[0] === clientId && basic[1] === (clientSecret ?? "")
    }
    case "client_secret_post":
      return form.get("client_id") === clientId && form.get("client_secret") === (clientSecret ?? "")
    case "client_secret_jwt":
    case "private_key_jwt": {
      const assertion = form.get("client_assertion")?.split(".")[1]
      if (!assertion) return false
      return (JSON.parse(new TextDecoder().decode(base64url.decode(assertion))) as { iss?: unknown }).iss === clientId
    }
    default:
      return form.get("client_id") === clientId
  }
}

/** What the token endpoint needs of its stand-in. */
export interface TokenIssuer {
  options: StandInOptions
  faults: StandInFaults
  /** The grants of the codes the stand-in issued. */
  grants: ReadonlyMap<string, Grant>
  /** The access token of the user `subject`. */
  accessTokenFor(subject: string): string
  idTokenFor(grant: Grant): Promise<string>
}

/**
 * The answer to a token request: the tokens of a valid authorization code grant, or the error
 * that refuses it.
 *
 * @example
 * ```ts
 * const response = await tokenResponse(request, issuer) // 200 { access_token, id_token, … } or 400 { error: "invalid_grant" }
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.3
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.6
 */
export async function tokenResponse(request: Request, issuer: TokenIssuer): Promise<Response> {
  const { options, faults } = issuer
  const refuse = (error: string, status = 400) => Response.json({ error }, { status })
  const form = new URLSearchParams(await request.text())
  if (!clientAuthenticated(request, form, options)) return refuse("invalid_client", 401)
  if (faults.token === "invalid_grant") return refuse("invalid_grant")
  const grant = issuer.grants.get(form.get("code") ?? "")
  if (!grant || grant.used || form.get("grant_type") !== "authorization_code") return refuse("invalid_grant")
  grant.used = true
  if (form.get("redirect_uri") !== grant.redirectUri) return refuse("invalid_grant")
  const verifier = new TextEncoder().encode(form.get("code_verifier") ?? "")
  if (base64url.encode(new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", verifier))) !== grant.challenge) return refuse("invalid_grant")
  const body: Record<string, unknown> = { token_type: "Bearer", expires_in: 3600 }
  if (faults.token !== "no-access-token") body.access_token = issuer.accessTokenFor(grant.subject)
  if (options.refreshToken) body.refresh_token = `rt-${base64url.encode(globalThis.crypto.getRandomValues(new Uint8Array(12)))}`
  if (options.type === "oidc" && faults.token !== "no-id-token") body.id_token = await issuer.idTokenFor(grant)
  return Response.json(body, { headers: { "cache-control": "no-store" } })
}
