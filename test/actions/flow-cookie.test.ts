import { afterEach, describe, expect, it, vi } from "vitest"
import { assign, createActor, setup } from "xstate"
import { FlowCookieRefused, sealedFlow, type FlowSite } from "../../src/actions/flow-cookie.js"
import { defaultCookies } from "../../src/core/cookies/defaults.js"
import { encode } from "../../src/jwt.js"
import { runFlow } from "../../src/machines/run-flow.js"
import { InvalidCheck } from "../../src/errors.js"
import { sha256Hex } from "../../src/core/crypto.js"
import { memoryReplayStore } from "../../src/core/replay-store.js"
import { craftToken, referenceKey } from "../core/jwt/helpers.js"
import { cookieNames } from "../helpers.js"

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

const cookies = { flow: defaultCookies(true).flow, binding: defaultCookies(true).flowBinding }
const cookie = cookies.flow
const secret = "flow-secret"
/** A binding cookie value for forged payloads. */
const browser = "f".repeat(32)
const waitingFlow = sealedFlow({ machine: waitingMachine, version: 1, seals: ["verifier", "code"], cookies: () => cookies })
const site: FlowSite = { providerId: "oidc", issuer: "https://issuer.test", secret, cookies, replayStore: memoryReplayStore() }
/** The flow as another machine, or another version of it, would open it. */
const otherMachine = setup({}).createMachine({ id: "other", initial: "a", states: { a: {} } })
const flowOf = ({ machine, version }: { machine?: typeof otherMachine; version?: number }) =>
  machine ? sealedFlow({ machine, version: 1, seals: [], cookies: () => cookies }) : sealedFlow({ machine: waitingMachine, version: version ?? 1, seals: ["verifier", "code"], cookies: () => cookies })
const sealFlow = (snapshot: Parameters<typeof waitingFlow.seal>[1], on: Partial<FlowSite> = {}, flowId = "flow-id") => waitingFlow.seal({ ...site, ...on }, snapshot, flowId)
/** The flow `open` resolves with, or the refusal it resolves with thrown, for {@link refusal} to read. */
async function asRejection<TFlow>(result: Promise<TFlow | FlowCookieRefused>): Promise<TFlow> {
  const flow = await result
  if (flow instanceof FlowCookieRefused) throw flow
  return flow
}
const openFlow = (jar: Record<string, string>, on: Partial<FlowSite> = {}) => asRejection(waitingFlow.open({ ...site, ...on }, jar))

async function startedFlow() {
  const begin = vi.fn(() => ({ type: "started" as const, verifier: "v".repeat(43) }))
  const snapshot = await runFlow(waitingMachine, { begin, finish: () => ({ type: "finished" as const }) })
  return { snapshot, begin }
}

/** Seals a fresh waiting flow: the flow cookie's value and the browser's binding value. */
async function sealedCookie(): Promise<{ value: string; browser: string }> {
  const { snapshot } = await startedFlow()
  const [flow, bindingCookie] = await sealFlow(snapshot, {}, `flow-${Math.random()}`)
  return { value: flow.value, browser: bindingCookie.value }
}

/** Opens a flow as a request carrying `value` and the binding cookie `browser` would (for another site, machine or version when given). */
function open(
  value: string | undefined,
  browser: string | undefined,
  options: { on?: Partial<FlowSite>; machine?: typeof otherMachine; version?: number; secret?: string | string[]; flowName?: string } = {},
) {
  const jar: Record<string, string> = {}
  const flowName = options.flowName ?? cookie.name
  if (value !== undefined) jar[flowName] = value
  if (browser !== undefined) jar[cookies.binding.name] = browser
  const at: FlowSite = { ...site, ...options.on, secret: options.secret ?? secret, cookies: { flow: { ...cookie, name: flowName }, binding: cookies.binding } }
  return asRejection(flowOf(options).open(at, jar))
}

