/**
 * How an action turns the state a flow stopped in into its answer: one entry per state the flow
 * can stop in (each final state and each waiting state, {@link StopStateOf}), so a state added to a
 * machine without an outcome is a compile error, and a state that names an effect needs none.
 *
 * @module
 */
import type { AnyStateMachine, ContextFrom, SnapshotFrom } from "xstate"
import type { StopStateOf } from "../machines/flow-machine.js"
import type { FlowRun } from "../machines/run-flow.js"
import type { Cookie } from "../types.js"

/**
 * What an action answers for every state a flow machine can stop in, given the flow's context
 * there and the cookies its effects minted on the way (a run of `runFlowWithCookies`; none
 * for a bare snapshot). The one typing of every outcome table: an action builds its table for the
 * request it answers, so each entry sees the request's options and cookies.
 *
 * @example
 * ```ts
 * const outcomes: FlowOutcomes<typeof signOutMachine, Answer> = {
 *   signedOut: () => ({ redirect: options.callbackUrl, cookies }),
 *   csrfRejected: () => errorAnswer(new MissingCSRF("CSRF token was missing during an action signout")),
 *   // …every other final state: leaving one out does not compile
 * }
 * ```
 */
export type FlowOutcomes<TMachine extends AnyStateMachine, TAnswer> = { readonly [TState in StopStateOf<TMachine>]: (context: ContextFrom<TMachine>, minted: readonly Cookie[]) => TAnswer }

/**
 * The answer of a flow that stopped: the entry of `outcomes` for the state it stopped in (its
 * top-level state), called with its context and the cookies the run minted (none for a snapshot).
 *
 * @example
 * ```ts
 * return outcomeOf(await runFlow(signOutMachine, effects), outcomes)
 * return outcomeOf(await runFlowWithCookies(credentialsSignInMachine, effects), { signedIn: (_, minted) => ({ redirect, cookies: [...cookies, ...minted] }), … })
 * ```
 */
export function outcomeOf<TMachine extends AnyStateMachine, TAnswer>(flow: SnapshotFrom<TMachine> | FlowRun<TMachine>, outcomes: FlowOutcomes<TMachine, TAnswer>): TAnswer {
  const { snapshot, cookies: minted } = isRun(flow) ? flow : { snapshot: flow, cookies: [] }
  const { value, context } = snapshot as { value: string | Record<string, unknown>; context: ContextFrom<TMachine> }
  const state = typeof value === "string" ? value : Object.keys(value)[0]!
  const outcome = Object.hasOwn(outcomes, state) ? (outcomes as Record<string, (context: ContextFrom<TMachine>, minted: readonly Cookie[]) => TAnswer>)[state] : undefined
  // runFlow stops only where a flow waits or ends: anywhere else is a bug in the engine.
  if (!outcome) throw new Error(`The flow stopped in state ${JSON.stringify(value)}, which has no outcome`)
  return outcome(context, minted)
}

// A machine snapshot has no `snapshot` of its own: only a run does.
function isRun<TMachine extends AnyStateMachine>(flow: SnapshotFrom<TMachine> | FlowRun<TMachine>): flow is FlowRun<TMachine> {
  return "snapshot" in flow && "cookies" in flow
}
