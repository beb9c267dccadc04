/**
 * Claiming a sealed flow, defined once: the state a flow resumed from its cookie goes through
 * before anything else (its effect, `claimFlow`, marks the flow used in the replay store and
 * reports what it found), and the `flowReplayed` final state a copy of the cookie sent again ends
 * in, here or on another instance sharing the store. Every machine that waits in a sealed cookie
 * and is claimed when it resumes (OAuth, the second factor, the factor enrolment, the emailed-code
 * flows) spreads these in, so the inspector and the model tests see the same rule everywhere: a
 * flow is used once.
 *
 * @module
 */

/** What the `claimFlow` effect reports: the flow used for the first time, used before, or the replay store failing. */
export type FlowClaimEvent = { type: "flow.fresh" } | { type: "flow.replayed" } | { type: "flow.claimFailed"; error: unknown }

/** The effect a claiming state names. */
export type ClaimFlowEffect = "claimFlow"

/**
 * A state that claims the resumed flow (`claimFlow`): the first claim goes on to `next`, a replay
 * ends in `flowReplayed`, a store that failed takes `failed` (a target, a transition, or guarded
 * transitions, where the machine tells failures apart). Spread {@link flowReplayedState} into the
 * machine as well.
 *
 * @param next - The state a first claim goes to.
 * @param failed - Where a failing replay store goes (the machine records its error there).
 * @example
 * ```ts
 * createMachine({ states: { awaitingCode: { on: { "code.submitted": "claimingFlow" } }, claimingFlow: claimingFlowState("validatingInput", { target: "verifyFailed", actions: "recordError" }), ...flowReplayedState, … } })
 * ```
 */
export function claimingFlowState<const TNext extends string, const TFailed>(next: TNext, failed: TFailed) {
  return {
    meta: { effect: "claimFlow" },
    on: {
      "flow.fresh": next,
      "flow.replayed": "flowReplayed",
      "flow.claimFailed": failed,
    },
  } as const
}

/** The final state of a flow whose cookie was resumed before: the claim found it used. */
export const flowReplayedState = { flowReplayed: { type: "final" } } as const