/** Opens a flow and claims it in `store`, as a flow is resumed: a replay is refused. */
async function resume(value: string, browser: string, store: FlowSite["replayStore"]) {
  const flow = await asRejection(waitingFlow.open({ ...site, replayStore: store }, { [cookie.name]: value, [cookies.binding.name]: browser }))
  if (!(await waitingFlow.claim({ ...site, replayStore: store }, flow))) throw new FlowCookieRefused("replayed", "claimed before")
  return flow
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
    const [sealed, browser] = await sealFlow(snapshot)
    expect(sealed.name).toBe(cookieNames.https.flow)
    expect(sealed.options).toMatchObject({ maxAge: 900, httpOnly: true, secure: true, sameSite: "lax", path: "/" })
    expect(sealed.value.length).toBeLessThan(1200)
    expect(browser.name).toBe(cookieNames.https.flowBinding)
    expect(browser.options).toMatchObject({ maxAge: 900, httpOnly: true, secure: true, sameSite: "lax", path: "/" })
    expect(browser.options.domain).toBeUndefined()
    expect(browser.value).toMatch(/^[0-9a-f]{32}$/)

    const { snapshot: restored } = await open(sealed.value, browser.value)
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
    await expect(sealFlow(actor.getSnapshot())).rejects.toThrow(/waiting/)
  })

  it("refuses a missing cookie", async () => {
    expect((await refusal(open(undefined, "b".repeat(32)))).reason).toBe("missing")
    expect((await refusal(open("", "b".repeat(32)))).reason).toBe("missing")
  })

  it("refuses a tampered cookie, another secret, or another cookie name", async () => {
    const { value, browser } = await sealedCookie()
    const index = value.length - 60
    const tampered = value.slice(0, index) + (value[index] === "A" ? "B" : "A") + value.slice(index + 1)
    expect((await refusal(open(tampered, browser))).reason).toBe("undecodable")
    expect((await refusal(open(value, browser, { secret: "another-secret" }))).reason).toBe("undecodable")
    expect((await refusal(open(value, browser, { flowName: cookieNames.http.sessionToken }))).reason).toBe("undecodable")
  })

  it("opens with a rotated secret list", async () => {
    const { value, browser } = await sealedCookie()
    const { snapshot: restored } = await open(value, browser, { secret: ["newer-secret", secret] })
    expect(restored.value).toBe("waitingForCallback")
  })

  it("refuses an expired flow", async () => {
    const { value, browser } = await sealedCookie()
    vi.useFakeTimers({ now: Date.now() + 16 * 60 * 1000 })
    expect((await refusal(open(value, browser))).reason).toBe("expired")
  })

  it("refuses a flow bound to another provider, issuer, version or machine", async () => {
    const { value, browser } = await sealedCookie()
    expect((await refusal(open(value, browser, { on: { providerId: "github" } }))).reason).toBe("foreign-provider")
    expect((await refusal(open(value, browser, { on: { issuer: "https://evil.test" } }))).reason).toBe("foreign-issuer")
    expect((await refusal(open(value, browser, { version: 2 }))).reason).toBe("old-version")
    expect((await refusal(open(value, browser, { machine: otherMachine }))).reason).toBe("foreign-machine")
  })

  it("refuses a flow without the binding cookie of the browser that started it (a planted flow cookie)", async () => {
    const attacker = await sealedCookie()
    const victim = await sealedCookie()
    expect((await refusal(open(attacker.value, undefined))).reason).toBe("foreign-browser")
    expect((await refusal(open(attacker.value, victim.browser))).reason).toBe("foreign-browser")
    expect((await open(attacker.value, attacker.browser)).snapshot.value).toBe("waitingForCallback")
  })

  it("opens a flow as often as it is asked, and claims it once, by every instance sharing the store", async () => {
    const { value, browser } = await sealedCookie()
    const store = memoryReplayStore()
    expect((await open(value, browser)).snapshot.value).toBe("waitingForCallback")
    expect((await open(value, browser)).snapshot.value).toBe("waitingForCallback")
    expect((await resume(value, browser, store)).snapshot.value).toBe("waitingForCallback")
    expect((await refusal(resume(value, browser, store))).reason).toBe("replayed")
    const racing = await sealedCookie()
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => resume(racing.value, racing.browser, store)))
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1)
  })

  it("claims an issued flow with the store's claim, and any other with markUsed", async () => {
    const { snapshot } = await startedFlow()
    const calls: string[] = []
    const store = memoryReplayStore()
    const issuing: FlowSite["replayStore"] = {
      markUsed: (key, expiresAt) => (calls.push(`markUsed ${key}`), store.markUsed(key, expiresAt)),
      issue: async (key) => void calls.push(`issue ${key}`),
      claim: async (key) => (calls.push(`claim ${key}`), !calls.includes(`claim ${key} done`) && calls.push(`claim ${key} done`) > 0),
    }
    const at = { ...site, replayStore: issuing }
    expect(await waitingFlow.issue(at, "issued-1")).toBe(true)
    const [flow, bindingCookie] = await waitingFlow.seal(at, snapshot, "issued-1", true)
    const issued = await asRejection(waitingFlow.open(at, { [flow.name]: flow.value, [bindingCookie.name]: bindingCookie.value }))
    expect(issued.issued).toBe(true)
    expect(await waitingFlow.claim(at, issued)).toBe(true)
    expect(await waitingFlow.claim(at, issued)).toBe(false)
    // A store that cannot issue: the flow is not issued, and is claimed with markUsed.
    expect(await waitingFlow.issue(site, "plain-1")).toBe(false)
    const [plain, plainBinding] = await waitingFlow.seal(at, snapshot, "plain-1")
    const openedPlain = await asRejection(waitingFlow.open(at, { [plain.name]: plain.value, [plainBinding.name]: plainBinding.value }))
    expect(openedPlain.issued).toBe(false)
    expect(await waitingFlow.claim(at, openedPlain)).toBe(true)
    expect(calls.filter((call) => !call.endsWith("done"))).toEqual(["issue waiting-flow:issued-1", "claim waiting-flow:issued-1", "claim waiting-flow:issued-1", "markUsed waiting-flow:plain-1"])
  })

  it("seals only the context its spec names, and clears both cookies", async () => {
    const { snapshot } = await startedFlow()
    const onlyState = sealedFlow({ machine: waitingMachine, version: 1, seals: [], cookies: () => cookies })
    const [flow, bindingCookie] = await onlyState.seal(site, snapshot, "flow-id")
    const withState = await asRejection(onlyState.open(site, { [flow.name]: flow.value, [bindingCookie.name]: bindingCookie.value }))
    expect(withState.snapshot.context).toEqual({})
    const [withVerifier, withBinding] = await sealFlow(snapshot)
    expect((await openFlow({ [withVerifier.name]: withVerifier.value, [withBinding.name]: withBinding.value })).snapshot.context).toEqual({ verifier: "v".repeat(43) })
    expect(waitingFlow.clear(site)).toEqual([
      { name: cookies.flow.name, value: "", options: { ...cookies.flow.options, maxAge: 0 } },
      { name: cookies.binding.name, value: "", options: { ...cookies.binding.options, maxAge: 0 } },
    ])
    expect(waitingFlow.actorId("flow-id")).toBe(`waiting-flow-${sha256Hex("actor:flow-id").slice(0, 16)}`)
  })

  it("refuses a validly sealed snapshot whose state does not exist, without any uncaught error", async () => {
    const uncaught = vi.fn()
    process.on("uncaughtException", uncaught)
    try {
      const forged = await encode({
        token: { m: "waiting-flow", v: 1, p: "oidc", i: "https://issuer.test", j: "forged", b: sha256Hex(browser).slice(0, 32), s: { status: "active", value: "nowhere", context: {}, children: {}, historyValue: {} } } as never,
        secret,
        salt: cookie.name,
        maxAge: 900,
      })
      expect((await refusal(open(forged, browser))).reason).toBe("invalid-state")
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(uncaught).not.toHaveBeenCalled()
    } finally {
      process.off("uncaughtException", uncaught)
    }
  })

  it("refuses a snapshot sealed in a state that runs an effect", async () => {
    const forged = await encode({
      token: { m: "waiting-flow", v: 1, p: "oidc", i: "https://issuer.test", j: "forged", b: sha256Hex(browser).slice(0, 32), s: { status: "active", value: "finishing", context: {}, children: {}, historyValue: {} } } as never,
      secret,
      salt: cookie.name,
      maxAge: 900,
    })
    expect((await refusal(open(forged, browser))).reason).toBe("invalid-state")
  })
})

