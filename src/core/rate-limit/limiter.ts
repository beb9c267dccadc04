/**
 * The rate limiter: the `rateLimit` option resolved once per configuration object, and the count
 * each limited route makes for one request. The count is I/O and only reports; the flow machines'
 * guards decide (see `src/machines/rate-limit.ts`).
 *
 * @module
 */
import { RateLimitStoreError } from "../errors.js"
import { sha256Hex } from "../crypto.js"
import { addressKey, clientAddress, parseCidrs, type TrustedProxies } from "./ip.js"
import { memoryStore, type RateLimitCounter, type RateLimitStore } from "./store.js"
import type { LoggerInstance } from "../../base-types.js"
import { asError } from "../as-error.js"

/**
 * The groups of routes that are limited, each with its own budgets:
 * `credentials` (POST `/callback/<credentials>`), `email` (POST `/signin/<email>`), `oauth`
 * (POST `/signin/<oauth>` and `/callback/<oauth>`), `webauthn` (GET `/webauthn-options/<id>` and
 * POST `/callback/<webauthn>`), `session` (POST `/session`, a session update), `second-factor`
 * (POST `/second-factor`, and confirming or removing an app at `/factors`), `password-reset`
 * (POST `/forgot-password/<id>`, counted per email, and POST `/reset-password/<id>`, per account).
 */
export type RateLimitRoute = "credentials" | "email" | "email-code" | "oauth" | "webauthn" | "session" | "second-factor" | "password-reset"

/** A budget: at most `max` counted requests per window of `windowSeconds`, from the first one. */
export interface RateLimitRule {
  max: number
  windowSeconds: number
}

/** The budgets of one route group: per client address and per identifier (username, email). `false` turns one off. */
export interface RouteLimits {
  ip?: RateLimitRule | false
  identifier?: RateLimitRule | false
}

/**
 * The `rateLimit` option of `Auth()`.
 *
 * @example
 * ```ts
 * import { redisStore } from "authflow/rate-limit"
 * const config = {
 *   ...authConfig,
 *   rateLimit: { store: redisStore({ url: process.env.REDIS_URL! }), trustedProxies: 1, limits: { email: { identifier: { max: 5, windowSeconds: 3600 } } } },
 * }
 * ```
 */
export interface RateLimitOptions {
  /**
   * Where hits are counted. Give several instances one `redisStore` so that they share the limits.
   *
   * @default one in-memory store per process (`memoryStore()`)
   */
  store?: RateLimitStore
  /**
   * What a request meets when the store fails (the error is logged as `RateLimitStoreError`
   * either way): `"open"` lets it through, `"closed"` refuses it as `RateLimited`.
   *
   * @default "open"
   */
  onStoreError?: "open" | "closed"
  /**
   * Which proxies in front of the app are trusted to say who the client is in `X-Forwarded-For`:
   * the number of proxies (`1`: the last entry, which your one proxy appended), or their address
   * ranges (`["10.0.0.0/8"]`: the rightmost entry outside them). With `0`, `X-Forwarded-For` is
   * ignored and the client is the socket's peer (given by `authflow/node` and the SvelteKit
   * wrapper); when no peer is known either, only the per-identifier limits apply and a
   * `rate-limit-client-unknown` warning is logged once.
   *
   * @default 0
   */
  trustedProxies?: number | string[]
  /**
   * How many leading bits of an IPv6 address name one client: one host usually holds a whole /64.
   *
   * @default 64
   */
  ipv6Prefix?: number
  /**
   * Budgets per route group, merged over the defaults rule by rule ({@link defaultRateLimits}).
   *
   * @default defaultRateLimits
   */
  limits?: { [Route in RateLimitRoute]?: RouteLimits }
  /**
   * The identifier of a credentials sign-in, from the submitted credentials (what `authorize`
   * receives). When it answers no string (or an empty one), the attempt counts against the
   * route's shared identifier budget.
   *
   * @default the provider's declared identity field ({@link identityFieldOf}: `email`, else `username`, else the first declared field of type `email`, else the first that is not a password), whatever else the request sends; NFKC-normalised, trimmed and lowercased
   */
  credentialsIdentifier?: (credentials: Record<string, unknown>) => string | undefined
}

