/**
 * The stand-in's discovery document (RFC 8414 / OpenID Connect Discovery 1.0), as its faults
 * shape it.
 *
 * @module
 */
import type { StandInFaults } from "./options.js"

/** True for a GET of either well-known discovery document. */
export function isDiscoveryRequest(request: Request, url: URL): boolean {
  return request.method === "GET" && (url.pathname.endsWith("/.well-known/openid-configuration") || url.pathname.endsWith("/.well-known/oauth-authorization-server"))
}

/**
 * The metadata of a stand-in with this issuer; `no-authorization-endpoint` leaves that endpoint out.
 *
 * @example
 * ```ts
 * discoveryDocument("https://github.stand-in.test", {}).token_endpoint // "https://github.stand-in.test/token"
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc8414#section-2
 */
export function discoveryDocument(issuer: string, faults: StandInFaults): Record<string, unknown> {
  const metadata: Record<string, unknown> = {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    userinfo_endpoint: `${issuer}/userinfo`,
    jwks_uri: `${issuer}/jwks`,
    end_session_endpoint: `${issuer}/end-session`,
    response_types_supported: ["code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt", "none"],
    authorization_response_iss_parameter_supported: true,
  }
  if (faults.discovery === "no-authorization-endpoint") delete metadata.authorization_endpoint
  if (faults.discovery === "no-end-session-endpoint") delete metadata.end_session_endpoint
  return metadata
}

/** What discovery answers: the document, or 500 while discovery is `down`. */
export function discoveryResponse(issuer: string, faults: StandInFaults): Response {
  return faults.discovery === "down" ? new Response("upstream unavailable", { status: 500 }) : Response.json(discoveryDocument(issuer, faults))
}
