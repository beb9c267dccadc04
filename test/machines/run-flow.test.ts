import { assign, createActor, setup, type InspectionEvent } from "xstate"
import { describe, expect, it } from "vitest"
import { assigned, effectOf, effectsReading, runFlow, runFlowWithCookies, type FlowMeta } from "../../src/machines/run-flow.js"
import type { Cookie } from "../../src/types.js"

type Event = { type: "checked"; ok: boolean } | { type: "resumed" } | { type: "stored" } | { type: "other" } | { type: "broken" }

/** Checks, then waits for another request (`resumed`), then stores: two effects around a waiting state. */
const flow = setup({
  types: { context: {} as { ok?: boolean; input?: unknown }, events: {} as Event, input: {} as unknown, meta: {} as FlowMeta<"check" | "store"> },
  guards: {
    ok: ({ event }) => event.type === "checked" && event.ok,
    explodes: ({ event }) => {
      if (event.type === "other") throw new Error("the guard threw")
      return false
    },
  },
}).createMachine({
  id: "flow",
  context: ({ input }) => ({ input }),
  initial: "checking",
  states: {
    checking: {
      meta: { effect: "check" },
      on: {
        checked: [{ guard: "ok", target: "waiting", actions: assign({ ok: true }) }, { target: "refused" }],
        other: { guard: "explodes", target: "refused" },
        broken: {
          target: "refused",
          actions: () => {
            throw new Error("the action threw")
          },
        },
      },
    },
    waiting: { on: { resumed: "storing" } },
    storing: { meta: { effect: "store" }, on: { stored: "done" } },
    done: { type: "final" },
    refused: { type: "final" },
  },
})

const effects = { check: () => ({ type: "checked" as const, ok: true }), store: async () => ({ type: "stored" as const }) }

describe("runFlow", () => {
  it("performs each state's effect until the flow waits, then from a restored snapshot until it ends", async () => {
    const performed: string[] = []
    const recording = {
      check: () => (performed.push("check"), effects.check()),
      store: () => (performed.push("store"), effects.store()),
    }
    const waiting = await runFlow(flow, recording, { input: { user: "ada" } })
    expect([waiting.status, waiting.value, waiting.context, performed]).toEqual(["active", "waiting", { input: { user: "ada" }, ok: true }, ["check"]])

    const persisted = JSON.parse(JSON.stringify(flow.getPersistedSnapshot(waiting)))
    const done = await runFlow(flow, recording, { snapshot: persisted, resume: { type: "resumed" } })
    expect([done.status, done.value, done.context.ok, performed]).toEqual(["done", "done", true, ["check", "store"]])
  })

  it("ends at a final state reached by an effect's outcome, without waiting", async () => {
    const refused = await runFlow(flow, { ...effects, check: () => ({ type: "checked" as const, ok: false }) })
    expect([refused.status, refused.value]).toEqual(["done", "refused"])
  })

  it("refuses to resume a snapshot with an event its state does not wait for", async () => {
    const waiting = await runFlow(flow, effects)
    const persisted = JSON.parse(JSON.stringify(flow.getPersistedSnapshot(waiting)))
    await expect(runFlow(flow, effects, { snapshot: persisted, resume: { type: "stored" } })).rejects.toThrow('flow: state "waiting" does not wait for "stored"')
  })

  it("names a missing effect, and an effect whose answer the state does not accept", async () => {
    await expect(runFlow(flow, { store: effects.store } as never)).rejects.toThrow('flow: no implementation for effect "check"')
    await expect(runFlow(flow, { ...effects, check: () => ({ type: "stored" as const }) })).rejects.toThrow(
      'flow: effect "check" answered "stored", which state "checking" does not accept',
    )
  })

  it("rethrows what failed inside the machine (a guard or an action that threw) instead of returning a stopped snapshot", async () => {
    await expect(runFlow(flow, { ...effects, check: () => ({ type: "other" as const }) })).rejects.toThrow("the guard threw")
    await expect(runFlow(flow, { ...effects, check: () => ({ type: "broken" as const }) })).rejects.toThrow("the action threw")
  })

  it("lets an observer see the flow under the given actor id, and stops the actor once it returns", async () => {
    const seen: InspectionEvent[] = []
    const waiting = await runFlow(flow, effects, { id: "flow-1", inspect: (event) => void seen.push(event) })
    const snapshots = seen.flatMap((event) => (event.type === "@xstate.snapshot" ? [event.snapshot as { value?: unknown; status?: string }] : []))
    // The last snapshot is the actor stopping as runFlow returns: nothing is left running.
    expect(snapshots.map(({ value, status }) => `${String(value)} ${status}`)).toEqual(["checking active", "waiting active", "waiting stopped"])
    expect(new Set(seen.map((event) => (event.actorRef as { id?: string }).id))).toEqual(new Set(["flow-1"]))
    expect(waiting.value).toBe("waiting")
  })
})