/**
 * The budgets that apply when `rateLimit` does not change them. Credentials count failed attempts
 * (a success takes its attempt back); every other route counts each request.
 *
 * | route | per identifier | per client address |
 * |---|---|---|
 * | credentials | 5 failed / 15 min | 30 failed / 15 min |
 * | email | 3 mails / hour | 20 mails / hour |
 * | email-code | 10 codes typed / 15 min per address | 60 / 15 min |
 * | oauth | | 60 / 15 min (sign-in and callback) |
 * | webauthn | | 60 / 15 min (options and callback) |
 * | session | | 60 updates / minute |
 * | second-factor | 10 codes / 15 min per user | 60 / 15 min |
 * | password-reset | 5 / hour per email (forgot) and per account (reset) | 20 / hour |
 *
 * @example
 * ```ts
 * defaultRateLimits.credentials.identifier // { max: 5, windowSeconds: 900 }
 * ```
 */
export const defaultRateLimits: Readonly<{ [Route in RateLimitRoute]: Readonly<RouteLimits> }> = Object.freeze({
  credentials: { identifier: { max: 5, windowSeconds: 15 * 60 }, ip: { max: 30, windowSeconds: 15 * 60 } },
  email: { identifier: { max: 3, windowSeconds: 60 * 60 }, ip: { max: 20, windowSeconds: 60 * 60 } },
  "email-code": { identifier: { max: 10, windowSeconds: 15 * 60 }, ip: { max: 60, windowSeconds: 15 * 60 } },
  oauth: { ip: { max: 60, windowSeconds: 15 * 60 } },
  webauthn: { ip: { max: 60, windowSeconds: 15 * 60 } },
  session: { ip: { max: 60, windowSeconds: 60 } },
  "second-factor": { identifier: { max: 10, windowSeconds: 15 * 60 }, ip: { max: 60, windowSeconds: 15 * 60 } },
  "password-reset": { identifier: { max: 5, windowSeconds: 60 * 60 }, ip: { max: 20, windowSeconds: 60 * 60 } },
})

/** What the `rateLimited` event receives, for audit logs. */
export interface RateLimitedMessage {
  route: RateLimitRoute
  /** The budget that was exceeded, or `"store"` when the store failed and the limiter fails closed. */
  rule: "ip" | "identifier" | "store"
  /** The client's address key (an IPv6 address as its network), when known. */
  ip?: string
  /** The identifier (normalised username or email), when the route has one. */
  identifier?: string
  /** Seconds until the budget lets requests through again. */
  retryAfter: number
}

/** The `rateLimit` option with its defaults applied. */
export interface ResolvedRateLimit {
  store: RateLimitStore
  failOpen: boolean
  trusted: TrustedProxies
  ipv6Prefix: number
  limits: { [Route in RateLimitRoute]: { ip?: RateLimitRule; identifier?: RateLimitRule } }
  credentialsIdentifier?: RateLimitOptions["credentialsIdentifier"]
}

/** One budget's count for one request, as the store answered it. */
export interface RateLimitHit {
  rule: "ip" | "identifier"
  /** The address key or the normalised identifier the budget is about. */
  subject: string
  count: number
  max: number
  /** Epoch milliseconds at which the window ends. */
  resetAt: number
}

/** What a limiter count reports to a flow machine. */
export type RateLimitEvent =
  | { type: "rateLimit.counted"; hits: RateLimitHit[] }
  | { type: "rateLimit.failed"; error: unknown; failOpen: boolean }

