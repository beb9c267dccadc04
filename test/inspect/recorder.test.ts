import { createActor, setup, type InspectionEvent } from "xstate"
import { describe, expect, it } from "vitest"
import { CookieJar, csrfTokenFor, send } from "../helpers.js"
import { FlowRecorder, REDACTED } from "../../src/inspect/index.js"
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
      ["oauth-sign-in → oauth-callback", "signedIn", "succeeded"],
      ["sign-out", "signedOut", "succeeded"],
      ["credentials-sign-in", "signedIn", "succeeded"],
      ["credentials-sign-in", "credentialsRejected", "ended"],
    ])
    const credentials = recorder.get(flows[4]!.id)!
    expect(credentials.runs[0]!.steps.map((step) => [step.event.type, step.state, step.effect])).toEqual([
      ["xstate.init", "validatingInput", "checkCsrf"],
      ["csrf.valid", "authorizing", "authorize"],
      ["authorize.returned", "checkingSignIn", "decideSignIn"],
      ["signIn.allowed", "issuingSession", "issueSession"],
      ["session.issued", "signedIn", undefined],
    ])
    expect(credentials.runs[0]!.steps.at(-1)).toMatchObject({ status: "done", paths: ["signedIn"] })
  })

  it("joins an OAuth callback to the sign-in it resumes, by a keyed digest of its state check", async () => {
    const recorder = new FlowRecorder()
    const { config, op } = flowsConfig(recorder.inspect, new Secrets())
    const jar = new CookieJar()
    const authorizationUrl = await startOAuth(config, jar)
    const waiting = recorder.list().flows[0]!
    expect(waiting).toMatchObject({ machine: "oauth-sign-in", state: "awaitingCallback", status: "waiting", requests: 1 })
    expect(recorder.get(waiting.id)!.runs[0]!.stopped).toBe(true)

    const response = await finishOAuth(config, jar, op, authorizationUrl)
    expect(response.headers.get("location")).toBe("https://app.test/dashboard")
    const { total, flows } = recorder.list()
    expect(total).toBe(1)
    expect(flows[0]).toMatchObject({ id: waiting.id, machines: ["oauth-sign-in", "oauth-callback"], state: "signedIn", status: "succeeded", requests: 2, resumed: "linked" })
    const [signIn, callback] = recorder.get(waiting.id)!.runs
    // One run of the sign-in machine across both requests: the restored snapshot continues it.
    expect(signIn!.steps.map((step) => [step.event.type, step.state, step.resumed ?? false])).toEqual([
      ["xstate.init", "validatingInput", false],
      ["csrf.valid", "discovering", false],
      ["discovery.done", "authorizing", false],
      ["authorization.ready", "awaitingCallback", false],
      ["xstate.init", "awaitingCallback", true],
      ["callback.received", "handedOff", false],
    ])
    expect(signIn!.steps[3]!.context).toEqual({ checks: { codeVerifier: REDACTED, state: REDACTED, nonce: REDACTED, redirectUri: "https://app.test/auth/callback/op", callbackUrl: "https://app.test/dashboard" } })
    expect(callback!.machine).toBe("oauth-callback")
    expect(callback!.steps.at(-1)!.state).toBe("signedIn")
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
      const callbackUrl = (flow.runs[0]!.steps[3]!.context as { checks: { callbackUrl: string } }).checks.callbackUrl
      expect(flow.runs.map((run) => run.machine)).toEqual(["oauth-sign-in", "oauth-callback"])
      expect(flow.runs[1]!.steps.at(-1)!.state).toBe(callbackUrl.endsWith("/second") ? "tokensRejected" : "signedIn")
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
    expect(flow).toMatchObject({ machines: ["oauth-sign-in", "oauth-callback"], resumed: "unlinked", requests: 1, state: "signedIn" })
    const run = recorder.get(flow!.id)!.runs[0]!
    expect(run.restored).toBe(true)
    expect(run.steps[0]).toMatchObject({ state: "awaitingCallback", resumed: true })
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
