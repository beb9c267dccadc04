/**
 * `requireRecentAuth` in every wrapper: asks `<basePath>/step-up` (as JSON, in-process through
 * `Auth()`, on the incoming request's cookies) whether the signed-in user authenticated within
 * `maxAge` seconds (with a second factor, for `factor: "second"`). When they did, the wrapper's
 * page or action goes on; when not, the wrapper redirects the browser to `/step-up`, which sends
 * them through their second factor again (the session stays) or to sign in, and back.
 *
 * @module
 */
import { Auth } from "../../auth.js"
import { AuthError } from "../../core/errors.js"
import { raw } from "../../core/symbols.js"
import type { AuthConfig, ResponseInternal } from "../../types.js"

/**
 * What a sensitive action demands of the signed-in user's last authentication.
 *
 * @example
 * ```ts
 * const demand: RecentAuthDemand = { maxAge: 300, factor: "second" }
 * ```
 */
export interface RecentAuthDemand {
  /** Seconds since the user last authenticated (signed in, or stepped up). */
  maxAge: number
  /**
   * `"second"`: the last authentication passed a second factor (its `amr` holds `mfa`), so a
   * user without one cannot meet it; `"any"`: any recent authentication.
   * @default "any"
   */
  factor?: "any" | "second"
  /** Where the browser returns once the demand is met. @default the current page, where the framework knows it */
  callbackUrl?: string
}

/**
 * The answer: met (when and how the user authenticated), or not (what the step-up will ask, and
 * where to send the browser for it).
 *
 * @example
 * ```ts
 * const result: RecentAuthResult = { recent: false, next: "second-factor", redirectTo: "https://app.example/auth/step-up?maxAge=300&factor=any&callbackUrl=%2Fsettings" }
 * ```
 */
export type RecentAuthResult =
  | { recent: true; authTime: Date; amr: string[] }
  | { recent: false; next: "second-factor" | "signin" | "unavailable"; redirectTo: string }

/** Where the check runs: the framework's view of the incoming request. */
export interface RecentAuthContext {
  /** The configuration, as the wrapper completed it. */
  config: Omit<AuthConfig, "raw">
  /** `<basePath>/step-up` on the app's public origin. */
  url: URL
  /** The incoming request's headers: its cookies say who is signed in and when they authenticated. */
  headers: Headers
  /** Where the browser returns when the demand names none. */
  callbackUrl: string
}

const rawConfigs = new WeakMap<object, AuthConfig & { raw: typeof raw }>()

function rawConfig(config: Omit<AuthConfig, "raw">): AuthConfig & { raw: typeof raw } {
  let derived = rawConfigs.get(config)
  if (!derived) rawConfigs.set(config, (derived = { ...config, raw }))
  return derived
}

/**
 * Whether the signed-in user meets `demand`, read from `/step-up` without starting anything.
 *
 * @example
 * ```ts
 * const result = await checkRecentAuth({ maxAge: 300 }, { config, url: new URL("https://app.example/auth/step-up"), headers: request.headers, callbackUrl: request.url })
 * if (!result.recent) return Response.redirect(result.redirectTo, 303)
 * ```
 */
export async function checkRecentAuth(demand: RecentAuthDemand, context: RecentAuthContext): Promise<RecentAuthResult> {
  const stepUp = new URL(context.url)
  stepUp.search = new URLSearchParams({ maxAge: String(demand.maxAge), factor: demand.factor ?? "any", callbackUrl: demand.callbackUrl ?? context.callbackUrl }).toString()
  const headers = new Headers(context.headers)
  for (const name of ["content-length", "content-type", "x-auth-return-redirect"]) headers.delete(name)
  headers.set("accept", "application/json")
  const answer: ResponseInternal = await Auth(new Request(stepUp, { headers }), rawConfig(context.config))
  const body = answer.body as { recent?: unknown; authTime?: unknown; amr?: unknown; next?: unknown; error?: unknown } | undefined
  if (answer.status === 400 && typeof body?.error === "string") throw new AuthError(`requireRecentAuth: ${body.error}`)
  if (answer.redirect || !body || typeof body.recent !== "boolean") {
    throw new AuthError(`requireRecentAuth: authflow answered HTTP ${answer.status ?? 302} at ${stepUp.pathname}, a configuration error (is \`secondFactor\` set?): the [auth][error] line logged with it says what to set`)
  }
  if (body.recent) return { recent: true, authTime: new Date(body.authTime as string), amr: body.amr as string[] }
  return { recent: false, next: body.next as "second-factor" | "signin" | "unavailable", redirectTo: stepUp.href }
}
