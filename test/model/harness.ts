/**
 * What the model tests share beyond authflow/testing's machinery, which they use as it ships
 * (src/testing: `modelPaths`, `TransitionRecorder`, `coverageReport`): the answers of the
 * `signIn` and `redirect` callbacks a path's sign-in tail meets, what the callbacks do to give
 * them, and the inputs that make the model walk both session strategies.
 */
import { AccessDenied } from "../../src/errors.js"
import { defaultCallbacks } from "../../src/core/callbacks.js"
import type { SignInTailPolicy } from "../../src/machines/sign-in-tail.js"
import { memoryStore, type RateLimitStore } from "../../src/core/rate-limit/store.js"
import type { RateLimitEvent, RateLimitRoute } from "../../src/core/rate-limit/limiter.js"
import type { AuthConfig, CallbacksOptions } from "../../src/types.js"
import type { InspectionEvent } from "xstate"
import type { TransitionRecorder } from "../../src/testing/recorder.js"

/** The URL the `signIn` callback answers when a path redirects. */
export const signInRedirect = "/welcome"

/**
 * What the `signIn` callback can do, and then the `redirect` callback with the URL it answered:
 * allow, refuse, answer a URL (resolved, or the `redirect` callback throws), throw an `AuthError`
 * (kept) or any other error (wrapped in `AccessDenied`).
 */
export const signInDecisions = [
  { type: "signIn.answered", result: true },
  { type: "signIn.answered", result: false },
  { type: "signIn.answered", result: signInRedirect },
  { type: "signIn.threw", error: new AccessDenied("the signIn callback refused") },
  { type: "signIn.threw", error: new Error("callback threw") },
  { type: "redirect.resolved", url: signInRedirect },
  { type: "redirect.threw", error: new AccessDenied("the redirect callback refused") },
  { type: "redirect.threw", error: new Error("redirect callback threw") },
] as const

/**
 * What the `signIn` callback must answer (or throw) for the engine to meet a path's
 * `signIn.answered` or `signIn.threw`. A path without either never asks; it allows.
 */
export function signInDecisionOf(path: readonly { type: string }[]): boolean | string {
  const threw = path.find((event) => event.type === "signIn.threw") as { error?: unknown } | undefined
  if (threw) throw threw.error
  const answered = path.find((event) => event.type === "signIn.answered") as { result?: unknown } | undefined
  // The callback's declared type is `boolean | string`; a JavaScript callback can answer anything, and the tail's guards read it as it is.
  return answered ? (answered.result as boolean | string) : true
}

/**
 * The `redirect` callback for a path: it throws the path's `redirect.threw` error for the URL the
 * `signIn` callback answered, and otherwise is the default one.
 */
export function redirectCallbackOf(path: readonly { type: string }[]): Pick<CallbacksOptions, "redirect"> | Record<string, never> {
  const threw = path.find((event) => event.type === "redirect.threw") as { error?: unknown } | undefined
  if (!threw) return {}
  return {
    redirect(params) {
      if (params.url === signInRedirect) throw threw.error
      return defaultCallbacks.redirect(params)
    },
  }
}

/**
 * The inputs that make the model walk both session strategies, with `pages.newUser` set (a user
 * the sign-in creates goes there; any other one does not).
 */
export const tailInputs: { policy: SignInTailPolicy }[] = [
  { policy: { databaseSessions: true, newUserPage: true } },
  { policy: { databaseSessions: false, newUserPage: true } },
]

/** The tail policy a path was generated with. */
export function policyOf(path: { input?: unknown }): SignInTailPolicy {
  return (path.input as { policy?: SignInTailPolicy } | undefined)?.policy ?? { databaseSessions: false, newUserPage: false }
}

/** The store error the model's failing rate-limit store throws. */
export const limiterDown = new Error("rate-limit store down")

/**
 * What the rate limiter can report at a limited state: the request is within its budgets, over
 * one, or the store failed and the limiter fails open or closed.
 */
export const rateLimitOutcomes: RateLimitEvent[] = [
  { type: "rateLimit.counted", hits: [] },
  { type: "rateLimit.counted", hits: [{ rule: "ip", subject: "203.0.113.7", count: 1, max: 0, resetAt: 0 }] },
  { type: "rateLimit.failed", error: limiterDown, failOpen: true },
  { type: "rateLimit.failed", error: limiterDown, failOpen: false },
]

