/**
 * The cookies a flow mints (the session token above all) are the run's output, never the machine's
 * input: runFlowWithCookies takes them off the events its effects report, so neither the recorded
 * inspection nor what any observer is given holds them.
 */
import type { InspectionEvent } from "xstate"
import { describe, expect, it } from "vitest"
import { combineInspectors, FlowRecorder } from "../../src/inspect/index.js"
import { runEveryFlow, Secrets } from "./fixtures.js"

/** The values of the session-token cookies (whole or chunked) a response sets. */
function sessionTokens(response: Response): string[] {
  return response.headers
    .getSetCookie()
    .map((header) => header.slice(0, header.indexOf(";")).split("="))
    .filter(([name, value]) => name!.includes("session-token") && value !== "")
    .map(([, value]) => value!)
}

describe("session tokens and the inspector", () => {
  it("a sign-in's session token appears in no recorded step and in nothing an observer is given", async () => {
    const recorder = new FlowRecorder()
    const given: unknown[] = []
    const observer = (event: InspectionEvent) => {
      if (event.type === "@xstate.event") given.push(event.event)
      if (event.type === "@xstate.snapshot") given.push(event.event, (event.snapshot as { context?: unknown }).context)
    }
    const { signedIn, callback, verified } = await runEveryFlow(combineInspectors(recorder.inspect, observer), new Secrets())
    const tokens = [signedIn, callback, verified].flatMap(sessionTokens)
    // A credentials sign-in, an OAuth callback and an email link, each setting its session token.
    expect(tokens).toHaveLength(3)

    const recorded = JSON.stringify(recorder.list().flows.map((flow) => recorder.get(flow.id)))
    const observed = JSON.stringify(given)
    expect(recorded).toContain("token.encoded")
    expect(observed).toContain("token.encoded")
    // Booleans, so a failure does not print the stream (and the tokens) in the test's output.
    for (const [at, token] of tokens.entries()) {
      expect(recorded.includes(token), `session token ${at} in the recorded flows`).toBe(false)
      expect(observed.includes(token), `session token ${at} in what the observer was given`).toBe(false)
      // Not even its start (the protected header and the first bytes of the ciphertext).
      expect(observed.includes(token.slice(0, 120)), `session token ${at}'s start in what the observer was given`).toBe(false)
    }
    expect(observed.includes('"cookies"'), "an event or a context with cookies").toBe(false)
  })
})
