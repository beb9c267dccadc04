/**
 * How an action turns the state a flow stopped in into its response: one entry per top-level
 * state of the machine, so a state added to a machine without an outcome is a compile error.
 *
 * @module
 */
import type { AnyStateMachine, ContextFrom, SnapshotFrom } from "xstate"

/**
 * The names of a machine's top-level states, as its definition declares them.
 *
 * @example
 * ```ts
 * type SignOutState = TopStateOf<typeof signOutMachine> // "validatingInput" | "findingSession" | … | "signedOut"
 * ```
 */
export type TopStateOf<TMachine extends AnyStateMachine> = Extract<SnapshotFrom<TMachine>["value"], string>

/**
 * What an action answers for every top-level state of a machine, given the flow's final context.
 * A state the flow runner never stops in (it names an effect) maps to {@link notAnOutcome}.
 *
 * @example
 * ```ts
 * const outcomes: FlowOutcomes<typeof signOutMachine, ResponseInternal> = {
 *   validatingInput: notAnOutcome,
 *   signedOut: () => ({ redirect: options.callbackUrl }),
 *   // …every other state: leaving one out does not compile
 * }
 * ```
 */
export type FlowOutcomes<TMachine extends AnyStateMachine, TResult> = Record<TopStateOf<TMachine>, (context: ContextFrom<TMachine>) => TResult>

/**
 * The outcome of a flow that stopped: the entry of `outcomes` for its state, called with its
 * context.
 *
 * @example
 * ```ts
 * return outcomeOf(await runFlow(signOutMachine, effects), outcomes)
 * ```
 */
export function outcomeOf<TMachine extends AnyStateMachine, TResult>(flow: SnapshotFrom<TMachine>, outcomes: FlowOutcomes<TMachine, TResult>): TResult {
  const { value, context } = flow as { value: unknown; context: ContextFrom<TMachine> }
  return outcomes[value as TopStateOf<TMachine>](context)
}

/**
 * The outcome of a state that names an effect: the flow runner never stops there, so reaching it
 * is a bug in the engine.
 *
 * @example
 * ```ts
 * const outcomes: FlowOutcomes<typeof signOutMachine, ResponseInternal> = { findingSession: notAnOutcome, … }
 * ```
 */
export function notAnOutcome(): never {
  throw new Error("The flow stopped in a state that names an effect")
}

/**
 * The states of the shared sign-in tail that name an effect (the flow runner never stops there),
 * for the machines that write a user: spread into their outcomes.
 *
 * @example
 * ```ts
 * const outcomes: FlowOutcomes<typeof oauthMachine, ResponseInternal> = { ...signInTailInFlight, signedIn: … }
 * ```
 */
export const signInTailInFlight = {
  checkingSignIn: notAnOutcome,
  resolvingRedirect: notAnOutcome,
  persistingUser: notAnOutcome,
  issuingSession: notAnOutcome,
  creatingSession: notAnOutcome,
  encodingToken: notAnOutcome,
  renewingStoredTokens: notAnOutcome,
} as const
