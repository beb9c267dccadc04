/**
 * Issue 9, findings 3 and 4: a sealed OAuth flow resumes only in the browser that started it, links
 * a new account only to the user who started it, and resumes once, on one instance or several.
 */
import { describe, expect, it } from "vitest"
import { FlowCookieRefused } from "../../src/actions/flow-cookie.js"
import { OAuthAccountNotLinked } from "../../src/core/errors.js"
import { memoryReplayStore, redisReplayStore } from "../../src/index.js"
import { CookieJar, cookieNames, send } from "../helpers.js"
import { bindingCookie, consent, flowCookie, oauthApp, refusedWith, sessionUserOf, startSignIn } from "../support/oauth-harness.js"
import { redisClients, redisProbe, serviceGate } from "../services.js"


/** A victim signed in through the provider as `victim`. */
async function signedInVictim(app: ReturnType<typeof oauthApp>) {
  const victim = new CookieJar()
  await send(app.config, victim, consent(app.op, await startSignIn(app.config, victim), "victim"))
  expect(await sessionUserOf(app.config, victim)).toMatchObject({ email: "victim@example.test" })
  return victim
}

/** What an attacker holds after starting a sign-in in their own browser and consenting as `attacker`. */
async function attackersFlow(app: ReturnType<typeof oauthApp>) {
  const attacker = new CookieJar()
  const callbackUrl = consent(app.op, await startSignIn(app.config, attacker), "attacker")
  return { attacker, callbackUrl, flow: attacker.cookies.get(flowCookie)!, binding: attacker.cookies.get(bindingCookie)! }
}

async function linkedUserOf(app: ReturnType<typeof oauthApp>, subject: string) {
  return app.memory.getUserByAccount!({ provider: "op", providerAccountId: subject })
}

/**
 * A sign-in started on `startOn` and finished there as `first`, and a browser holding copies of the
 * flow cookies taken before the callback: what a replay sends.
 */
async function finishedFlowAndCopies(startOn: ReturnType<typeof oauthApp>, finishOn = startOn) {
  const browser = new CookieJar()
  const authorizationUrl = await startSignIn(startOn.config, browser)
  const replay = new CookieJar()
  for (const [name, value] of browser.cookies) replay.cookies.set(name, value)
  await send(finishOn.config, browser, consent(finishOn.op, authorizationUrl, "first"))
  return { browser, replay, authorizationUrl }
}

describe("finding 3: a planted flow cookie links nothing", () => {
  it("a flow cookie planted in a signed-in victim's browser is refused: it lacks the binding of the browser that started it", async () => {
    const app = oauthApp()
    const victim = await signedInVictim(app)
    const { callbackUrl, flow } = await attackersFlow(app)

    // Cookie injection from a sibling subdomain can set the flow cookie, not the __Host- binding cookie.
    victim.cookies.set(flowCookie, flow)
    const cause = refusedWith(await send(app.config, victim, callbackUrl), app.errors)
    expect(cause).toBeInstanceOf(FlowCookieRefused)
    expect((cause as FlowCookieRefused).reason).toBe("foreign-browser")
    expect(await linkedUserOf(app, "attacker")).toBeNull()
    expect(await sessionUserOf(app.config, victim)).toMatchObject({ email: "victim@example.test" })
  })

  it("even with the binding cookie planted too (no __Host- prefix over http), a new account links only to the user who started the sign-in", async () => {
    const app = oauthApp()
    const victim = await signedInVictim(app)
    const { callbackUrl, flow, binding } = await attackersFlow(app)

    victim.cookies.set(flowCookie, flow)
    victim.cookies.set(bindingCookie, binding)
    const cause = refusedWith(await send(app.config, victim, callbackUrl), app.errors)
    expect(cause).toBeInstanceOf(OAuthAccountNotLinked)
    expect(await linkedUserOf(app, "attacker")).toBeNull()
    // The attacker's own later sign-in creates their own user, not a way into the victim's.
    await send(app.config, new CookieJar(), consent(app.op, await startSignIn(app.config, new CookieJar()), "attacker"))
    const attackerUser = await linkedUserOf(app, "attacker")
    const victimUser = await linkedUserOf(app, "victim")
    expect(attackerUser?.id).not.toBe(victimUser?.id)
  })

  it("a signed-in user who starts the sign-in in their own browser links the new account to themselves", async () => {
    const app = oauthApp()
    const victim = await signedInVictim(app)
    const response = await send(app.config, victim, consent(app.op, await startSignIn(app.config, victim), "second-login"))
    expect(response.headers.get("location")).toBe("https://app.test")
    expect((await linkedUserOf(app, "second-login"))?.id).toBe((await linkedUserOf(app, "victim"))?.id)
  })
})

