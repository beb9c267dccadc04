/**
 * Reading the session token of an incoming request, from the (chunked) session cookie or from an
 * `Authorization: Bearer` header.
 *
 * @module
 */
import type { Awaitable, JWT, JWTDecodeParams, LoggerInstance } from "../../types.js"
import { defaultCookies } from "../cookies/defaults.js"
import { parseCookieHeader } from "../cookies/parse.js"
import { sessionCookieCandidates } from "../cookies/session-store.js"
import { MissingSecret } from "../errors.js"
import { decode as defaultDecode } from "./decode.js"

/**
 * Headers as `getToken` accepts them: a `Headers` object or a plain record such as Node's
 * `IncomingHttpHeaders` (names matched case-insensitively).
 *
 * @example
 * ```ts
 * const headers: HeadersLike = { cookie: "authjs.session-token=…" }
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-5.1
 */
export type HeadersLike = Headers | Record<string, string | string[] | undefined>

/**
 * Parameters of {@link getToken}. With `raw: true` the encrypted token is returned as it is.
 *
 * @example
 * ```ts
 * const params: GetTokenParams = { req: request, secret: process.env.AUTH_SECRET, secureCookie: true }
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6265#section-5.4
 */
export interface GetTokenParams<R extends boolean = false> {
  /** The request, or anything with its headers. */
  req: Request | { headers: HeadersLike }
  /** Secret(s) to decrypt with; required unless `raw` is true. */
  secret?: JWTDecodeParams["secret"]
  /** Key derivation salt; defaults to the cookie name. */
  salt?: JWTDecodeParams["salt"]
  /** Look for the `__Secure-` prefixed cookie name. Default false. */
  secureCookie?: boolean
  /** The session cookie's name; default `authjs.session-token` (or `__Secure-authjs.session-token`). */
  cookieName?: string
  /** Return the encrypted token instead of its claims. */
  raw?: R
  /** A decoder to use instead of the built-in one. */
  decode?: (params: JWTDecodeParams) => Awaitable<JWT | null>
  /** Receives a debug message when a token fails to decode. */
  logger?: Partial<Pick<LoggerInstance, "debug">> | Console
}

function readHeader(headers: HeadersLike, name: string): string | null {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name)
  const record = headers as Record<string, string | string[] | undefined>
  for (const key in record) {
    if (key.toLowerCase() !== name) continue
    const value = record[key]
    if (value === undefined) return null
    return Array.isArray(value) ? value.join(name === "cookie" ? "; " : ", ") : value
  }
  return null
}

function bearerToken(authorization: string | null): string | null | undefined {
  if (!authorization) return undefined
  const [scheme, credentials] = authorization.split(" ")
  if (scheme !== "Bearer" || !credentials) return undefined
  try {
    return decodeURIComponent(credentials)
  } catch {
    return null // malformed percent-encoding: the token is unusable, not absent
  }
}

/**
 * Returns the session token's claims from a request, or the encrypted token itself with `raw: true`.
 * It reads the session cookie (the whole cookie, else its chunks from `.0` joined; the first of
 * these that decodes, so a chunk planted beside the session is ignored), then falls back to
 * `Authorization: Bearer <token>` (percent-decoded). Null when there is no token, when the bearer value is malformed, or
 * when the token does not decode. Throws when `req` is missing, and `MissingSecret` when a token must
 * be decoded without a secret.
 *
 * @example
 * ```ts
 * import { getToken } from "authflow/jwt"
 *
 * export async function GET(request: Request) {
 *   const token = await getToken({ req: request, secret: process.env.AUTH_SECRET })
 *   if (!token) return new Response("Unauthorized", { status: 401 })
 *   return Response.json({ user: token.sub })
 * }
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-2.1
 * @see https://www.rfc-editor.org/rfc/rfc6265#section-5.4
 */
export async function getToken<R extends boolean = false>(
  params: GetTokenParams<R>,
): Promise<R extends true ? string | null : JWT | null> {
  type Result = R extends true ? string | null : JWT | null
  const { req, secureCookie = false, raw, secret, logger } = params
  if (!req) throw new TypeError("getToken: `req` is required")
  const cookieName = params.cookieName ?? defaultCookies(secureCookie).sessionToken.name
  const salt = params.salt ?? cookieName
  const headers = req.headers
  // The whole cookie, then its chunks from `.0`: the first that decodes is the session (a chunk
  // planted beside it by a sibling subdomain is ignored).
  let candidates = sessionCookieCandidates(parseCookieHeader(readHeader(headers, "cookie")), cookieName)
  if (!candidates.length) {
    const bearer = bearerToken(readHeader(headers, "authorization"))
    if (!bearer) return null as Result
    candidates = [bearer]
  }
  if (raw) return candidates[0] as Result
  if (!secret) throw new MissingSecret("getToken: `secret` is required to decode the session token")
  const decode = params.decode ?? defaultDecode
  for (const token of candidates) {
    try {
      const payload = await decode({ token, secret, salt })
      if (payload) return payload as Result
    } catch (error) {
      logger?.debug?.("getToken: the session token could not be decoded", error)
    }
  }
  return null as Result
}
