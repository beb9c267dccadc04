/**
 * The effect each state of a machine names (`meta.effect`), by state path (`parent.child` for a
 * nested state); states that name none are left out. A machine's tests compare it with the effects
 * they expect, so a state that loses or changes its effect fails without running a flow.
 *
 * @example
 * ```ts
 * expect(effectsByState(signOutMachine)).toEqual({ validatingInput: "checkCsrf", … })
 * ```
 */
import type { AnyStateMachine } from "xstate"

type StateNode = AnyStateMachine["root"]

export function effectsByState(machine: AnyStateMachine): Record<string, string> {
  const effects: Record<string, string> = {}
  const visit = (node: StateNode, prefix: string) => {
    for (const [name, child] of Object.entries(node.states)) {
      const effect = (child.meta as { effect?: string } | undefined)?.effect
      if (effect !== undefined) effects[prefix + name] = effect
      visit(child, `${prefix}${name}.`)
    }
  }
  visit(machine.root, "")
  return effects
}

/**
 * The names of a machine's top-level final states, sorted: where its flows end. A machine's tests
 * compare them with the outcomes they expect, so a final state that stops being final fails.
 *
 * @example
 * ```ts
 * expect(finalStates(signOutMachine)).toEqual(["csrfRejected", "signedOut", …])
 * ```
 */
export function finalStates(machine: AnyStateMachine): string[] {
  return Object.entries(machine.root.states)
    .filter(([, node]) => node.type === "final")
    .map(([name]) => name)
    .sort()
}
