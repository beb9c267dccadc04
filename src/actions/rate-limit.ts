/**
 * What the actions share to rate-limit a request: the limiter for the request, the identifier a
 * credentials form names, and the `RateLimited` error a `rateLimited` final state ends with.
 *
 * @module
 */
import { RateLimited } from "../core/errors.js"
import { rateLimitOf, retryAfterOf, RequestLimiter, type RateLimitRoute } from "../core/rate-limit/limiter.js"
import type { RateLimitContext } from "../machines/rate-limit.js"
import type { AuthOptions } from "../core/options.js"
import type { CredentialsConfig } from "../types.js"

/**
 * The limiter of one request, under the configuration's `rateLimit` (a no-op when limiting is off).
 *
 * @example
 * ```ts
 * const limiter = requestLimiter(options)
 * const event = await limiter.count("session")
 * ```
 */
export function requestLimiter(options: AuthOptions): RequestLimiter {
  const peer = options.request.peer
  return new RequestLimiter(rateLimitOf(options.config), { headers: options.request.headers, logger: options.logger, ...(peer !== undefined && { peer }) })
}

/**
 * The identifier a credentials form names: `rateLimit.credentialsIdentifier` when given, else its
 * `email` field, else `username`, else the provider's first field that is not of type `password`.
 *
 * @example
 * ```ts
 * credentialsIdentifierOf(options, provider, { username: "ada", password: "…" }) // "ada"
 * ```
 */
export function credentialsIdentifierOf(options: AuthOptions, provider: CredentialsConfig, credentials: Record<string, unknown>): unknown {
  const custom = rateLimitOf(options.config)?.credentialsIdentifier
  if (custom) return custom(credentials)
  if (credentials.email !== undefined) return credentials.email
  if (credentials.username !== undefined) return credentials.username
  const field = Object.entries(provider.credentials ?? {}).find(([name, input]) => input?.type !== "password" && name !== "password")?.[0]
  return field === undefined ? undefined : credentials[field]
}

/**
 * The error a `rateLimited` final state ends with: the route, the budget that was exceeded (or
 * `"store"`), who it was about, and the seconds until it lets requests through again.
 *
 * @example
 * ```ts
 * rateLimited: (context) => { throw rateLimitedError("credentials", context, limiter) }
 * ```
 */
export function rateLimitedError(route: RateLimitRoute, context: RateLimitContext, limiter: RequestLimiter): RateLimited {
  const exceeded = context.exceeded ?? []
  const ip = exceeded.find((hit) => hit.rule === "ip")?.subject ?? limiter.clientKey()
  const identifier = exceeded.find((hit) => hit.rule === "identifier")?.subject
  const rule = context.limiterFailed ? "store" : (exceeded[0]?.rule ?? "ip")
  const retryAfter = context.limiterFailed ? 60 : retryAfterOf(exceeded)
  return new RateLimited(`Too many requests on ${route} (${rule} limit); retry after ${retryAfter} s`, {
    cause: { route, rule, retryAfter, ...(ip !== undefined && { ip }), ...(identifier !== undefined && { identifier }) },
  })
}

/**
 * Counts a session update (POST `/session`) against the `session` budget and throws `RateLimited`
 * when it is over it, or when the store failed and the limiter fails closed. No flow machine runs
 * for a session update, so the rule is applied here, the same as the machines' guards apply it.
 *
 * @example
 * ```ts
 * if (update) await admitSessionUpdate(options)
 * ```
 */
export async function admitSessionUpdate(options: AuthOptions): Promise<void> {
  const limiter = requestLimiter(options)
  const event = await limiter.count("session")
  if (event.type === "rateLimit.failed") {
    if (!event.failOpen) throw rateLimitedError("session", { limiterFailed: true, error: event.error }, limiter)
    return
  }
  const exceeded = event.hits.filter((hit) => hit.count > hit.max)
  if (exceeded.length) throw rateLimitedError("session", { exceeded }, limiter)
}
