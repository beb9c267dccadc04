import { createInspector, type StatelyInspectionEvent } from "@statelyai/inspect"
import { describe, expect, it } from "vitest"
import type { InspectionEvent } from "xstate"
import Credentials from "../../src/providers/credentials.js"
import { CookieJar, csrfTokenFor, send } from "../helpers.js"
import type { AuthConfig } from "../../src/types.js"

const config: AuthConfig = {
  secret: "inspect-secret",
  trustHost: true,
  providers: [Credentials({ credentials: { username: {} }, authorize: () => ({ id: "u1", name: "Ada" }) })],
}

async function signInAndOut(inspect: AuthConfig["inspect"]) {
  const jar = new CookieJar()
  const csrfToken = await csrfTokenFor(config, jar)
  await send({ ...config, inspect }, jar, "/callback/credentials", { form: { csrfToken, username: "ada", password: "pw" } })
  await send({ ...config, inspect }, jar, "/signout", { form: { csrfToken } })
}

describe("the inspect option", () => {
  it("feeds every flow to a @statelyai/inspect inspector", async () => {
    const received: StatelyInspectionEvent[] = []
    const inspector = createInspector({ send: (event) => void received.push(event) })
    inspector.start()
    await signInAndOut(inspector.inspect)
    // The Stately inspector converts and forwards events on an idle callback.
    await new Promise((resolve) => setTimeout(resolve, 100))
    inspector.stop()

    const actors = received.filter((event) => event.type === "@xstate.actor")
    expect(actors.map((event) => (event as { name?: string }).name)).toEqual(
      expect.arrayContaining(["credentials-sign-in", "sign-out"]),
    )
    const values = received.filter((event) => event.type === "@xstate.snapshot").map((event) => (event.snapshot as { value?: unknown }).value)
    expect(values).toEqual(expect.arrayContaining(["authorizing", "checkingSignIn", "encodingToken", "signedIn", "findingSession", "signedOut"]))
    const eventTypes = received.filter((event) => event.type === "@xstate.event").map((event) => (event.event as { type: string }).type)
    expect(eventTypes).toEqual(expect.arrayContaining(["csrf.valid", "authorize.returned", "signIn.answered", "token.encoded", "session.found", "token.decoded"]))
  })

  it("accepts a plain function and an observer object", async () => {
    const byFunction: InspectionEvent[] = []
    const byObserver: InspectionEvent[] = []
    await signInAndOut((event) => void byFunction.push(event))
    await signInAndOut({ next: (event) => void byObserver.push(event) })
    for (const events of [byFunction, byObserver]) {
      const finals = events.filter((e) => e.type === "@xstate.snapshot" && (e.snapshot as { status?: string }).status === "done") as { snapshot: unknown }[]
      expect(finals.map((e) => (e.snapshot as { value?: unknown }).value)).toEqual(["signedIn", "signedOut"])
    }
  })
})
