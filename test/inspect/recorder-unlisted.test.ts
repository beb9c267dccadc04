/**
 * The sign-in page asks for passkey options on every view (the browser's autofill), and each request
 * starts a WebAuthn flow that waits for a ceremony that may never come. The recorder keeps those
 * flows whole, but the inspector's unfiltered list leaves them out (and counts them) until the
 * browser answers; a filter on the machine or the status shows them.
 */
import { describe, expect, it } from "vitest"
import { CookieJar } from "../helpers.js"
import { createInspector } from "../../src/inspect/index.js"
import { authenticate, getOptions, passkeyConfig, register } from "../support/passkey-flow.js"
import { readEventStream } from "./sse.js"

const origin = "http://app.test"

/** Three sign-in page views (autofill options each), then a registration and a passkey sign-in. */
async function pageViewsThenCeremonies(inspect: NonNullable<ReturnType<typeof passkeyConfig>["inspect"]>) {
  const config = passkeyConfig({ inspect })
  const jar = new CookieJar()
  for (let view = 0; view < 3; view++) expect((await getOptions(config, jar, { action: "authenticate" })).status).toBe(200)
  const { credential, response } = await register(config, jar, "ada@example.test")
  expect(response.status).toBe(302)
  return { config, jar, credential }
}

describe("flows that have only issued passkey options", () => {
  it("are recorded in full but left out of the unfiltered list until the browser answers the ceremony", async () => {
    const { recorder, inspect } = createInspector({ authorize: () => true })
    const { config, credential } = await pageViewsThenCeremonies(inspect)

    // Recorded: four WebAuthn flows, three of them waiting with the options issued.
    expect(recorder.size).toBe(4)
    const webauthn = recorder.list({ machine: "webauthn" })
    expect(webauthn.total).toBe(4)
    const waiting = webauthn.flows.filter((flow) => flow.state === "awaitingCeremony")
    expect(waiting.map((flow) => [flow.status, flow.requests, flow.unlisted])).toEqual([
      ["waiting", 1, true],
      ["waiting", 1, true],
      ["waiting", 1, true],
    ])
    // The recorder hides none of the machine's steps: the options step is there.
    const steps = recorder.get(waiting[0]!.id)!.runs[0]!.steps
    expect(steps.at(-1)).toMatchObject({ event: { type: "options.ready" }, state: "awaitingCeremony", status: "active" })
    expect(steps.map((step) => step.event.type)).toContain("options.requested")

    // Listed: only the registration, which went past its options.
    const listed = recorder.list()
    expect(listed.flows.map((flow) => [flow.machine, flow.requests, flow.status])).toEqual([["webauthn", 2, "succeeded"]])
    expect(listed).toMatchObject({ total: 1, unlisted: 3 })
    expect(recorder.list({ status: "waiting" })).toMatchObject({ total: 3, unlisted: 0 })

    // A passkey sign-in: its options wait unlisted, then the answer brings the flow into the list.
    await authenticate(config, new CookieJar(), credential)
    expect(recorder.list()).toMatchObject({ total: 2, unlisted: 3 })
    expect(recorder.list().flows[0]).toMatchObject({ machine: "webauthn", requests: 2, status: "succeeded" })
    expect(recorder.list().flows[0]!.unlisted).toBeUndefined()
  })

  it("the inspector's API and event stream count them apart from the listed flows", async () => {
    const { handler, inspect } = createInspector({ authorize: () => true })
    const stream = readEventStream(await handler(new Request(`${origin}/inspect/api/events`)))
    await stream.until((events) => events.some((event) => event.event === "hello"))
    await pageViewsThenCeremonies(inspect)

    const page = (await (await handler(new Request(`${origin}/inspect/api/flows`))).json()) as { total: number; recorded: number; unlisted: number; flows: { state: string }[] }
    expect(page).toMatchObject({ total: 1, recorded: 4, unlisted: 3 })
    expect(page.flows.map((flow) => flow.state)).toEqual(["signedIn"])
    const filtered = (await (await handler(new Request(`${origin}/inspect/api/flows?machine=webauthn`))).json()) as { total: number; unlisted: number }
    expect(filtered).toMatchObject({ total: 4, unlisted: 0 })

    // Every change goes out, marked, with the counts the list shows.
    await stream.until((events) => events.some((event) => event.event === "flows" && event.data.listed === 1))
    const updates = stream.events().filter((event) => event.event === "flows").map((event) => event.data as { total: number; listed: number; unlisted: number; flows: { state: string; unlisted?: true }[] })
    expect(updates.at(-1)).toMatchObject({ total: 4, listed: 1, unlisted: 3 })
    const summaries = updates.flatMap((update) => update.flows)
    expect(summaries.filter((flow) => flow.state === "awaitingCeremony").every((flow) => flow.unlisted === true)).toBe(true)
    expect(summaries.filter((flow) => flow.state === "signedIn").every((flow) => flow.unlisted === undefined)).toBe(true)

    // A later page's hello counts the unlisted flows too.
    const later = readEventStream(await handler(new Request(`${origin}/inspect/api/events`)))
    await later.until((events) => events.some((event) => event.event === "hello"))
    expect(later.events().find((event) => event.event === "hello")!.data).toMatchObject({ total: 1, unlisted: 3 })
    await Promise.all([stream.close(), later.close()])
  })
})
