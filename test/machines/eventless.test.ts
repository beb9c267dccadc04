/**
 * `finalAtStart`, the first decision of a machine without an actor: it follows eventless
 * transitions through named guards to a top-level final state, and leaves to the actor (answers
 * `undefined`) everything it does not evaluate itself. Each answer is checked against the actor's.
 */
import { createActor, createMachine, setup } from "xstate"
import { describe, expect, it } from "vitest"
import { finalAtStart } from "../../src/machines/eventless.js"

type Context = { ready: boolean; fresh: boolean }

const decide = setup({
  types: { context: {} as Context, input: {} as Context | undefined },
  guards: { ready: ({ context }) => context.ready, fresh: ({ context }) => context.fresh, needs: (_, params: { x: number }) => params.x > 0 },
})

const simple = decide.createMachine({
  context: ({ input }) => input as Context,
  initial: "checking",
  states: {
    checking: { always: [{ guard: "ready", target: "weighing" }, { target: "waiting" }] },
    weighing: { always: [{ guard: "fresh", target: "fresh" }, { target: "stale" }] },
    waiting: {},
    fresh: { type: "final" },
    stale: { type: "final" },
  },
})

/** What the actor ends in, started with this context: its top-level final state, or undefined when it does not end. */
function actorFinal(context: Context): string | undefined {
  const actor = createActor(simple, { input: context }).start()
  const snapshot = actor.getSnapshot()
  actor.stop()
  return snapshot.status === "done" ? String(snapshot.value) : undefined
}

describe("finalAtStart", () => {
  it("follows named guards, in order, to a top-level final state, as the actor does", () => {
    for (const context of [{ ready: true, fresh: true }, { ready: true, fresh: false }]) {
      const final = finalAtStart(simple, context)
      expect(final, JSON.stringify(context)).toBe(context.fresh ? "fresh" : "stale")
      expect(actorFinal(context)).toBe(final)
    }
  })

  it("answers nothing for a machine that stops in a state without eventless transitions", () => {
    expect(finalAtStart(simple, { ready: false, fresh: true })).toBeUndefined()
    expect(actorFinal({ ready: false, fresh: true })).toBeUndefined()
  })

  it("answers nothing where every guard refuses", () => {
    const stuck = decide.createMachine({
      context: { ready: false, fresh: false },
      initial: "checking",
      states: { checking: { always: [{ guard: "ready", target: "done" }], on: {} }, done: { type: "final" } },
    })
    expect(finalAtStart(stuck, { ready: false, fresh: false })).toBeUndefined()
    expect(finalAtStart(stuck, { ready: true, fresh: false })).toBe("done")
  })

  it("leaves to the actor a transition with actions, without a target, or with a guard it does not evaluate", () => {
    const withAction = decide.createMachine({ initial: "a", context: { ready: true, fresh: true }, states: { a: { always: { target: "done", actions: () => undefined } }, done: { type: "final" } } })
    expect(finalAtStart(withAction, { ready: true, fresh: true })).toBeUndefined()
    const targetless = decide.createMachine({ initial: "a", context: { ready: true, fresh: true }, states: { a: { always: { guard: "ready", actions: () => undefined } }, done: { type: "final" } } })
    expect(finalAtStart(targetless, { ready: true, fresh: true })).toBeUndefined()
    const bare = decide.createMachine({ initial: "a", context: { ready: true, fresh: true }, states: { a: { always: { guard: "ready" } }, done: { type: "final" } } })
    expect(finalAtStart(bare, { ready: true, fresh: true })).toBeUndefined()
    const inline = decide.createMachine({ initial: "a", context: { ready: true, fresh: true }, states: { a: { always: { guard: ({ context }) => context.ready, target: "done" } }, done: { type: "final" } } })
    expect(finalAtStart(inline, { ready: true, fresh: true })).toBeUndefined()
    const withParams = decide.createMachine({ initial: "a", context: { ready: true, fresh: true }, states: { a: { always: { guard: { type: "needs", params: { x: 1 } }, target: "done" } }, done: { type: "final" } } })
    expect(finalAtStart(withParams, { ready: true, fresh: true })).toBeUndefined()
    // A guard named in the config that the machine does not implement.
    const unimplemented = createMachine({ initial: "a", states: { a: { always: { guard: "missing", target: "done" } }, done: { type: "final" } } })
    expect(finalAtStart(unimplemented, {})).toBeUndefined()
  })

  it("follows an unguarded transition in a machine without guards", () => {
    const plain = createMachine({ initial: "a", states: { a: { always: { target: "b" } }, b: { always: "done" }, done: { type: "final" } } })
    expect(finalAtStart(plain, {})).toBe("done")
  })

  it("leaves to the actor a state with an entry action, a compound state, and a final state that is not top-level", () => {
    const entry = decide.createMachine({ initial: "a", context: { ready: true, fresh: true }, states: { a: { always: "b" }, b: { entry: () => undefined, always: "done" }, done: { type: "final" } } })
    expect(finalAtStart(entry, { ready: true, fresh: true })).toBeUndefined()
    const entryFinal = decide.createMachine({ initial: "a", context: { ready: true, fresh: true }, states: { a: { always: "done" }, done: { type: "final", entry: () => undefined } } })
    expect(finalAtStart(entryFinal, { ready: true, fresh: true })).toBeUndefined()
    const compound = createMachine({ initial: "a", states: { a: { initial: "inner", states: { inner: { type: "final" } }, always: "done" }, done: { type: "final" } } })
    expect(finalAtStart(compound, {})).toBeUndefined()
    const nested = createMachine({ initial: "a", states: { a: { always: "#deep.inner" }, deep: { id: "deep", initial: "inner", states: { inner: { type: "final" } } } } })
    expect(finalAtStart(nested, {})).toBeUndefined()
  })

  it("follows eight eventless transitions, and leaves a longer chain (or a loop) to the actor", () => {
    const chain = (length: number) => {
      const states: Record<string, object> = { done: { type: "final" } }
      for (let i = 0; i < length; i++) states[`s${i}`] = { always: i === length - 1 ? "done" : `s${i + 1}` }
      return createMachine({ initial: "s0", states } as never)
    }
    expect(finalAtStart(chain(8), {})).toBe("done")
    expect(finalAtStart(chain(9), {})).toBeUndefined()
    const loop = createMachine({ initial: "a", states: { a: { always: "b" }, b: { always: "a" } } })
    expect(finalAtStart(loop, {})).toBeUndefined()
  })

  it("evaluates the guards with the event the actor starts with", () => {
    const started = setup({ guards: { atStart: ({ event }) => event.type === "xstate.init" } }).createMachine({
      initial: "a",
      states: { a: { always: [{ guard: "atStart", target: "started" }, { target: "other" }] }, started: { type: "final" }, other: { type: "final" } },
    })
    expect(createActor(started).start().getSnapshot().value).toBe("started")
    expect(finalAtStart(started, {})).toBe("started")
  })

  it("answers at once for a machine that starts in a final state", () => {
    expect(finalAtStart(createMachine({ initial: "done", states: { done: { type: "final" } } }), {})).toBe("done")
  })
})
