/**
 * A machine's first decision without an actor: for a hot path where nobody inspects and the
 * machine usually decides at its start, before any effect (a session read whose provider tokens
 * are fresh), so it does not pay for creating and starting an actor (tens of microseconds) on every
 * request. The machine still decides: its own eventless transitions, in its own order, with its
 * own guards.
 *
 * @module
 */
import type { AnyStateMachine, ContextFrom } from "xstate"

type StateNode = AnyStateMachine["root"]
type GuardImplementation = (args: { context: unknown; event: { type: string } }, params: undefined) => boolean

/** How many eventless transitions in a row are followed before giving up (a machine that loops is run as an actor). */
const maxHops = 8

/**
 * The top-level final state a machine reaches at its start through eventless (`always`)
 * transitions alone, given its initial context, or `undefined` when it does not end there: it
 * reaches a state that names an effect or waits, or a transition this evaluator leaves to the
 * actor (one with actions, a guard that is not a named guard without parameters, an entry
 * action). Run the flow then; the answer is then the same as the actor's, which starts from the
 * same state and evaluates the same guards.
 *
 * @param context - The machine's initial context, as its `context` factory makes it from the input.
 * @example
 * ```ts
 * const context = tokenRefreshContext({ skew: 60, tokens, at: Date.now() })
 * finalAtStart(tokenRefreshMachine, context) // "fresh" when the tokens are; undefined when the flow must run
 * ```
 */
export function finalAtStart<TMachine extends AnyStateMachine>(machine: TMachine, context: ContextFrom<TMachine>): string | undefined {
  const guards = (machine.implementations.guards ?? {}) as Record<string, GuardImplementation | undefined>
  const event = { type: "xstate.init" }
  let node: StateNode | undefined = machine.root.initial?.target?.[0]
  for (let hop = 0; node && hop <= maxHops; hop++) {
    if (node.entry.length > 0) return undefined
    if (node.type === "final") return node.parent === machine.root ? node.key : undefined
    if (node.type !== "atomic" || !node.always) return undefined
    let next: StateNode | undefined
    for (const transition of node.always) {
      const guard = transition.guard
      if (guard !== undefined && typeof guard !== "string") return undefined
      const implementation = guard === undefined ? undefined : guards[guard]
      if (guard !== undefined && !implementation) return undefined
      if (implementation && !implementation({ context, event }, undefined)) continue
      if (transition.actions.length > 0 || transition.target?.length !== 1) return undefined
      next = transition.target[0]
      break
    }
    node = next
  }
  return undefined
}
