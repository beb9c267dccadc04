/**
 * A fault-injecting wrapper around any adapter, to test what an app does when its database
 * fails: each method can throw, hang, or answer malformed data, at a chosen call (the Nth call of
 * method M since the wrapper was armed).
 *
 * @module
 */
import type { Adapter } from "../adapters.js"

/**
 * How an adapter call fails: it throws (nothing is done), never answers (nothing is done), or is
 * made and answers something malformed (a write lands, its answer is garbage).
 */
export type FaultMode = "throw" | "hang" | "malformed"

/** One fault: the `call`-th call (from 1) of `method` after {@link FaultyAdapter.arm} fails as `mode`. */
export interface FaultPlan {
  method: keyof Adapter & string
  /**
   * Which call of `method` fails, counted from 1 since the plan was armed.
   *
   * @default 1
   */
  call?: number
  mode: FaultMode
  /** What a `throw` fault throws. @default an `Error` naming the method and call */
  error?: Error
  /** What a `malformed` fault answers. @default a value shaped wrong for the method (see {@link malformedAnswer}) */
  answer?: unknown
}

/** One call the wrapper saw, and the fault it injected, if any. */
export interface AdapterCall {
  method: string
  args: unknown[]
  /** Which call of this method it was, since the last {@link FaultyAdapter.arm}. */
  nth: number
  fault?: FaultMode
}

/** What {@link faultyAdapter} returns. */
export interface FaultyAdapter {
  /** The wrapped adapter: configure `Auth()` with it. */
  adapter: Adapter
  /** Arms faults (replacing earlier ones) and restarts the per-method call counts. */
  arm(plans: FaultPlan | readonly FaultPlan[]): void
  /** Removes every fault; calls pass through. */
  disarm(): void
  /** Every call since the wrapper was made (or {@link reset}), in order. */
  readonly calls: readonly AdapterCall[]
  /** The faults that fired since the last {@link arm}. */
  readonly fired: readonly FaultPlan[]
  /** Call sites: each method's number of calls since the last {@link arm}. */
  callCounts(): Record<string, number>
  /** Forgets the recorded calls (the armed faults stay). */
  reset(): void
  /** Settles every hanging call (rejecting it), so nothing stays pending after a test. */
  release(): void
}

/**
 * A value shaped wrong for what `method` should answer: a user without an id, a session without
 * a token, a token whose expiry is not a date, a list that is not one.
 *
 * @example
 * ```ts
 * malformedAnswer("getUser") // { id: 42, email: null }
 * ```
 */
export function malformedAnswer(method: string): unknown {
  switch (method) {
    case "createUser":
    case "getUser":
    case "getUserByEmail":
    case "getUserByAccount":
    case "updateUser":
      return { id: 42, email: null }
    case "createSession":
    case "updateSession":
      return { sessionToken: 7, expires: "never" }
    case "getSessionAndUser":
      return { session: { sessionToken: "x", userId: "u", expires: "not a date" }, user: null }
    case "useVerificationToken":
      return { identifier: 7, expires: "never" }
    case "getAccount":
      return { provider: 1 }
    case "getAuthenticator":
      return { credentialID: "", counter: -1 }
    case "listAuthenticatorsByUserId":
      return { length: 1 }
    default:
      return "malformed"
  }
}

/**
 * Wraps `adapter` so its methods can be made to fail on demand. Every method the adapter has (own
 * or inherited) is wrapped; calls pass through until {@link FaultyAdapter.arm} names one. A hanging
 * call stays pending until {@link FaultyAdapter.release}: set `adapterTimeout` to see what the
 * request does meanwhile.
 *
 * @example
 * ```ts
 * import { faultyAdapter } from "authflow/testing"
 * import { MemoryAdapter } from "authflow/adapters/memory"
 *
 * const faulty = faultyAdapter(MemoryAdapter())
 * const config = { adapter: faulty.adapter, adapterTimeout: 200, providers }
 * faulty.arm({ method: "linkAccount", mode: "throw" })
 * // … an OAuth sign-in: the user lands on the error page, and no user is left without its account
 * faulty.arm({ method: "getSessionAndUser", call: 2, mode: "hang" })
 * ```
 */
export function faultyAdapter(adapter: Adapter): FaultyAdapter {
  let plans: FaultPlan[] = []
  let counts: Record<string, number> = {}
  let fired: FaultPlan[] = []
  let calls: AdapterCall[] = []
  const hanging = new Set<(error: Error) => void>()
  const wrapped: Record<string, (...args: unknown[]) => Promise<unknown>> = {}

  const names = new Set<string>()
  for (let layer: object | null = adapter; layer && layer !== Object.prototype; layer = Object.getPrototypeOf(layer)) {
    for (const name of Object.getOwnPropertyNames(layer)) {
      if (name !== "constructor" && typeof (adapter as Record<string, unknown>)[name] === "function") names.add(name)
    }
  }
  for (const name of names) {
    const method = (adapter as Record<string, (...args: unknown[]) => unknown>)[name]!
    wrapped[name] = async (...args) => {
      const nth = (counts[name] = (counts[name] ?? 0) + 1)
      const plan = plans.find((p) => p.method === name && (p.call ?? 1) === nth)
      calls.push({ method: name, args, nth, ...(plan && { fault: plan.mode }) })
      if (!plan) return method.apply(adapter, args)
      fired.push(plan)
      switch (plan.mode) {
        case "throw":
          throw plan.error ?? new Error(`injected fault: ${name} call ${nth} throws`)
        case "hang":
          return new Promise((_, reject) => {
            const settle = (error: Error) => {
              hanging.delete(settle)
              reject(error)
            }
            hanging.add(settle)
          })
        case "malformed":
          // The call is made (a write lands), and its answer is replaced: a driver or schema mismatch.
          await method.apply(adapter, args)
          return "answer" in plan ? plan.answer : malformedAnswer(name)
      }
    }
  }

  return {
    adapter: wrapped as Adapter,
    arm(next) {
      plans = Array.isArray(next) ? [...(next as FaultPlan[])] : [next as FaultPlan]
      counts = {}
      fired = []
    },
    disarm() {
      plans = []
    },
    get calls() {
      return calls
    },
    get fired() {
      return fired
    },
    callCounts: () => ({ ...counts }),
    reset() {
      calls = []
    },
    release() {
      for (const settle of [...hanging]) settle(new Error("released: the hanging adapter call was abandoned"))
    },
  }
}