describe("finding 4: a flow is used once", () => {
  it("a saved copy of the flow cookies does not resume again, with the same code or a fresh one for the same authorization request", async () => {
    const app = oauthApp()
    const { browser, replay, authorizationUrl } = await finishedFlowAndCopies(app)
    expect(await sessionUserOf(app.config, browser)).toMatchObject({ email: "first@example.test" })

    const exchanges = app.op.seen.filter((route) => route.endsWith("/token")).length
    const cause = refusedWith(await send(app.config, replay, consent(app.op, authorizationUrl, "second")), app.errors)
    expect((cause as FlowCookieRefused).reason).toBe("replayed")
    expect(app.op.seen.filter((route) => route.endsWith("/token"))).toHaveLength(exchanges)
    expect(await linkedUserOf(app, "second")).toBeNull()
    expect(replay.cookies.has(flowCookie)).toBe(false)
  })

  it("without an adapter the default store is the process's: another Auth() configuration in the same process refuses the replay too", async () => {
    const op = oauthApp().op
    const first = oauthApp({ adapter: undefined }, op)
    const second = oauthApp({ adapter: undefined }, op)
    const { replay, authorizationUrl } = await finishedFlowAndCopies(first)
    const cause = refusedWith(await send(second.config, replay, consent(op, authorizationUrl, "second")), second.errors)
    expect((cause as FlowCookieRefused).reason).toBe("replayed")
  })

  it("with a store of its own per instance, a replay on another instance is not caught by the store: that is what a shared store is for", async () => {
    const op = oauthApp().op
    const first = oauthApp({ replayStore: memoryReplayStore() }, op)
    const second = oauthApp({ replayStore: memoryReplayStore() }, op)
    const { replay, authorizationUrl } = await finishedFlowAndCopies(first)
    await send(second.config, replay, consent(op, authorizationUrl, "second"))
    expect(await sessionUserOf(second.config, replay)).toMatchObject({ email: "second@example.test" })
  })
})


const redis = serviceGate(await redisProbe(), "Redis not reachable at 127.0.0.1:6379: start it (see CONTRIBUTING.md's Tests section) to run the shared replay-store tests")

describe.skipIf(redis.skip)("finding 4 across instances: a shared Redis store", () => {
  const client = redisClients()

  it("two instances sharing only the secret and Redis: the flow resumes on one, and its replay is refused on the other", async () => {
    redis.require()
    const prefix = `authflow:test:${Date.now()}:${Math.random()}:`
    const op = oauthApp().op
    const first = oauthApp({ replayStore: redisReplayStore(client(), { prefix }) }, op)
    const second = oauthApp({ replayStore: redisReplayStore(client(), { prefix }) }, op)
    // Started on the second instance, finished on the first.
    const { browser, replay, authorizationUrl } = await finishedFlowAndCopies(second, first)
    expect(await sessionUserOf(first.config, browser)).toMatchObject({ email: "first@example.test" })

    const cause = refusedWith(await send(second.config, replay, consent(op, authorizationUrl, "second")), second.errors)
    expect((cause as FlowCookieRefused).reason).toBe("replayed")
    expect(await second.memory.getUserByAccount!({ provider: "op", providerAccountId: "second" })).toBeNull()
  })

  it("of 20 concurrent resumptions of one flow across two instances, exactly one signs in", async () => {
    redis.require()
    const prefix = `authflow:test:${Date.now()}:${Math.random()}:`
    const op = oauthApp().op
    const instances = [oauthApp({ replayStore: redisReplayStore(client(), { prefix }) }, op), oauthApp({ replayStore: redisReplayStore(client(), { prefix }) }, op)]
    const browser = new CookieJar()
    const authorizationUrl = await startSignIn(instances[0]!.config, browser)
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) => {
        const jar = new CookieJar()
        for (const [name, value] of browser.cookies) jar.cookies.set(name, value)
        return send(instances[index % 2]!.config, jar, consent(op, authorizationUrl, `racer-${index}`)).then(() => jar)
      }),
    )
    const signedIn = responses.filter((jar) => [...jar.cookies.keys()].some((name) => name.startsWith(cookieNames.https.sessionToken)))
    expect(signedIn).toHaveLength(1)
  })
})
