/**
 * The inspector shows a flow that ended in one of `successStates` as succeeded, any other final
 * state as ended. Every machine it lists must have a way to succeed, or the inspector shows each of
 * its runs as a failure.
 */
import { describe, expect, it } from "vitest"
import type { AnyStateMachine } from "xstate"
import { authflowMachines, successStates } from "../../src/inspect/machines.js"

function finalStatesOf(machine: AnyStateMachine): string[] {
  const finals: string[] = []
  const walk = (node: { type: string; key: string; states?: Record<string, unknown> }) => {
    if (node.type === "final") finals.push(node.key)
    for (const child of Object.values(node.states ?? {})) walk(child as typeof node)
  }
  walk(machine.root as never)
  return finals
}

describe("the inspector's success states", () => {
  it("every machine the inspector lists has at least one final state it shows as succeeded", () => {
    const withoutSuccess = authflowMachines.filter((machine) => !finalStatesOf(machine).some((state) => successStates.has(state))).map((machine) => machine.id)
    expect(withoutSuccess).toEqual([])
  })

  it("names no success state that no machine has", () => {
    const finals = new Set(authflowMachines.flatMap(finalStatesOf))
    expect([...successStates].filter((state) => !finals.has(state))).toEqual([])
  })
})
