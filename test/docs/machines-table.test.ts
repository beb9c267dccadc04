/**
 * The machines table of docs/concepts/machines.md gives each machine's states, transitions and
 * guarded transitions, and their sum: read from the definitions as the inspector reads them
 * (`describeMachine`, nested states included), so a machine that changes shape changes the page.
 */
import { readFileSync } from "node:fs"
import type { AnyStateMachine } from "xstate"
import { describe, expect, it } from "vitest"
import { allStates, describeMachine } from "../../src/inspect/describe.js"
import * as machines from "../../src/machines/index.js"

const page = readFileSync(new URL("../../docs/concepts/machines.md", import.meta.url), "utf8")

/** States, transitions and guarded transitions of `machine`, as the table counts them. */
function countsOf(machine: AnyStateMachine): [number, number, number] {
  const states = allStates(describeMachine(machine))
  const transitions = states.flatMap((state) => state.transitions)
  return [states.length, transitions.length, transitions.filter((transition) => transition.guard !== undefined).length]
}

describe("docs/concepts/machines.md", () => {
  const defined = Object.entries(machines).filter((entry): entry is [string, AnyStateMachine] => entry[0].endsWith("Machine"))
  const rows = new Map([...page.matchAll(/^\| `(\w+Machine)` \| (\d+) \| (\d+) \| (\d+) \|/gm)].map(([, name, ...counts]) => [name!, counts.map(Number)]))

  it("has a row for every machine authflow/machines exports, and no other", () => {
    expect([...rows.keys()].sort()).toEqual(defined.map(([name]) => name).sort())
  })

  it("gives each machine's states, transitions and guarded transitions as its definition has them", () => {
    for (const [name, machine] of defined) expect(rows.get(name), name).toEqual(countsOf(machine))
  })

  it("sums them in the sentence above the table", () => {
    const [transitions, guarded] = defined.reduce(([all, withGuard], [, machine]) => [all + countsOf(machine)[1], withGuard + countsOf(machine)[2]], [0, 0])
    expect(page).toContain(`Together the ${defined.length} machines have ${transitions} transitions, ${guarded} of them guarded`)
  })
})
