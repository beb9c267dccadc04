import { describe, expect, expectTypeOf, it } from "vitest"
import { assign, setup } from "xstate"
import { outcomeOf, type FlowOutcomes } from "../../src/actions/flow-outcomes.js"
import { flowMachine, type StopStateOf } from "../../src/machines/flow-machine.js"
import { runFlow, type FlowEffects, type FlowMeta } from "../../src/machines/run-flow.js"

type Event = { type: "started"; ok: boolean } | { type: "callback" } | { type: "checked" } | { type: "resumed" }

/**
 * Every kind of state node: effect states, an eventless choice, a waiting state, a compound state
 * holding a waiting state, final states.
 */
const machine = flowMachine(
  setup({
    types: { context: {} as { ok?: boolean }, events: {} as Event, meta: {} as FlowMeta<"start" | "check"> },
    guards: { ok: ({ context }) => context.ok === true },
  }).createMachine,
)({
  id: "outcomes-probe",
  context: {},
  initial: "starting",
  states: {
    starting: { meta: { effect: "start" }, on: { started: { target: "deciding", actions: assign({ ok: ({ event }) => event.ok }) } } },
    deciding: { always: [{ guard: "ok", target: "waiting" }, { target: "refused" }] },
    waiting: { on: { callback: "finishing" } },
    finishing: {
      initial: "checking",
      states: {
        checking: { meta: { effect: "check" }, on: { checked: "held" } },
        held: { on: { resumed: "#outcomes-probe.done" } },
      },
    },
    done: { type: "final" },
    refused: { type: "final" },
  },
})

describe("outcome tables", () => {
  it("are keyed by the states a flow stops in: final states and waiting states, not effect states or eventless choices", () => {
    expectTypeOf<StopStateOf<typeof machine>>().toEqualTypeOf<"waiting" | "finishing" | "done" | "refused">()
  })

  it("do not compile without an outcome for a final state, nor with one for a state that names an effect", () => {
    // @ts-expect-error `refused` has no outcome
    const missing: FlowOutcomes<typeof machine, string> = { waiting: () => "w", finishing: () => "f", done: () => "d" }
    const extra: FlowOutcomes<typeof machine, string> = {
      waiting: () => "w",
      finishing: () => "f",
      done: () => "d",
      refused: () => "r",
      // @ts-expect-error `starting` names an effect: the flow never stops there
      starting: () => "s",
    }
    expect(Object.keys(missing)).toHaveLength(3)
    expect(Object.keys(extra)).toHaveLength(5)
  })

  const outcomes: FlowOutcomes<typeof machine, string> = {
    waiting: ({ ok }) => `waiting (ok: ${ok})`,
    finishing: () => "finishing",
    done: () => "done",
    refused: ({ ok }) => `refused (ok: ${ok})`,
  }

  const effects = (ok: boolean): FlowEffects<typeof machine> => ({ start: () => ({ type: "started", ok }), check: () => ({ type: "checked" }) })

  it("answer a waiting state and a final state with the context the flow stopped with", async () => {
    expect(outcomeOf(await runFlow(machine, effects(true)), outcomes)).toBe("waiting (ok: true)")
    expect(outcomeOf(await runFlow(machine, effects(false)), outcomes)).toBe("refused (ok: false)")
  })

  it("answer a flow waiting inside a compound state by the compound state's outcome", async () => {
    const waiting = await runFlow(machine, effects(true))
    const held = await runFlow(machine, effects(true), { snapshot: waiting, resume: { type: "callback" } })
    expect(held.value).toEqual({ finishing: "held" })
    expect(outcomeOf(held, outcomes)).toBe("finishing")
  })

  it("treat a flow stopped where it has no outcome as a bug in the engine", () => {
    const stopped = machine.resolveState({ value: "starting", context: {} })
    expect(() => outcomeOf(stopped, outcomes)).toThrow('The flow stopped in state "starting", which has no outcome')
  })
})