const routes: readonly RateLimitRoute[] = ["credentials", "email", "email-code", "oauth", "webauthn", "session", "second-factor", "password-reset"]
let processStore: RateLimitStore | undefined
const resolvedFor = new WeakMap<object, { input: unknown; production: boolean; resolved: ResolvedRateLimit | undefined }>()

function isProduction(): boolean {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.NODE_ENV === "production"
}

function checkedRule(route: string, name: string, rule: RateLimitRule | false | undefined, fallback: RateLimitRule | false | undefined): RateLimitRule | undefined {
  const chosen = rule === undefined ? fallback : rule
  if (chosen === false || chosen === undefined) return undefined
  const { max, windowSeconds } = chosen
  if (!Number.isInteger(max) || max < 0 || !(windowSeconds > 0)) {
    throw new TypeError(`rateLimit.limits.${route}.${name}: give { max: <integer ≥ 0>, windowSeconds: <seconds > 0> } or false, e.g. { max: 5, windowSeconds: 900 }.`)
  }
  return { max, windowSeconds }
}

/**
 * The `rateLimit` option resolved for a configuration: `undefined` when limiting is off (`false`,
 * or not given outside `NODE_ENV=production`). Resolved once per configuration object and kept
 * while its `rateLimit` stays the same object. A malformed option throws a `TypeError` saying how
 * to fix it.
 *
 * @example
 * ```ts
 * const limiter = rateLimitOf({ rateLimit: {} }) // the defaults, in memory
 * ```
 */
export function rateLimitOf(config: { rateLimit?: RateLimitOptions | boolean }): ResolvedRateLimit | undefined {
  const input = config.rateLimit
  const production = input === undefined && isProduction()
  const cached = resolvedFor.get(config)
  if (cached && cached.input === input && cached.production === production) return cached.resolved
  const resolved = resolve(input, production)
  resolvedFor.set(config, { input, production, resolved })
  return resolved
}

function resolve(input: RateLimitOptions | boolean | undefined, production: boolean): ResolvedRateLimit | undefined {
  if (input === false || (input === undefined && !production)) return undefined
  const options: RateLimitOptions = typeof input === "object" && input !== null ? input : {}
  const trustedProxies = options.trustedProxies ?? 0
  let trusted: TrustedProxies
  if (typeof trustedProxies === "number") {
    if (!Number.isInteger(trustedProxies) || trustedProxies < 0) throw new TypeError(`rateLimit.trustedProxies: give the number of proxies in front of the app (e.g. 1) or their CIDR ranges, got ${trustedProxies}.`)
    trusted = trustedProxies
  } else if (Array.isArray(trustedProxies)) {
    trusted = parseCidrs(trustedProxies)
  } else {
    throw new TypeError(`rateLimit.trustedProxies: give the number of proxies in front of the app (e.g. 1) or their CIDR ranges (e.g. ["10.0.0.0/8"]).`)
  }
  const ipv6Prefix = options.ipv6Prefix ?? 64
  if (!Number.isInteger(ipv6Prefix) || ipv6Prefix < 1 || ipv6Prefix > 128) throw new TypeError(`rateLimit.ipv6Prefix: give a prefix length from 1 to 128 (e.g. 64), got ${ipv6Prefix}.`)
  if (options.onStoreError !== undefined && options.onStoreError !== "open" && options.onStoreError !== "closed") {
    throw new TypeError(`rateLimit.onStoreError: give "open" or "closed", got ${JSON.stringify(options.onStoreError)}.`)
  }
  const limits = {} as ResolvedRateLimit["limits"]
  for (const route of routes) {
    const given = options.limits?.[route]
    const fallback = defaultRateLimits[route]
    const ip = checkedRule(route, "ip", given?.ip, fallback.ip)
    const identifier = checkedRule(route, "identifier", given?.identifier, fallback.identifier)
    limits[route] = { ...(ip && { ip }), ...(identifier && { identifier }) }
  }
  return {
    store: options.store ?? (processStore ??= memoryStore()),
    failOpen: options.onStoreError !== "closed",
    trusted,
    ipv6Prefix,
    limits,
    ...(options.credentialsIdentifier && { credentialsIdentifier: options.credentialsIdentifier }),
  }
}

