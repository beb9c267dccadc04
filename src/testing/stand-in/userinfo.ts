/**
 * The stand-in's userinfo endpoint, and the addresses endpoint of GitHub-style providers.
 *
 * @module
 */
import type { StandInFaults } from "./options.js"

/**
 * The answer to a userinfo request whose bearer token belongs to the user with `claims` (none:
 * an unknown token).
 *
 * @example
 * ```ts
 * userinfoResponse(request, { sub: "stand-in-subject", name: "Ada" }, {}) // 200 { sub, name }
 * ```
 * @see https://openid.net/specs/openid-connect-core-1_0.html#UserInfo
 */
export function userinfoResponse(request: Request, claims: Record<string, unknown> | undefined, faults: StandInFaults): Response {
  if (!claims) return Response.json({ error: "invalid_token" }, { status: 401 })
  if (faults.profile === "unavailable") return new Response("userinfo unavailable", { status: 500 })
  // GitHub-style providers ask for the addresses separately when the profile has none.
  if (new URL(request.url).pathname.endsWith("/emails")) return Response.json([])
  return Response.json(claims)
}