describe("flow cookie refusals, in detail", () => {
  /** A sealed payload as sealFlow writes it, with `changes` applied (undefined removes a field). */
  async function forge(changes: Record<string, unknown>): Promise<string> {
    const payload: Record<string, unknown> = { m: "waiting-flow", v: 1, p: "oidc", i: "https://issuer.test", j: "forged", b: sha256Hex(browser).slice(0, 32), s: { status: "active", value: "waitingForCallback", context: {}, children: {}, historyValue: {} }, ...changes }
    for (const key of Object.keys(payload)) if (payload[key] === undefined) delete payload[key]
    return encode({ token: payload as never, secret, salt: cookie.name, maxAge: 900 })
  }

  it("each refusal says why, in its message and in cause.reason", async () => {
    const { value, browser: own } = await sealedCookie()
    const cases: [Promise<unknown>, string][] = [
      [open(undefined, own), "Flow cookie refused (missing): the flow cookie is missing (was the flow started in another browser?)"],
      [open("garbage", own), "Flow cookie refused (undecodable): the flow cookie could not be decrypted"],
      [open(value, own, { machine: otherMachine }), "Flow cookie refused (foreign-machine): the flow belongs to waiting-flow"],
      [open(value, own, { version: 2 }), "Flow cookie refused (old-version): the flow was started by version 1"],
      [open(value, own, { on: { providerId: "github" } }), "Flow cookie refused (foreign-provider): the flow was started for provider oidc"],
      [open(value, own, { on: { issuer: "https://evil.test" } }), "Flow cookie refused (foreign-issuer): the flow was started with issuer https://issuer.test"],
      [open(value, "0".repeat(32)), "Flow cookie refused (foreign-browser): the flow was started in another browser (its binding cookie is missing or different)"],
      [open(await forge({ value: undefined, s: { status: "active", value: "nowhere", context: {} } }), browser), "Flow cookie refused (invalid-state): the flow's state does not exist in this machine"],
      [open(await forge({ s: { status: "active", value: "finishing", context: {} } }), browser), "Flow cookie refused (invalid-state): the flow's state is not one that waits for a request"],
      [open(await forge({ s: undefined }), browser), "Flow cookie refused (invalid-state): the flow snapshot is not active"],
      [open(await forge({ j: undefined }), browser), "Flow cookie refused (undecodable): the flow has no id"],
    ]
    // Refused, open resolves with the refusal: it is an answer, not a throw.
    expect(await waitingFlow.open(site, {})).toBeInstanceOf(FlowCookieRefused)
    for (const [promise, message] of cases) {
      const error = await refusal(promise)
      expect(error.message).toBe(message)
      expect(error.cause).toMatchObject({ reason: error.reason })
    }
    const undecodable = await refusal(open("garbage", own))
    expect((undecodable.cause as { err?: unknown }).err).toBeInstanceOf(Error)
    const foreign = await refusal(open(value, "0".repeat(32)))
    expect(foreign.cause).toEqual({ reason: "foreign-browser" })
  })

  it("an expired flow says so, with the jose error as its cause", async () => {
    const { value, browser: own } = await sealedCookie()
    vi.useFakeTimers({ now: Date.now() + 16 * 60 * 1000 })
    const error = await refusal(open(value, own))
    expect(error.message).toBe("Flow cookie refused (expired): the flow has expired")
    expect((error.cause as { err?: unknown }).err).toBeInstanceOf(Error)
  })

  it("refuses a snapshot that is not active, or rests in a final state", async () => {
    for (const s of [{ status: "done", value: "done", context: {} }, { status: "active", value: "done", context: {} }, { value: "waitingForCallback", context: {} }, "text"]) {
      expect((await refusal(open(await forge({ s }), browser))).reason, JSON.stringify(s)).toBe("invalid-state")
    }
  })

  it("refuses a payload without a binding hash even when the browser sends a binding cookie", async () => {
    expect((await refusal(open(await forge({ b: undefined }), browser))).reason).toBe("foreign-browser")
    expect((await refusal(open(await forge({ b: 42 }), browser))).reason).toBe("foreign-browser")
  })

  it("refuses to seal a finished flow", async () => {
    const done = await runFlow(waitingMachine, { begin: () => ({ type: "started" as const, verifier: "v" }), finish: () => ({ type: "finished" as const }) })
    const actor = createActor(waitingMachine, { snapshot: done as never }).start()
    actor.send({ type: "callback", code: "c" })
    const finished = await runFlow(waitingMachine, { begin: () => ({ type: "started" as const, verifier: "v" }), finish: () => ({ type: "finished" as const }) }, { snapshot: actor.getPersistedSnapshot() as never })
    expect(finished.status).toBe("done")
    await expect(sealFlow(finished)).rejects.toThrow(new TypeError("waiting-flow: only a flow waiting for another request can be sealed"))
  })

  it("both cookies expire with the flow, 15 minutes on, and the opened flow knows when", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2030, 0, 1, 12) })
    const { snapshot } = await startedFlow()
    const { issuer: _, ...withoutIssuer } = site
    const [flow, bindingCookie] = await waitingFlow.seal(withoutIssuer, snapshot, "flow-id-1")
    for (const sealed of [flow, bindingCookie]) {
      expect(sealed.options.expires).toEqual(new Date(Date.UTC(2030, 0, 1, 12, 15)))
      expect(sealed.options.maxAge).toBe(900)
    }
    expect(await asRejection(waitingFlow.open(withoutIssuer, { [cookies.flow.name]: flow.value, [cookies.binding.name]: bindingCookie.value }))).toMatchObject({ flowId: "flow-id-1", replayKey: "waiting-flow:flow-id-1", expiresAt: Date.UTC(2030, 0, 1, 12, 15) })
    // Sealed without an issuer, it does not open for a binding that names one.
    expect((await refusal(openFlow({ [cookies.flow.name]: flow.value, [cookies.binding.name]: bindingCookie.value }))).reason).toBe("foreign-issuer")
  })

  it("the opened flow expires when its token does (whole seconds), not 15 minutes after it is opened", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2030, 0, 1, 12, 0, 0, 500) })
    const { snapshot } = await startedFlow()
    const [flow, bindingCookie] = await sealFlow(snapshot)
    vi.setSystemTime(Date.UTC(2030, 0, 1, 12, 5, 0, 700))
    const opened = await openFlow({ [cookies.flow.name]: flow.value, [cookies.binding.name]: bindingCookie.value })
    expect(opened.expiresAt).toBe(Date.UTC(2030, 0, 1, 12, 15))
  })

  it("a sealed payload without `exp` is kept 15 minutes from when it is opened", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2030, 0, 1, 12, 0, 0, 500) })
    const payload = { m: "waiting-flow", v: 1, p: "oidc", i: "https://issuer.test", j: "no-exp", b: sha256Hex(browser).slice(0, 32), s: { status: "active", value: "waitingForCallback", context: {}, children: {}, historyValue: {} } }
    const value = craftToken({ alg: "dir", enc: "A256CBC-HS512" }, JSON.stringify(payload), referenceKey(secret, cookie.name))
    const opened = await openFlow({ [cookies.flow.name]: value, [cookies.binding.name]: browser })
    expect(opened).toMatchObject({ flowId: "no-exp", expiresAt: Date.UTC(2030, 0, 1, 12, 15, 0, 500) })
  })
})
