import { afterEach, describe, expect, it, vi } from "vitest"
import { assign, createActor, setup } from "xstate"
import { FlowCookieRefused, sealFlow, unsealFlow, type FlowBinding } from "../../src/core/flow-cookie.js"
import { defaultCookies } from "../../src/core/cookies/defaults.js"
import { encode } from "../../src/jwt.js"
import { runFlow } from "../../src/machines/run-flow.js"
import { InvalidCheck } from "../../src/errors.js"

/** A flow that waits for a second request, the shape OAuth sign-in has. */
const waitingMachine = setup({
  types: {
    context: {} as { verifier?: string; code?: string },
    events: {} as { type: "started"; verifier: string } | { type: "callback"; code: string } | { type: "finished" },
  },
}).createMachine({
  id: "waiting-flow",
  context: {},
  initial: "starting",
  states: {
    starting: { meta: { effect: "begin" }, on: { started: { target: "waitingForCallback", actions: assign({ verifier: ({ event }) => event.verifier }) } } },
    waitingForCallback: { on: { callback: { target: "finishing", actions: assign({ code: ({ event }) => event.code }) } } },
    finishing: { meta: { effect: "finish" }, on: { finished: "done" } },
    done: { type: "final" },
  },
})

const cookie = defaultCookies(true).flow
const secret = "flow-secret"
const binding: FlowBinding = { machine: waitingMachine, version: 1, providerId: "oidc", issuer: "https://issuer.test" }

async function startedFlow() {
  const begin = vi.fn(() => ({ type: "started" as const, verifier: "v".repeat(43) }))
  const snapshot = await runFlow(waitingMachine, { begin, finish: () => ({ type: "finished" as const }) })
  return { snapshot, begin }
}

async function refusal(promise: Promise<unknown>): Promise<FlowCookieRefused> {
  const error = await promise.then(() => undefined, (e: unknown) => e)
  expect(error).toBeInstanceOf(FlowCookieRefused)
  expect(error).toBeInstanceOf(InvalidCheck)
  return error as FlowCookieRefused
}

afterEach(() => void vi.useRealTimers())

describe("flow cookie", () => {
  it("seals a waiting flow and resumes it without repeating its first effect", async () => {
    const { snapshot, begin } = await startedFlow()
    expect(snapshot.value).toBe("waitingForCallback")
    const sealed = await sealFlow(snapshot, binding, secret, cookie)
    expect(sealed.name).toBe("__Secure-authflow.flow")
    expect(sealed.options).toMatchObject({ maxAge: 900, httpOnly: true, secure: true, sameSite: "lax", path: "/" })
    expect(sealed.value.length).toBeLessThan(1200)

    const restored = await unsealFlow(sealed.value, binding, secret, cookie.name)
    const actor = createActor(waitingMachine, { snapshot: restored }).start()
    expect(actor.getSnapshot().context.verifier).toBe("v".repeat(43))
    actor.send({ type: "callback", code: "abc" })
    const finish = vi.fn(() => ({ type: "finished" as const }))
    const done = await runFlow(waitingMachine, { begin, finish }, { snapshot: actor.getPersistedSnapshot() as never })
    expect(done.value).toBe("done")
    expect(begin).toHaveBeenCalledTimes(1)
    expect(finish).toHaveBeenCalledTimes(1)
  })

  it("survives a JSON round trip of the persisted snapshot", async () => {
    const { snapshot } = await startedFlow()
    const persisted = JSON.parse(JSON.stringify(waitingMachine.getPersistedSnapshot(snapshot)))
    expect(persisted.value).toBe("waitingForCallback")
  })

  it("refuses to seal a flow that is not waiting", async () => {
    const actor = createActor(waitingMachine).start()
    await expect(sealFlow(actor.getSnapshot(), binding, secret, cookie)).rejects.toThrow(/waiting/)
  })

  it("refuses a missing cookie", async () => {
    expect((await refusal(unsealFlow(undefined, binding, secret, cookie.name))).reason).toBe("missing")
    expect((await refusal(unsealFlow("", binding, secret, cookie.name))).reason).toBe("missing")
  })

  it("refuses a tampered cookie, another secret, or another cookie name", async () => {
    const { snapshot } = await startedFlow()
    const { value } = await sealFlow(snapshot, binding, secret, cookie)
    const index = value.length - 60
    const tampered = value.slice(0, index) + (value[index] === "A" ? "B" : "A") + value.slice(index + 1)
    expect((await refusal(unsealFlow(tampered, binding, secret, cookie.name))).reason).toBe("undecodable")
    expect((await refusal(unsealFlow(value, binding, "another-secret", cookie.name))).reason).toBe("undecodable")
    expect((await refusal(unsealFlow(value, binding, secret, "authjs.session-token"))).reason).toBe("undecodable")
  })

  it("opens with a rotated secret list", async () => {
    const { snapshot } = await startedFlow()
    const { value } = await sealFlow(snapshot, binding, secret, cookie)
    const restored = await unsealFlow(value, binding, ["newer-secret", secret], cookie.name)
    expect(restored.value).toBe("waitingForCallback")
  })

  it("refuses an expired flow", async () => {
    const { snapshot } = await startedFlow()
    const { value } = await sealFlow(snapshot, binding, secret, cookie)
    vi.useFakeTimers({ now: Date.now() + 16 * 60 * 1000 })
    expect((await refusal(unsealFlow(value, binding, secret, cookie.name))).reason).toBe("expired")
  })

  it("refuses a flow bound to another provider, issuer, version or machine", async () => {
    const { snapshot } = await startedFlow()
    const { value } = await sealFlow(snapshot, binding, secret, cookie)
    expect((await refusal(unsealFlow(value, { ...binding, providerId: "github" }, secret, cookie.name))).reason).toBe("foreign-provider")
    expect((await refusal(unsealFlow(value, { ...binding, issuer: "https://evil.test" }, secret, cookie.name))).reason).toBe("foreign-issuer")
    expect((await refusal(unsealFlow(value, { ...binding, version: 2 }, secret, cookie.name))).reason).toBe("old-version")
    const other = setup({}).createMachine({ id: "other", initial: "a", states: { a: {} } })
    expect((await refusal(unsealFlow(value, { ...binding, machine: other }, secret, cookie.name))).reason).toBe("foreign-machine")
  })

  it("refuses a validly sealed snapshot whose state does not exist, without any uncaught error", async () => {
    const uncaught = vi.fn()
    process.on("uncaughtException", uncaught)
    try {
      const forged = await encode({
        token: { m: "waiting-flow", v: 1, p: "oidc", i: "https://issuer.test", s: { status: "active", value: "nowhere", context: {}, children: {}, historyValue: {} } } as never,
        secret,
        salt: cookie.name,
        maxAge: 900,
      })
      expect((await refusal(unsealFlow(forged, binding, secret, cookie.name))).reason).toBe("invalid-state")
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(uncaught).not.toHaveBeenCalled()
    } finally {
      process.off("uncaughtException", uncaught)
    }
  })

  it("refuses a snapshot sealed in a state that runs an effect", async () => {
    const forged = await encode({
      token: { m: "waiting-flow", v: 1, p: "oidc", i: "https://issuer.test", s: { status: "active", value: "finishing", context: {}, children: {}, historyValue: {} } } as never,
      secret,
      salt: cookie.name,
      maxAge: 900,
    })
    expect((await refusal(unsealFlow(forged, binding, secret, cookie.name))).reason).toBe("invalid-state")
  })
})