/**
 * A username or email as the limiter keys it: trimmed, Unicode-normalised (NFKC) and lowercased,
 * so that `Ada@Example.test ` and `ada@example.test` share one budget.
 *
 * @example
 * ```ts
 * normalizeIdentifier(" Ada@Example.TEST ") // "ada@example.test"
 * ```
 */
export function normalizeIdentifier(value: unknown): string | undefined {
  if (typeof value !== "string" && typeof value !== "number") return undefined
  const normalized = String(value).normalize("NFKC").trim().toLowerCase()
  return normalized === "" ? undefined : normalized
}

/**
 * The identity of a request whose identifier could not be read (a credentials form without its
 * identity field, or with it empty): {@link RequestLimiter.count} counts it against the route's
 * one shared identifier budget, never against none.
 *
 * @example
 * ```ts
 * await limiter.count("credentials", sharedIdentity)
 * ```
 */
export const sharedIdentity: SharedIdentity = Object.freeze({ shared: true })

/** See {@link sharedIdentity}. */
export interface SharedIdentity {
  readonly shared: true
}

/** The subject the shared identifier budget is reported under (in `rateLimited` events). */
export const sharedIdentitySubject = "(unread identity)"

function isSharedIdentity(value: unknown): value is SharedIdentity {
  return typeof value === "object" && value !== null && (value as SharedIdentity).shared === true
}

/**
 * The credentials field a provider names its user by: the declared `email` field, else the
 * declared `username`, else the first declared field of type `email`, else the first declared
 * field that is neither named nor typed `password`. `undefined` when it declares none. The choice
 * depends on the provider's declaration only, never on what a request sends.
 *
 * @example
 * ```ts
 * identityFieldOf({ username: { label: "Username" }, password: { type: "password" } }) // "username"
 * identityFieldOf({ code: { type: "password" } }) // undefined
 * ```
 */
export function identityFieldOf(declared: Readonly<Record<string, { type?: string } | undefined>> | undefined): string | undefined {
  const fields = Object.entries(declared ?? {})
  for (const name of ["email", "username"]) if (fields.some(([field]) => field === name)) return name
  return fields.find(([, input]) => input?.type === "email")?.[0] ?? fields.find(([name, input]) => input?.type !== "password" && name !== "password")?.[0]
}

// Once per store (the default store is one per process): configurations rebuilt per request do not repeat it.
const warnedUnknownClient = new WeakSet<RateLimitStore>()

/** What one request needs to be counted: who sent it, where the budgets are, how to log. */
export interface LimiterRequest {
  /** The peer address the framework wrapper recorded (`withClientAddress`). */
  peer?: string
  headers: Headers
  logger: LoggerInstance
}

/**
 * The rate limiter for one request: counts it against a route's budgets and, for a credentials
 * attempt that succeeded, takes the count back. It never decides: it reports the counts (or the
 * store's failure) as an event for a flow machine's guards.
 *
 * @example
 * ```ts
 * const limiter = new RequestLimiter(rateLimitOf(config), { peer, headers, logger })
 * const event = await limiter.count("email", "ada@example.test") // { type: "rateLimit.counted", hits: [...] }
 * ```
 */
export class RequestLimiter {
  private counted: string[] = []

  constructor(
    private readonly limiter: ResolvedRateLimit | undefined,
    private readonly request: LimiterRequest,
  ) {}

  /** The client's address key, or undefined when nothing names the client. */
  clientKey(): string | undefined {
    const limiter = this.limiter
    if (!limiter) return undefined
    const address = clientAddress(this.request.peer, this.request.headers.get("x-forwarded-for"), limiter.trusted)
    return address === undefined ? undefined : (addressKey(address, limiter.ipv6Prefix) ?? `unparsed:${address.slice(0, 64)}`)
  }

