/**
 * What the actions share to rate-limit a request: the limiter for the request, what a credentials
 * request carries (its identity), and the `RateLimited` error a `rateLimited` final state ends with.
 *
 * @module
 */
import { RateLimited } from "../core/errors.js"
import { identityFieldOf, normalizeIdentifier, rateLimitOf, retryAfterOf, RequestLimiter, type RateLimitRoute } from "../core/rate-limit/limiter.js"
import type { RateLimitContext } from "../machines/rate-limit.js"
import type { CredentialsReadEvent } from "../machines/credentials-sign-in.js"
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
 * What a credentials request carries, as the credentials sign-in machine needs it (its
 * `readCredentials` effect): the identity the per-user budget keys on, read from the provider's
 * declared identity field ({@link identityFieldOf}) or by `rateLimit.credentialsIdentifier`,
 * normalised as the limiter keys it (none when it is missing, empty or not a string); and the
 * declared fields whose value is there but not a string. It only reports: the machine's guards
 * refuse the non-strings and send an unread identity to the shared budget.
 *
 * @example
 * ```ts
 * readCredentials(options, provider, { username: " Ada ", password: "…" }) // { type: "credentials.read", identifier: "ada", nonString: [] }
 * readCredentials(options, provider, { username: ["ada"], password: "…" }) // { type: "credentials.read", nonString: ["username"] }
 * ```
 */
export function readCredentials(options: AuthOptions, provider: CredentialsConfig, credentials: Record<string, unknown>): CredentialsReadEvent {
  const declared = Object.keys(provider.credentials ?? {})
  const nonString = declared.filter((field) => Object.hasOwn(credentials, field) && credentials[field] !== undefined && typeof credentials[field] !== "string")
  const custom = rateLimitOf(options.config)?.credentialsIdentifier
  const field = identityFieldOf(provider.credentials)
  const value = custom ? custom(credentials) : field === undefined ? undefined : credentials[field]
  const identifier = typeof value === "string" ? normalizeIdentifier(value) : undefined
  return { type: "credentials.read", nonString, ...(identifier !== undefined && { identifier }) }
}

/**
 * The error a `rateLimited` final state ends with: the route, the budget that was exceeded (or
 * `"store"`), who it was about, and the seconds until it lets requests through again.
 *
 * @example
 * ```ts
 * rateLimited: (context) => errorAnswer(rateLimitedError("credentials", context, limiter))
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
 * Counts a session update (POST `/session`) against the `session` budget: the `RateLimited` error
 * the update is answered with when it is over it, or when the store failed and the limiter fails
 * closed; none when it may go on. No flow machine runs for a session update, so the rule is
 * applied here, the same as the machines' guards apply it.
 *
 * @example
 * ```ts
 * const limited = update && (await refuseSessionUpdate(options))
 * if (limited) return errorAnswer(limited)
 * ```
 */
export async function refuseSessionUpdate(options: AuthOptions): Promise<RateLimited | undefined> {
  const limiter = requestLimiter(options)
  const event = await limiter.count("session")
  if (event.type === "rateLimit.failed") return event.failOpen ? undefined : rateLimitedError("session", { limiterFailed: true, error: event.error }, limiter)
  const exceeded = event.hits.filter((hit) => hit.count > hit.max)
  return exceeded.length ? rateLimitedError("session", { exceeded }, limiter) : undefined
}
