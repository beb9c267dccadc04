/**
 * Rate limiting (`authflow/rate-limit`): the stores the `rateLimit` option counts in, the default
 * budgets, and how a framework wrapper hands the client's address to `Auth()`.
 *
 * @example
 * ```ts
 * import { Auth } from "authflow"
 * import { redisStore } from "authflow/rate-limit"
 *
 * const config = { ...authConfig, rateLimit: { store: redisStore({ url: process.env.REDIS_URL! }), trustedProxies: 1 } }
 * export const handler = (request: Request) => Auth(request, config)
 * ```
 * @module
 */
export { memoryStore } from "./core/rate-limit/store.js"
export type { MemoryStoreOptions, RateLimitCount, RateLimitCounter, RateLimitStore } from "./core/rate-limit/store.js"
export { redisStore } from "./core/rate-limit/redis.js"
export type { RedisRateLimitStore, RedisScriptClient, RedisStoreOptions, RedisUrlOptions } from "./core/rate-limit/redis.js"
export { addressKey } from "./core/rate-limit/ip.js"
export { withClientAddress } from "./core/rate-limit/peer.js"
export { defaultRateLimits, normalizeIdentifier } from "./core/rate-limit/limiter.js"
export type { RateLimitedMessage, RateLimitOptions, RateLimitRoute, RateLimitRule, RouteLimits } from "./core/rate-limit/limiter.js"
export { RateLimited, RateLimitStoreError } from "./core/errors.js"
