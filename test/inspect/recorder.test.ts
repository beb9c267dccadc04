import { createActor, setup, type InspectionEvent } from "xstate"
import { describe, expect, it } from "vitest"
import { CookieJar, csrfTokenFor, send } from "../helpers.js"
import { combineInspectors, FlowRecorder, REDACTED } from "../../src/inspect/index.js"
import { runFlow } from "../../src/machines/run-flow.js"
import { finishOAuth, flowsConfig, password, runEveryFlow, Secrets, startOAuth } from "./fixtures.js"

describe("the flow recorder", () => {
  it("records every flow Auth() runs, with its timeline of events and snapshots", async () => {
    const recorder = new FlowRecorder()
    await runEveryFlow(recorder.inspect, new Secrets())
    const { total, flows } = recorder.list()
    expect(total).toBe(6)
    expect(flows.map((flow) => [flow.machines.join(" → "), flow.state, flow.status])).toEqual([
      ["email-verification", "signedIn", "succeeded"],
      ["email-sign-in", "linkSent", "succeeded"],
      ["oauth", "signedIn", "succeeded"],
      ["sign-out", "signedOut", "succeeded"],
      ["credentials-sign-in", "signedIn", "succeeded"],
      ["credentials-sign-in", "credentialsRejected", "ended"],
    ])
    const credentials = recorder.get(flows[4]!.id)!
    expect(credentials.runs[0]!.steps.map((step) => [step.event.type, step.state, step.effect])).toEqual([
      ["xstate.init", "validatingInput", "checkCsrf"],
      ["csrf.valid", "readingCredentials", "readCredentials"],
      ["credentials.read", "checkingRateLimit", "checkRateLimit"],
      ["rateLimit.counted", "authorizing", "authorize"],
      ["authorize.returned", "refundingAttempt", "refundAttempt"],
      ["attempt.refunded", "checkingSignIn", "askSignIn"],
      ["signIn.answered", "encodingToken", "encodeToken"],
      ["token.encoded", "signedIn", undefined],
    ])
    expect(credentials.runs[0]!.steps.at(-1)).toMatchObject({ status: "done", paths: ["signedIn"] })
  })

  it("shows an OAuth sign-in as one flow on the oauth machine over both requests, joined by the actor id the engine gives it", async () => {
    const recorder = new FlowRecorder()
    // What xstate announces: every actor, with the id it was given, and whether it was restored.
    const announced: { id: unknown; sessionId: unknown; machine: string; restoredFrom?: unknown; snapshotYet: boolean }[] = []
    const watch = (event: InspectionEvent) => {
      if (event.type !== "@xstate.actor") return
      const actor = event.actorRef as unknown as { id: unknown; sessionId: unknown; logic: { id: string }; options: { snapshot?: { value?: unknown } }; _snapshot?: unknown }
      announced.push({ id: actor.id, sessionId: actor.sessionId, machine: actor.logic.id, restoredFrom: actor.options.snapshot?.value, snapshotYet: actor._snapshot !== undefined })
    }
    const { config, op } = flowsConfig(combineInspectors(recorder.inspect, watch), new Secrets())
    const jar = new CookieJar()
    const authorizationUrl = await startOAuth(config, jar)
    const waiting = recorder.list().flows[0]!
    expect(waiting).toMatchObject({ machine: "oauth", machines: ["oauth"], state: "awaitingCallback", status: "waiting", requests: 1 })
    expect(recorder.get(waiting.id)!.runs[0]!.stopped).toBe(true)

    const response = await finishOAuth(config, jar, op, authorizationUrl)
    expect(response.headers.get("location")).toBe("https://app.test/dashboard")
    // Both requests' actors carry the flow's id (not their session id, "x:0" for every root actor);
    // the restored one is announced before its snapshot is restored, with the persisted one in its options.
    expect(announced).toHaveLength(2)
    const [first, second] = announced
    expect(first).toMatchObject({ machine: "oauth", id: expect.stringMatching(/^oauth-[0-9a-f]{16}$/), restoredFrom: undefined, snapshotYet: false })
    expect(second).toMatchObject({ machine: "oauth", id: first!.id, restoredFrom: "awaitingCallback", snapshotYet: false })
    expect(first!.id).not.toBe(first!.sessionId)

    const { total, flows } = recorder.list()
    expect(total).toBe(1)
    expect(flows[0]).toMatchObject({ id: waiting.id, machine: "oauth", machines: ["oauth"], state: "signedIn", status: "succeeded", requests: 2, resumed: "linked" })
    const flow = recorder.get(waiting.id)!
    // One run of one machine: the sign-in request's states, the wait, then the callback's checks as steps.
    expect(flow.runs).toHaveLength(1)
    const [run] = flow.runs
    expect(run).toMatchObject({ machine: "oauth", restored: false })
    const steps = run!.steps.map((step) => [step.event.type, step.state, step.effect ?? null, step.resumed ?? false])
    expect(steps.slice(0, 15)).toEqual([
      ["xstate.init", "validatingInput", "checkCsrf", false],
      ["csrf.valid", "checkingRateLimit", "checkRateLimit", false],
      ["rateLimit.counted", "discovering", "discover", false],
      ["discovery.done", "authorizing", "authorize", false],
      ["authorization.ready", "awaitingCallback", null, false],
      ["xstate.init", "awaitingCallback", null, true],
      ["callback.received", "claimingFlow", "claimFlow", false],
      ["flow.fresh", "checkingCallbackRateLimit", "checkRateLimit", false],
      ["rateLimit.counted", "checkingResponse", "readResponse", false],
      ["response.received", "exchangingCode", "exchangeCode", false],
      ["code.exchanged", "validatingTokens", "validateTokens", false],
      ["tokens.valid", "fetchingProfile", "fetchProfile", false],
      ["profile.received", "resolvingAccount", "resolveAccount", false],
      ["account.new", "findingEmailOwner", "findEmailOwner", false],
      ["emailOwner.none", "checkingSignIn", "askSignIn", false],
    ])
    expect(steps.at(-1)).toEqual(["token.encoded", "signedIn", null, false])
    expect(run!.steps.at(-1)!.status).toBe("done")
    // The waiting state: the checks (all the flow cookie seals), and the sign-in request's answer (its URL's secrets redacted).
    expect(run!.steps[4]!.context).toEqual({
      checks: { codeVerifier: REDACTED, state: REDACTED, nonce: REDACTED, redirectUri: "https://app.test/auth/callback/op", callbackUrl: "https://app.test/dashboard" },
      authorizationUrl: expect.stringMatching(/^https:\/\/op\.stand-in\.test\/authorize\?.*&state=\[redacted\]&code_challenge=\[redacted\]&code_challenge_method=\[redacted\]&nonce=\[redacted\]$/),
      flowIssued: true,
    })
    // The flow's id joins the requests in memory; it is never part of what the recorder shows.
    expect(JSON.stringify([recorder.list(), flow])).not.toContain(first!.id as string)
  })

  it("pairs concurrent callbacks with their own sign-ins", async () => {
    const recorder = new FlowRecorder()
    const { config, op } = flowsConfig(recorder.inspect, new Secrets())
    const jars = [new CookieJar(), new CookieJar(), new CookieJar()]
    const urls = [await startOAuth(config, jars[0]!, "/first"), await startOAuth(config, jars[1]!, "/second"), await startOAuth(config, jars[2]!, "/third")]
    // The second one comes back with a forged code: its callback ends in tokensRejected.
    await Promise.all(jars.map((jar, i) => finishOAuth(config, jar, op, urls[i]!, i === 1)))
    const flows = recorder.list().flows.map((summary) => recorder.get(summary.id)!)
    expect(flows).toHaveLength(3)
    for (const flow of flows) {
      expect(flow).toMatchObject({ requests: 2, resumed: "linked" })
      expect(flow.runs.map((run) => run.machine)).toEqual(["oauth"])
      const steps = flow.runs[0]!.steps
      const callbackUrl = (steps[4]!.context as { checks: { callbackUrl: string } }).checks.callbackUrl
      expect(steps.at(-1)!.state).toBe(callbackUrl.endsWith("/second") ? "tokensRejected" : "signedIn")
      if (callbackUrl.endsWith("/second")) expect(steps.at(-1)!.context).toMatchObject({ failedCheck: "code" })
    }
  })

  it("shows a flow resumed from a sealed snapshot it never saw start as an unlinked resumed flow", async () => {
    const recorder = new FlowRecorder()
    const secrets = new Secrets()
    const { config, op } = flowsConfig(undefined, secrets)
    const jar = new CookieJar()
    const authorizationUrl = await startOAuth(config, jar)
    await finishOAuth({ ...config, inspect: recorder.inspect }, jar, op, authorizationUrl)
    const [flow] = recorder.list().flows
    expect(flow).toMatchObject({ machines: ["oauth"], resumed: "unlinked", requests: 1, state: "signedIn", status: "succeeded" })
    const run = recorder.get(flow!.id)!.runs[0]!
    expect(run.restored).toBe(true)
    expect(run.steps[0]).toMatchObject({ state: "awaitingCallback", resumed: true })
    expect(run.steps[1]).toMatchObject({ event: { type: "callback.received" }, state: "claimingFlow" })
    expect(run.steps[2]).toMatchObject({ event: { type: "flow.fresh" }, state: "checkingCallbackRateLimit" })
    expect(run.steps[3]).toMatchObject({ event: { type: "rateLimit.counted" }, state: "checkingResponse" })
  })

  it("joins requests by actor id only: not by look-alike contexts, and never actors without an id of their own", async () => {
    const machine = setup({ types: { context: {} as { state: string }, events: {} as { type: "ready" } | { type: "resume" } | { type: "done" } } }).createMachine({
      id: "app-flow",
      context: { state: "same-check-value-in-every-flow" },
      initial: "starting",
      states: {
        starting: { meta: { effect: "start" }, on: { ready: "waiting" } },
        waiting: { on: { resume: "finishing" } },
        finishing: { meta: { effect: "finish" }, on: { done: "finished" } },
        finished: { type: "final" },
      },
    })
    const effects = { start: () => ({ type: "ready" as const }), finish: () => ({ type: "done" as const }) }
    const recorder = new FlowRecorder({ machines: [machine] })
    const inspect = recorder.inspect
    const a = await runFlow(machine, effects, { inspect, id: "flow-a" })
    const b = await runFlow(machine, effects, { inspect, id: "flow-b" })
    const anonymous = await runFlow(machine, effects, { inspect })
    expect([a.value, b.value, anonymous.value]).toEqual(["waiting", "waiting", "waiting"])
    const resume = (snapshot: typeof a, id?: string) => runFlow(machine, effects, { inspect, snapshot: JSON.parse(JSON.stringify(machine.getPersistedSnapshot(snapshot))), resume: { type: "resume" }, ...(id && { id }) })
    // b resumes first: the identical contexts do not swap the flows.
    await resume(b, "flow-b")
    await resume(a, "flow-a")
    await resume(anonymous)
    await resume(a, "flow-c")
    const flows = recorder.list().flows.reverse()
    expect(flows.map((flow) => [flow.seq, flow.requests, flow.resumed ?? null, flow.state])).toEqual([
      [1, 2, "linked", "finished"],
      [2, 2, "linked", "finished"],
      [3, 1, null, "waiting"],
      [4, 1, "unlinked", "finished"],
      [5, 1, "unlinked", "finished"],
    ])
    expect(recorder.get("1")!.runs).toHaveLength(1)
    expect(recorder.get("1")!.runs[0]!.steps.map((step) => [step.event.type, step.state, step.resumed ?? false])).toEqual([
      ["xstate.init", "starting", false],
      ["ready", "waiting", false],
      ["xstate.init", "waiting", true],
      ["resume", "finishing", false],
      ["done", "finished", false],
    ])
  })

  it("keeps the newest flows only (a ring buffer), with filters and pages", async () => {
    const recorder = new FlowRecorder({ maxFlows: 3 })
    const { config } = flowsConfig(recorder.inspect, new Secrets())
    const jar = new CookieJar()
    const csrfToken = await csrfTokenFor(config, jar)
    for (let i = 0; i < 5; i++) await send(config, jar, "/callback/credentials", { form: { csrfToken, username: "ada", password: i % 2 ? password : "wrong" } })
    expect(recorder.size).toBe(3)
    expect(recorder.list().flows.map((flow) => flow.seq)).toEqual([5, 4, 3])
    expect(recorder.list({ status: "ended" }).flows.map((flow) => flow.seq)).toEqual([5, 3])
    expect(recorder.list({ offset: 1, limit: 1 })).toMatchObject({ total: 3, flows: [{ seq: 4 }] })
    expect(recorder.list({ machine: "sign-out" }).total).toBe(0)
  })

  it("never changes a flow: the same answers with and without it, and nothing it meets can make it throw", async () => {
    const answers = async (inspect: FlowRecorder["inspect"] | undefined) => {
      const { signedIn, callback, verified } = await runEveryFlow(inspect, new Secrets())
      return [signedIn, callback, verified].map((response) => [response.status, response.headers.get("location")])
    }
    const recorder = new FlowRecorder()
    recorder.subscribe(() => {
      throw new Error("a failing listener")
    })
    expect(await answers(recorder.inspect)).toEqual(await answers(undefined))

    const machine = setup({ types: { events: {} as { type: "GO"; payload: unknown } } }).createMachine({ id: "odd", context: { ok: 1 }, initial: "a", states: { a: { on: { GO: "b" } }, b: { type: "final" } } })
    const actor = createActor(machine, { inspect: recorder.inspect }).start()
    actor.send({ type: "GO", payload: Object.defineProperty({ fine: true }, "boom", { enumerable: true, get: () => { throw new Error("getter") } }) })
    expect(actor.getSnapshot().value).toBe("b")
    const odd = recorder.get(recorder.list({ machine: "odd" }).flows[0]!.id)!
    expect(odd.runs[0]!.steps.at(-1)!.event).toEqual({ type: "GO", payload: { fine: true, boom: "[unreadable]" } })
    for (const junk of [{}, { type: "@xstate.snapshot" }, { type: "@xstate.snapshot", actorRef: null }, { type: "@xstate.actor", actorRef: { logic: { root: {}, id: 3 } } }]) {
      expect(() => recorder.inspect.next!(junk as unknown as InspectionEvent)).not.toThrow()
    }
  })
})