  /**
   * Counts this request on the route's budgets: the client address's, and the identifier's when
   * one is given. Reports `rateLimit.counted` with the counts (none when limiting is off), or
   * `rateLimit.failed` when the store failed (logged as `RateLimitStoreError`).
   */
  async count(route: RateLimitRoute, identifier?: unknown): Promise<RateLimitEvent> {
    const limiter = this.limiter
    if (!limiter) return { type: "rateLimit.counted", hits: [] }
    const budgets = limiter.limits[route]
    const pending: Omit<RateLimitHit, "count" | "resetAt">[] = []
    const counters: RateLimitCounter[] = []
    if (budgets.ip) {
      const ip = this.clientKey()
      if (ip === undefined) {
        if (!warnedUnknownClient.has(limiter.store)) {
          warnedUnknownClient.add(limiter.store)
          this.request.logger.warn("rate-limit-client-unknown")
        }
      } else {
        pending.push({ rule: "ip", subject: ip, max: budgets.ip.max })
        counters.push({ key: `ip:${route}:${ip}`, windowMs: budgets.ip.windowSeconds * 1000, max: budgets.ip.max, overflowKey: `ip:${route}:overflow` })
      }
    }
    if (budgets.identifier) {
      const id = isSharedIdentity(identifier) ? undefined : normalizeIdentifier(identifier)
      const rule = { windowMs: budgets.identifier.windowSeconds * 1000, max: budgets.identifier.max, overflowKey: `id:${route}:overflow` }
      if (id !== undefined) {
        pending.push({ rule: "identifier", subject: id, max: budgets.identifier.max })
        // Hashed: the store holds no email address or username.
        counters.push({ key: `id:${route}:${sha256Hex(`${route}:${id}`).slice(0, 32)}`, ...rule })
      } else if (isSharedIdentity(identifier)) {
        pending.push({ rule: "identifier", subject: sharedIdentitySubject, max: budgets.identifier.max })
        counters.push({ key: `id:${route}:shared`, ...rule })
      }
    }
    if (counters.length === 0) return { type: "rateLimit.counted", hits: [] }
    try {
      const counts = await limiter.store.hit(counters)
      this.counted = counters.map((counter, i) => counts[i]!.countedAs ?? counter.key)
      return { type: "rateLimit.counted", hits: pending.map((hit, i) => ({ ...hit, count: counts[i]!.count, resetAt: counts[i]!.resetAt })) }
    } catch (error) {
      this.request.logger.error(new RateLimitStoreError(asError(error), { cause: { route } }))
      return { type: "rateLimit.failed", error, failOpen: limiter.failOpen }
    }
  }

  /** Takes back what {@link count} counted (a credentials attempt that succeeded). A store failure is logged, never thrown. */
  async refund(): Promise<void> {
    const keys = this.counted
    this.counted = []
    if (!this.limiter || keys.length === 0) return
    try {
      await this.limiter.store.refund(keys)
    } catch (error) {
      this.request.logger.error(new RateLimitStoreError(asError(error), { cause: { refund: true } }))
    }
  }
}

/**
 * Seconds until the earliest moment every exceeded budget lets requests through again.
 *
 * @example
 * ```ts
 * retryAfterOf([{ rule: "ip", subject: "203.0.113.7", count: 31, max: 30, resetAt: Date.now() + 60_000 }]) // 60
 * ```
 */
export function retryAfterOf(hits: readonly RateLimitHit[], now = Date.now()): number {
  let resetAt = now
  for (const hit of hits) if (hit.count > hit.max && hit.resetAt > resetAt) resetAt = hit.resetAt
  return Math.max(1, Math.ceil((resetAt - now) / 1000))
}