/** A store that always fails, as a Redis that is down does. */
export const failingStore: RateLimitStore = {
  hit: () => Promise.reject(limiterDown),
  refund: () => Promise.reject(limiterDown),
}

/**
 * The `rateLimit` option that makes the engine report a path's limiter outcome at every limited
 * state of the path: off (within budgets), a budget of 0 for the route's client address (over it;
 * the model's requests come from 203.0.113.7), or a failing store that fails open or closed.
 */
export function rateLimitOf(path: readonly { type: string }[], route: RateLimitRoute): Pick<AuthConfig, "rateLimit"> {
  const reported = path.filter((event) => event.type === "rateLimit.counted" || event.type === "rateLimit.failed") as { type: string; hits?: unknown[]; failOpen?: boolean }[]
  const over = reported.some((event) => event.hits?.length)
  const failed = reported.find((event) => event.type === "rateLimit.failed")
  if (over) return { rateLimit: { store: memoryStore(), trustedProxies: 1, limits: { [route]: { ip: { max: 0, windowSeconds: 60 } } } } }
  if (failed) return { rateLimit: { store: failingStore, trustedProxies: 1, onStoreError: failed.failOpen ? "open" : "closed" } }
  return { rateLimit: false }
}

/** The header the model's requests carry, naming the client behind one trusted proxy. */
export const modelClientHeaders = { "X-Forwarded-For": "203.0.113.7" }

/**
 * The paths worth driving once the limiter's outcomes are in the model. A request the limiter
 * lets through because its store failed open walks on exactly as an admitted one does, so of the
 * paths that fail open only one per limited state is kept (the first the model generated, the
 * fail-open being its only limiter event that is not a plain admission): it covers that
 * transition, and every path after it is driven with the plain admission already.
 */
export function limiterRepresentatives<TPath extends { events: readonly { type: string }[]; states: readonly string[] }>(paths: readonly TPath[]): TPath[] {
  const kept = new Set<string>()
  return paths.filter((path) => {
    const unusual = path.events
      .map((event, index) => ({ event: event as { type: string; hits?: unknown[]; failOpen?: boolean }, state: path.states[index]! }))
      .filter(({ event }) => event.type === "rateLimit.failed" || (event.type === "rateLimit.counted" && event.hits?.length))
    const failedOpen = unusual.filter(({ event }) => event.type === "rateLimit.failed" && event.failOpen)
    if (failedOpen.length === 0) return true
    if (unusual.length > 1) return false
    const state = failedOpen[0]!.state
    if (kept.has(state)) return false
    kept.add(state)
    return true
  })
}

/** The events of a path up to (not including) `type`, and from it on: the two requests of a flow that waits. */
export function splitAt<TEvent extends { type: string }>(events: readonly TEvent[], type: string): [TEvent[], TEvent[]] {
  const at = events.findIndex((event) => event.type === type)
  return at < 0 ? [[...events], []] : [events.slice(0, at), events.slice(at)]
}

/**
 * A transition recorder's inspection, plus the status each flow actor of the machine `id` reported
 * last, in the order the actors started: `"done"` for a flow that ended in a final state,
 * `"stopped"` for one the engine stopped while it waited (for another request) or stood in a state
 * that is not final. Pass its {@link inspect} as `config.inspect`; {@link reset} resets both.
 */
export class FlowEndings {
  readonly #statuses = new Map<string, string>()

  constructor(
    readonly recorder: TransitionRecorder,
    readonly id: string,
  ) {}

  readonly inspect = (event: InspectionEvent): void => {
    this.recorder.inspect(event)
    if (event.type !== "@xstate.snapshot") return
    const snapshot = event.snapshot as { machine?: { id: string }; status?: string }
    if (snapshot.machine?.id === this.id && snapshot.status) this.#statuses.set(event.actorRef.sessionId, snapshot.status)
  }

  /** The statuses seen since the last {@link reset}. */
  get statuses(): string[] {
    return [...this.#statuses.values()]
  }

  reset(): void {
    this.recorder.reset()
    this.#statuses.clear()
  }
}