describe("effectOf", () => {
  it("is the effect the active state names, or undefined while the flow waits or once it ended", () => {
    const actor = createActor(flow).start()
    expect(effectOf(actor.getSnapshot())).toBe("check")
    actor.send({ type: "checked", ok: true })
    expect(effectOf(actor.getSnapshot())).toBeUndefined()
    actor.send({ type: "resumed" })
    expect(effectOf(actor.getSnapshot())).toBe("store")
    actor.send({ type: "stored" })
    expect(effectOf(actor.getSnapshot())).toBeUndefined()
  })

  it("skips meta without a string effect", () => {
    expect(effectOf({ getMeta: () => ({ "a.b": undefined, "a.c": { effect: 3 }, "a.d": { effect: "named" } }) })).toBe("named")
    expect(effectOf({ getMeta: () => ({ a: {} }) })).toBeUndefined()
  })
})

describe("assigned and effectsReading", () => {
  type Context = { verifier?: string; attempts?: number | null; url?: string }

  it("hand an effect the context with the keys its state needs, empty strings and zeros included", () => {
    const context: Context = { verifier: "", attempts: 0 }
    expect(assigned(context, ["verifier", "attempts"])).toBe(context)
    const needs = effectsReading<Context>()
    const effect = needs(["verifier"], ({ verifier }) => `verifier ${JSON.stringify(verifier)}`)
    expect(effect(context)).toBe('verifier ""')
  })

  it("name the key no transition into the state assigned, undefined or null, instead of running on without it", () => {
    expect(() => assigned<Context, "verifier" | "url">({ verifier: "v" }, ["verifier", "url"])).toThrow("The flow needs context.url here, which no transition into this state assigned")
    expect(() => assigned<Context, "attempts">({ attempts: null }, ["attempts"])).toThrow("The flow needs context.attempts here")
    let ran = false
    const effect = effectsReading<Context>()(["url"], () => (ran = true))
    expect(() => effect({})).toThrow("context.url")
    expect(ran).toBe(false)
  })
})

describe("runFlowWithCookies", () => {
  const cookie = (name: string, value: string): Cookie => ({ name, value, options: { path: "/", httpOnly: true } })
  const checkAndStore = {
    check: () => ({ type: "checked" as const, ok: true, cookies: [cookie("minted-a", "secret-session-token-a"), cookie("minted-b", "secret-b")] }),
    store: async () => ({ type: "stored" as const, cookies: [cookie("minted-c", "secret-c")] }),
  }

  it("returns the cookies the effects reported, in order, beside the snapshot; the machine never receives them", async () => {
    const seen: InspectionEvent[] = []
    const waiting = await runFlowWithCookies(flow, checkAndStore, { inspect: (event) => void seen.push(event) })
    expect(waiting.snapshot.value).toBe("waiting")
    expect(waiting.cookies.map(({ name }) => name)).toEqual(["minted-a", "minted-b"])
    const received = seen.flatMap((event) => (event.type === "@xstate.event" ? [event.event] : []))
    expect(received.find((event) => event.type === "checked")).toEqual({ type: "checked", ok: true })
    expect(JSON.stringify(received)).not.toContain("secret")

    // A flow that waits is persisted (sealed into its cookie) without them: they were never in its context.
    const persisted = JSON.parse(JSON.stringify(flow.getPersistedSnapshot(waiting.snapshot)))
    expect(JSON.stringify(persisted)).not.toContain("secret")
    expect(JSON.stringify(persisted)).not.toContain("minted")

    // The request that resumes it answers only the cookies its own run minted.
    const done = await runFlowWithCookies(flow, checkAndStore, { snapshot: persisted, resume: { type: "resumed" } })
    expect([done.snapshot.value, done.cookies.map(({ name }) => name)]).toEqual(["done", ["minted-c"]])
  })

  it("returns no cookies for a run whose effects minted none", async () => {
    expect((await runFlowWithCookies(flow, effects)).cookies).toEqual([])
  })

  it("is the only run that takes them: runFlow refuses an effect that reports cookies, which it would drop", async () => {
    await expect(runFlow(flow, checkAndStore)).rejects.toThrow('flow: effect "check" reported cookies, which runFlow drops: run the flow with runFlowWithCookies')
    // An empty report is no cookie.
    expect((await runFlow(flow, { ...effects, check: () => ({ type: "checked" as const, ok: true, cookies: [] }) })).value).toBe("waiting")
  })
})
