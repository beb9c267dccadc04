/**
 * Rate limiting inside the flow machines, defined once: a state whose effect (`checkRateLimit`)
 * counts the request and reports the counts, guards that decide whether a budget is exceeded or
 * whether a failed store lets the request through, and the `rateLimited` final state. Each machine
 * with a limited entry spreads these in, so the inspector and the model tests see the same
 * decision everywhere.
 *
 * @module
 */
import { assign, type EventObject } from "xstate"
import type { RateLimitEvent, RateLimitHit } from "../core/rate-limit/limiter.js"

export type { RateLimitEvent, RateLimitHit } from "../core/rate-limit/limiter.js"

/** What a machine's context records when the limiter refused the request. */
export interface RateLimitContext {
  /** The counts that went over their budgets (none when the store failed and the limiter fails closed). */
  exceeded?: RateLimitHit[]
  /** The store failed and `rateLimit.onStoreError` is `"closed"`. */
  limiterFailed?: boolean
  /** The store's error, when it failed. */
  error?: unknown
}

/** The effect a limited state names. */
export type RateLimitEffect = "checkRateLimit"

const exceededOf = (event: EventObject): RateLimitHit[] =>
  event.type === "rateLimit.counted" ? ((event as Extract<RateLimitEvent, { type: "rateLimit.counted" }>).hits ?? []).filter((hit) => hit.count > hit.max) : []

/**
 * The guards of a limited state, for a machine's `setup({ guards })`.
 *
 * @example
 * ```ts
 * setup({ guards: { ...rateLimitGuards<MyContext, MyEvent>() } })
 * ```
 */
export function rateLimitGuards<TContext extends RateLimitContext, TEvent extends EventObject>() {
  type Args = { context: TContext; event: TEvent }
  return {
    /** A budget counted more requests than it allows (the count includes this request). */
    overLimit: ({ event }: Args) => exceededOf(event).length > 0,
    /** The store failed and `rateLimit.onStoreError` is `"open"`: the request goes on. */
    limiterFailsOpen: ({ event }: Args) => event.type === "rateLimit.failed" && (event as { failOpen?: boolean }).failOpen === true,
  }
}

/**
 * The actions of a limited state: `recordExceeded` keeps the budgets that were exceeded,
 * `recordLimiterFailure` the store's error.
 *
 * @example
 * ```ts
 * setup({ actions: { ...flowActions<C, E>(), ...rateLimitActions<C, E>() } })
 * ```
 */
export function rateLimitActions<TContext extends RateLimitContext, TEvent extends EventObject>() {
  return {
    recordExceeded: assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => ({ exceeded: exceededOf(event) }) as Partial<TContext>),
    recordLimiterFailure: assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => ({ limiterFailed: true, error: (event as { error?: unknown }).error }) as Partial<TContext>),
  }
}

/**
 * A state that counts the request (`checkRateLimit`) and goes on to `next`, or ends in
 * `rateLimited` when a budget is exceeded, or when the store failed and the limiter fails closed.
 * Spread {@link rateLimitedState} once into the machine as well.
 *
 * @param next - The state an admitted request goes to.
 * @example
 * ```ts
 * createMachine({ states: { limiting: limitingState("authorizing"), ...rateLimitedState, … } })
 * ```
 */
export function limitingState<const TNext extends string>(next: TNext) {
  return {
    meta: { effect: "checkRateLimit" },
    on: {
      "rateLimit.counted": [{ guard: "overLimit", target: "rateLimited", actions: "recordExceeded" }, { target: next }],
      "rateLimit.failed": [{ guard: "limiterFailsOpen", target: next }, { target: "rateLimited", actions: "recordLimiterFailure" }],
    },
  } as const
}

/** The final state of a request the limiter refused. */
export const rateLimitedState = { rateLimited: { type: "final" } } as const
