/**
 * `session.absoluteMaxAge`: a hard cap since sign-in on top of the sliding `maxAge`, for JWT and
 * database sessions, read through `Auth()` on a controlled clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Credentials from "../../src/providers/credentials.js"
import { metaOfDatabaseToken } from "../../src/core/session-lifetime.js"
import { CookieJar, cookieNames, csrfTokenFor, send } from "../helpers.js"
import { opProvider, standInOP } from "../support/oauth-stand-in.js"
import { consent, startSignIn } from "../support/oauth-harness.js"
import type { AuthConfig } from "../../src/types.js"

const t0 = new Date("2026-06-01T12:00:00.000Z").valueOf()
const at = (seconds: number) => vi.setSystemTime(t0 + seconds * 1000)
const session = { maxAge: 3600, absoluteMaxAge: 5000, updateAge: 0 }

async function read(config: AuthConfig, jar: CookieJar): Promise<{ expires: string } | null> {
  return (await (await send(config, jar, "/session")).json()) as { expires: string } | null
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] })
  at(0)
})
afterEach(() => {
  vi.useRealTimers()
})

const credentials = Credentials({ credentials: { username: {} }, authorize: () => ({ id: "u1", name: "Ada", email: "ada@example.test" }) })

describe("JWT sessions", () => {
  const config: AuthConfig = { secret: "lifetime-secret", trustHost: true, providers: [credentials], session }

  it("slide with maxAge until absoluteMaxAge after sign-in, however often they are read, then end", async () => {
    const jar = new CookieJar()
    await send(config, jar, "/callback/credentials", { form: { csrfToken: await csrfTokenFor(config, jar), username: "ada" } })
    at(1000)
    expect((await read(config, jar))?.expires).toBe(new Date(t0 + 4600_000).toISOString()) // sliding: now + maxAge
    for (const seconds of [2000, 3000, 4000, 4900]) {
      at(seconds)
      expect((await read(config, jar))?.expires).toBe(new Date(t0 + 5000_000).toISOString()) // capped
    }
    at(5001)
    expect(await read(config, jar)).toBeNull()
    expect(jar.get(cookieNames.https.sessionToken)).toBeUndefined()
  })

  it("a session from before the cap (or from Auth.js) does not slide: it ends at its expiry", async () => {
    const uncapped: AuthConfig = { ...config, session: { maxAge: 3600 } }
    const jar = new CookieJar()
    await send(uncapped, jar, "/callback/credentials", { form: { csrfToken: await csrfTokenFor(uncapped, jar), username: "ada" } })
    at(1000)
    expect((await read(config, jar))?.expires).toBe(new Date(t0 + 3600_000).toISOString())
    at(3000)
    expect((await read(config, jar))?.expires).toBe(new Date(t0 + 3600_000).toISOString())
    at(3601)
    expect(await read(config, jar)).toBeNull()
  })

  it("without absoluteMaxAge, a session slides for ever", async () => {
    const uncapped: AuthConfig = { ...config, session: { maxAge: 3600 } }
    const jar = new CookieJar()
    await send(uncapped, jar, "/callback/credentials", { form: { csrfToken: await csrfTokenFor(uncapped, jar), username: "ada" } })
    for (const seconds of [3000, 6000, 9000, 12000]) {
      at(seconds)
      expect((await read(uncapped, jar))?.expires).toBe(new Date(t0 + (seconds + 3600) * 1000).toISOString())
    }
  })
})

describe("database sessions", () => {
  it("carry the sign-in time in their token and end absoluteMaxAge after it, the row deleted", async () => {
    const memory = MemoryAdapter()
    const op = standInOP()
    const config: AuthConfig = { secret: "lifetime-secret", trustHost: true, providers: [opProvider(op)], adapter: memory, session }
    const jar = new CookieJar()
    await send(config, jar, consent(op, await startSignIn(config, jar)))
    const token = jar.get(cookieNames.https.sessionToken)!
    expect(metaOfDatabaseToken(token)).toEqual({ signedInAt: t0, provider: "op" })
    // The body shows the row as read (as Auth.js does); the row gets the new expiry.
    const rowExpires = async () => (await memory.getSessionAndUser(token))?.session.expires.toISOString()
    at(1000)
    expect(await read(config, jar)).not.toBeNull()
    expect(await rowExpires()).toBe(new Date(t0 + 4600_000).toISOString())
    for (const seconds of [2000, 3500, 4900]) {
      at(seconds)
      expect(await read(config, jar)).not.toBeNull()
      expect(await rowExpires()).toBe(new Date(t0 + 5000_000).toISOString())
    }
    at(5001)
    expect(await read(config, jar)).toBeNull()
    expect(await memory.getSessionAndUser(token)).toBeNull()
  })

  it("a token without a sign-in time (Auth.js's) does not slide under a cap", async () => {
    const memory = MemoryAdapter()
    const config: AuthConfig = { secret: "lifetime-secret", trustHost: true, providers: [credentials], adapter: memory, session }
    const user = await memory.createUser({ id: "", name: "Grace", email: "grace@example.test", emailVerified: null })
    await memory.createSession({ sessionToken: "3b241101-e2bb-4255-8caf-4136c566a962", userId: user.id, expires: new Date(t0 + 3600_000) })
    const jar = new CookieJar()
    jar.cookies.set(cookieNames.https.sessionToken, "3b241101-e2bb-4255-8caf-4136c566a962")
    at(3000)
    expect(await read(config, jar)).not.toBeNull()
    expect((await memory.getSessionAndUser("3b241101-e2bb-4255-8caf-4136c566a962"))?.session.expires.toISOString()).toBe(new Date(t0 + 3600_000).toISOString())
    at(3601)
    expect(await read(config, jar)).toBeNull()
  })
})
