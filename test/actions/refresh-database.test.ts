/**
 * Token refresh with database sessions, where the account row is the lock: what a read does when
 * it finds the row claimed by another instance (it waits for the winner's tokens, or reads the
 * failure when the winner put the old ones back), when the claim's holder died (it takes over with
 * the refresh token the marker carries), and when its own claim was taken over during the grant
 * (the new tokens are not written over the other's: RefreshTokenError, not-persisted).
 */
import { describe, expect, it } from "vitest"
import { customFetch } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { AdapterAccount } from "../../src/adapters.js"
import type { AuthConfig, Session } from "../../src/types.js"
import { CookieJar, cookieNames, recordingLogger, send } from "../helpers.js"

const sessionCookie = cookieNames.https.sessionToken
const key = { provider: "op", providerAccountId: "ada" }
const nowSeconds = () => Math.floor(Date.now() / 1000)
const marker = (until: number, refreshToken: string) => `authflow-refreshing:${until}:0123abcd:${refreshToken}`

/** Ada, signed in with a database session, her account row holding `refreshToken` and a due access token. */
async function world(refreshToken: string, onGrant: (body: URLSearchParams) => Promise<void> | void = () => {}) {
  const adapter = MemoryAdapter()
  const grants: URLSearchParams[] = []
  const tokenFetch = (async (_input: string | URL | Request, init?: RequestInit) => {
    const body = new URLSearchParams(String(init?.body))
    grants.push(body)
    await onGrant(body)
    return Response.json({ access_token: "at-2", refresh_token: "rt-2", token_type: "Bearer", expires_in: 3600 })
  }) as typeof fetch
  const { logger, errors } = recordingLogger()
  const failures: { reason: string }[] = []
  const config = {
    secret: "refresh-database-secret",
    trustHost: true,
    logger,
    adapter,
    session: { strategy: "database" },
    refresh: { skew: 60, claimTimeout: 5 },
    events: { tokenRefreshFailed: (message: { reason: string }) => void failures.push(message) },
    providers: [
      { id: "op", name: "OP", type: "oauth", clientId: "c", clientSecret: "s", authorization: "https://op.test/a", token: "https://op.test/token", userinfo: "https://op.test/u", [customFetch]: tokenFetch },
    ],
  } as unknown as AuthConfig
  const user = await adapter.createUser({ id: "", name: "Ada", email: "ada@example.test", emailVerified: null })
  const account: AdapterAccount = { ...key, userId: user.id, type: "oauth", access_token: "at-1", refresh_token: refreshToken, expires_at: nowSeconds() + 10, token_type: "bearer" }
  await adapter.linkAccount(account)
  await adapter.createSession({ sessionToken: "session-1", userId: user.id, expires: new Date(Date.now() + 60_000) })
  const jar = new CookieJar()
  jar.cookies.set(sessionCookie, "session-1")
  const read = async () => (await (await send(config, jar, "/session")).json()) as Session
  const row = async () => (await adapter.getAccount(key.providerAccountId, key.provider))!
  return { adapter, grants, errors, failures, read, row }
}

describe("database sessions: the account row is the lock", () => {
  it("a claim whose holder died is taken over, with the refresh token its marker carries", async () => {
    const w = await world(marker(Date.now() - 1, "rt-1"))
    const session = await w.read()
    expect(session.error).toBeUndefined()
    expect(w.grants.map((grant) => grant.get("refresh_token"))).toEqual(["rt-1"])
    expect(await w.row()).toMatchObject({ access_token: "at-2", refresh_token: "rt-2" })
  })

  it("a live claim of another instance: the read waits and gets the winner's tokens, sending no grant", async () => {
    const held = marker(Date.now() + 5000, "rt-1")
    const w = await world(held)
    const reading = w.read()
    await new Promise((resolve) => setTimeout(resolve, 120))
    expect(await w.adapter.updateAccountTokens(key, held, { access_token: "at-other", refresh_token: "rt-other", expires_at: nowSeconds() + 3600 })).toBe(true)
    const session = await reading
    expect(session.error).toBeUndefined()
    expect(w.grants).toHaveLength(0)
    expect(w.failures).toHaveLength(0)
  })

  it("a live claim whose holder puts the old tokens back (its refresh failed): RefreshTokenError, no grant of its own", async () => {
    const held = marker(Date.now() + 5000, "rt-1")
    const w = await world(held)
    const reading = w.read()
    await new Promise((resolve) => setTimeout(resolve, 120))
    expect(await w.adapter.updateAccountTokens(key, held, { refresh_token: "rt-1" })).toBe(true)
    const session = await reading
    expect(session).toMatchObject({ user: { email: "ada@example.test" }, error: "RefreshTokenError" })
    expect(w.grants).toHaveLength(0)
    // The failure was the other instance's: it reports it, not this one.
    expect(w.failures).toHaveLength(0)
  })

  it("its own claim taken over during the grant: the new tokens are not written over the other's (not-persisted)", async () => {
    const w = await world("rt-1", async () => {
      const claimed = (await w.row()).refresh_token!
      expect(claimed).toMatch(/^authflow-refreshing:\d+:[0-9a-f]+:rt-1$/)
      // Another instance decides the claim is stale and takes it over.
      expect(await w.adapter.updateAccountTokens(key, claimed, { refresh_token: marker(Date.now() + 5000, "rt-1") })).toBe(true)
    })
    const session = await w.read()
    expect(session).toMatchObject({ user: { email: "ada@example.test" }, error: "RefreshTokenError" })
    expect(w.failures).toEqual([expect.objectContaining({ reason: "not-persisted" })])
    expect((await w.row()).access_token).toBe("at-1")
  })
})
