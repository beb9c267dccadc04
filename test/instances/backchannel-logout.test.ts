/**
 * Back-channel logout across instances: a logout token received by one `Auth()` instance ends the
 * JWT session when another instance reads it, through a shared `redisRevocationStore`.
 */
import { afterAll, describe, expect, it } from "vitest"
import { redisRevocationStore } from "../../src/index.js"
import { redisClient, redisProbe, serviceGate } from "../services.js"
import { CookieJar, send } from "../helpers.js"
import { opProvider, standInOP } from "../support/oauth-stand-in.js"
import { consent, sessionUserOf, startSignIn } from "../support/oauth-harness.js"
import type { AuthConfig } from "../../src/types.js"

const service = serviceGate(await redisProbe(), "back-channel logout across instances: Redis not reachable at 127.0.0.1:6379, start it (see CONTRIBUTING.md's Tests section) to run this test")

describe.skipIf(service.skip)("back-channel logout on one instance ends the session read on another (Redis at 127.0.0.1:6379)", () => {
  const redis = redisClient()
  afterAll(() => redis.disconnect())
  const prefix = `authflow-test:revoked:${crypto.randomUUID()}:`

  it("instance B reads the session as signed out after instance A received the logout token", async () => {
    service.require()
    const op = standInOP()
    const instance = (): AuthConfig => ({
      secret: "instances-secret",
      trustHost: true,
      providers: [opProvider(op, { backchannelLogout: true })],
      revocationStore: redisRevocationStore(redis, { prefix }),
    })
    const a = instance()
    const b = instance()
    const jar = new CookieJar()
    await send(a, jar, consent(op, await startSignIn(a, jar)))
    expect(await sessionUserOf(b, jar)).toMatchObject({ name: "Ada Lovelace" })
    const received = await send(a, new CookieJar(), "/backchannel-logout/op", { form: { logout_token: await op.logoutToken() } })
    expect(received.status).toBe(200)
    expect(await sessionUserOf(b, jar)).toBeNull()
    // A new sign-in after the logout lives on.
    const again = new CookieJar()
    await send(b, again, consent(op, await startSignIn(b, again)))
    expect(await sessionUserOf(a, again)).toMatchObject({ name: "Ada Lovelace" })
  })
})
