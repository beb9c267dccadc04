/**
 * authflow's adapter conformance suite: one set of behaviours every adapter must show, run against
 * each implementation (memory, SQLite, PostgreSQL). Each test starts from an empty store (`reset`).
 */
import { randomUUID } from "node:crypto"
import type { Kysely } from "kysely"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { AuthflowDatabase } from "../../src/adapters/kysely/index.js"
import { ci } from "../services.js"
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "../../src/adapters.js"

/** What a test file hands the suite: a ready adapter, a way to empty its store, and cleanup. */
/** The tables `migrateToLatest` leaves in a fresh database, sorted: authflow's five and its migration bookkeeping. */
export const migratedTables = ["accounts", "authenticators", "authflow_migration", "authflow_migration_lock", "sessions", "users", "verification_tokens"]

/**
 * Declares `suites` for a database server whose probe answered `unreachable` (null: it answered).
 * When it did not: with CI set, one failing test under `service`; without, a skipped suite titled
 * `skipTitle` (which says how to start the server), and the reason on the console.
 */
export function describeOnDatabase(service: string, unreachable: string | null, skipTitle: string, suites: () => void): void {
  if (unreachable && ci) {
    describe(service, () => {
      it("is reachable (required when CI is set)", () => {
        throw new Error(`${skipTitle}. CI is set, so they fail instead of being skipped. Probe error: ${unreachable}`)
      })
    })
  } else if (unreachable) {
    console.warn(`${skipTitle} (probe error: ${unreachable})`)
    describe.skip(skipTitle, () => {
      it("runs the adapter conformance suite and the migration tests", () => {})
    })
  } else suites()
}

export interface AdapterUnderTest {
  adapter: Required<Adapter>
  /** Deletes every row; runs before each test. */
  reset(): Promise<void>
  /** Releases connections and files; runs once at the end. */
  close(): Promise<void>
  /**
   * The session row as the database holds it, read around the adapter (what Auth.js's adapter
   * suite's `db.session` reads), with the contract's field names; null when there is none. A store
   * that can only be read through the adapter (memory) has none.
   */
  storedSession?(sessionToken: string): Promise<AdapterSession | null>
}

/**
 * {@link AdapterUnderTest.storedSession} for the SQL adapter's `sessions` table, on any dialect.
 *
 * @example
 * ```ts
 * return { adapter: KyselyAdapter(db), storedSession: sessionRowOf(db), reset, close }
 * ```
 */
export function sessionRowOf(db: Kysely<AuthflowDatabase>): (sessionToken: string) => Promise<AdapterSession | null> {
  return async (sessionToken) => {
    const row = await db.selectFrom("sessions").selectAll().where("session_token", "=", sessionToken).executeTakeFirst()
    return row ? { id: row.id, sessionToken: row.session_token, userId: row.user_id, expires: new Date(row.expires) } : null
  }
}

const HOUR = 60 * 60 * 1000
/** A moment with milliseconds, to catch storage that truncates to seconds. */
const inOneDay = () => new Date(Math.floor(Date.now() / 1000) * 1000 + 24 * HOUR + 123)

function newUser(overrides: Partial<AdapterUser> = {}): AdapterUser {
  const id = randomUUID()
  return {
    id,
    name: `User ${id.slice(0, 8)}`,
    email: `${id}@example.test`,
    emailVerified: new Date("2025-03-04T05:06:07.089Z"),
    image: `https://img.example.test/${id}.png`,
    ...overrides,
  }
}

function newAccount(userId: string, overrides: Partial<AdapterAccount> = {}): AdapterAccount {
  return {
    userId,
    type: "oauth",
    provider: "github",
    providerAccountId: randomUUID(),
    access_token: "gho_access",
    refresh_token: "ghr_refresh",
    expires_at: 1_893_456_000,
    token_type: "bearer",
    scope: "read:user user:email",
    id_token: "eyJhbGciOiJub25lIn0.e30.",
    session_state: "state-1",
    ...overrides,
  }
}

function newSession(userId: string, overrides: Partial<AdapterSession> = {}): AdapterSession {
  return { sessionToken: randomUUID(), userId, expires: inOneDay(), ...overrides }
}

function newVerificationToken(overrides: Partial<VerificationToken> = {}): VerificationToken {
  return { identifier: `${randomUUID()}@example.test`, token: randomUUID().replaceAll("-", ""), expires: inOneDay(), ...overrides }
}

function newAuthenticator(userId: string, overrides: Partial<AdapterAuthenticator> = {}): AdapterAuthenticator {
  const credentialID = randomUUID()
  return {
    userId,
    providerAccountId: credentialID,
    credentialID,
    credentialPublicKey: "pQECAyYgASFYIA",
    counter: 0,
    credentialBackedUp: true,
    credentialDeviceType: "multiDevice",
    transports: "internal,hybrid",
    ...overrides,
  }
}

/**
 * Registers the conformance tests for one adapter. `setup` runs once; `reset` before every test.
 */
export function describeAdapterConformance(name: string, setup: () => Promise<AdapterUnderTest>): void {
  describe(`${name} adapter conformance`, () => {
    let subject: AdapterUnderTest | undefined
    let adapter: Required<Adapter>

    beforeAll(async () => {
      subject = await setup()
      adapter = subject.adapter
    })
    beforeEach(async () => {
      await subject!.reset()
    })
    afterAll(async () => {
      await subject?.close()
    })

    describe("users", () => {
      it("createUser returns the user with its id, and getUser finds it", async () => {
        const user = newUser()
        const created = await adapter.createUser(user)
        expect(created).toEqual(user)
        expect(await adapter.getUser(user.id)).toEqual(user)
      })

      it("createUser generates an id when given an empty one", async () => {
        const created = await adapter.createUser(newUser({ id: "" }))
        expect(created.id).toMatch(/^[0-9a-f-]{36}$/)
        expect((await adapter.getUser(created.id))?.email).toBe(created.email)
      })

      it("stores absent name and image as null, and a null emailVerified as null", async () => {
        const id = randomUUID()
        const created = await adapter.createUser({ id, email: `${id}@example.test`, emailVerified: null })
        expect(created).toEqual({ id, email: `${id}@example.test`, emailVerified: null, name: null, image: null })
        expect(await adapter.getUser(id)).toEqual(created)
      })

      it("getUser and getUserByEmail give null for unknown values", async () => {
        await adapter.createUser(newUser())
        expect(await adapter.getUser(randomUUID())).toBeNull()
        expect(await adapter.getUserByEmail("nobody@example.test")).toBeNull()
      })

      it("getUserByEmail finds the user with exactly that email", async () => {
        const user = await adapter.createUser(newUser())
        await adapter.createUser(newUser())
        expect(await adapter.getUserByEmail(user.email)).toEqual(user)
      })

      it("rejects a second user with the same email", async () => {
        const user = await adapter.createUser(newUser())
        await expect(adapter.createUser(newUser({ email: user.email }))).rejects.toThrow()
        expect((await adapter.getUserByEmail(user.email))?.id).toBe(user.id)
      })

      it("updateUser changes the given fields only and returns the updated user", async () => {
        const user = await adapter.createUser(newUser())
        const verifiedAt = new Date("2026-02-03T04:05:06.789Z")
        const updated = await adapter.updateUser({ id: user.id, name: "Renamed", emailVerified: verifiedAt })
        const expected = { ...user, name: "Renamed", emailVerified: verifiedAt }
        expect(updated).toEqual(expected)
        expect(await adapter.getUser(user.id)).toEqual(expected)
      })

      it("updateUser can clear a nullable field", async () => {
        const user = await adapter.createUser(newUser())
        const updated = await adapter.updateUser({ id: user.id, image: null, emailVerified: null })
        expect(updated.image).toBeNull()
        expect(updated.emailVerified).toBeNull()
        expect(await adapter.getUser(user.id)).toEqual({ ...user, image: null, emailVerified: null })
      })

      it("updateUser rejects an unknown id and creates nothing", async () => {
        const id = randomUUID()
        await expect(adapter.updateUser({ id, name: "Ghost" })).rejects.toThrow()
        expect(await adapter.getUser(id)).toBeNull()
      })

      it("updateUser rejects taking another user's email", async () => {
        const first = await adapter.createUser(newUser())
        const second = await adapter.createUser(newUser())
        await expect(adapter.updateUser({ id: second.id, email: first.email })).rejects.toThrow()
        expect((await adapter.getUser(second.id))?.email).toBe(second.email)
      })
    })

    describe("accounts", () => {
      it("linkAccount stores the account; getAccount and getUserByAccount find it", async () => {
        const user = await adapter.createUser(newUser())
        const account = newAccount(user.id)
        const linked = await adapter.linkAccount(account)
        expect(linked).toEqual(account)
        expect(await adapter.getAccount(account.providerAccountId, account.provider)).toEqual(account)
        expect(await adapter.getUserByAccount(account)).toEqual(user)
      })

      it("keeps expires_at a number and leaves absent token fields out", async () => {
        const user = await adapter.createUser(newUser())
        const minimal: AdapterAccount = { userId: user.id, type: "oidc", provider: "google", providerAccountId: "108", expires_at: 4_294_967_296 }
        await adapter.linkAccount(minimal)
        const found = await adapter.getAccount("108", "google")
        expect(found).toEqual(minimal)
        expect(typeof found?.expires_at).toBe("number")
        expect(found).not.toHaveProperty("access_token")
      })

      it("getAccount takes (providerAccountId, provider) and gives null otherwise", async () => {
        const user = await adapter.createUser(newUser())
        const account = await adapter.linkAccount(newAccount(user.id, { provider: "gitlab", providerAccountId: "7" }))
        expect(account).toBeTruthy()
        expect(await adapter.getAccount("7", "gitlab")).not.toBeNull()
        expect(await adapter.getAccount("gitlab", "7")).toBeNull()
        expect(await adapter.getAccount("8", "gitlab")).toBeNull()
      })

      it("getUserByAccount gives null for an unknown provider account", async () => {
        const user = await adapter.createUser(newUser())
        await adapter.linkAccount(newAccount(user.id, { provider: "github", providerAccountId: "1" }))
        expect(await adapter.getUserByAccount({ provider: "github", providerAccountId: "2" })).toBeNull()
        expect(await adapter.getUserByAccount({ provider: "gitlab", providerAccountId: "1" })).toBeNull()
      })

      it("rejects linking the same provider account twice, to any user", async () => {
        const first = await adapter.createUser(newUser())
        const second = await adapter.createUser(newUser())
        const account = newAccount(first.id)
        await adapter.linkAccount(account)
        await expect(adapter.linkAccount({ ...account })).rejects.toThrow()
        await expect(adapter.linkAccount({ ...account, userId: second.id })).rejects.toThrow()
        expect((await adapter.getUserByAccount(account))?.id).toBe(first.id)
      })

      it("allows the same providerAccountId at another provider, and several accounts per user", async () => {
        const user = await adapter.createUser(newUser())
        await adapter.linkAccount(newAccount(user.id, { provider: "github", providerAccountId: "99" }))
        await adapter.linkAccount(newAccount(user.id, { provider: "gitlab", providerAccountId: "99" }))
        expect((await adapter.getUserByAccount({ provider: "github", providerAccountId: "99" }))?.id).toBe(user.id)
        expect((await adapter.getUserByAccount({ provider: "gitlab", providerAccountId: "99" }))?.id).toBe(user.id)
      })

      it("rejects an account for an unknown user", async () => {
        const account = newAccount(randomUUID())
        await expect(adapter.linkAccount(account)).rejects.toThrow()
        expect(await adapter.getAccount(account.providerAccountId, account.provider)).toBeNull()
      })

      it("unlinkAccount removes the link and returns it; an unknown one gives nothing", async () => {
        const user = await adapter.createUser(newUser())
        const account = newAccount(user.id)
        await adapter.linkAccount(account)
        expect(await adapter.unlinkAccount(account)).toEqual(account)
        expect(await adapter.getUserByAccount(account)).toBeNull()
        expect(await adapter.getAccount(account.providerAccountId, account.provider)).toBeNull()
        expect(await adapter.getUser(user.id)).toEqual(user)
        expect(await adapter.unlinkAccount(account)).toBeFalsy()
      })

      it("can link the provider account again after unlinking it", async () => {
        const first = await adapter.createUser(newUser())
        const second = await adapter.createUser(newUser())
        const account = newAccount(first.id)
        await adapter.linkAccount(account)
        await adapter.unlinkAccount(account)
        await adapter.linkAccount({ ...account, userId: second.id })
        expect((await adapter.getUserByAccount(account))?.id).toBe(second.id)
      })
    })

    describe("account tokens (token refresh)", () => {
      it("listAccountsByUserId lists that user's accounts only, an empty array for none", async () => {
        const user = await adapter.createUser(newUser())
        const other = await adapter.createUser(newUser())
        const github = newAccount(user.id, { provider: "github", providerAccountId: "1" })
        const gitlab = newAccount(user.id, { provider: "gitlab", providerAccountId: "2" })
        await adapter.linkAccount(gitlab)
        await adapter.linkAccount(github)
        await adapter.linkAccount(newAccount(other.id, { provider: "github", providerAccountId: "3" }))
        expect(await adapter.listAccountsByUserId(user.id)).toEqual([github, gitlab])
        expect(await adapter.listAccountsByUserId(randomUUID())).toEqual([])
      })

      it("updateAccountTokens changes the tokens only while the refresh token is the expected one", async () => {
        const user = await adapter.createUser(newUser())
        const account = newAccount(user.id)
        await adapter.linkAccount(account)
        const key = { provider: account.provider, providerAccountId: account.providerAccountId }
        const rotated = { access_token: "gho_new", refresh_token: "ghr_new", expires_at: 1_893_459_600, id_token: "eyJ.new." }
        expect(await adapter.updateAccountTokens(key, "ghr_wrong", rotated)).toBe(false)
        expect(await adapter.getAccount(account.providerAccountId, account.provider)).toEqual(account)
        expect(await adapter.updateAccountTokens(key, account.refresh_token!, rotated)).toBe(true)
        expect(await adapter.getAccount(account.providerAccountId, account.provider)).toEqual({ ...account, ...rotated })
        // The old refresh token no longer matches: a second swap from it fails.
        expect(await adapter.updateAccountTokens(key, account.refresh_token!, { refresh_token: "ghr_other" })).toBe(false)
        expect(await adapter.updateAccountTokens({ ...key, providerAccountId: "unknown" }, "ghr_new", { refresh_token: "x" })).toBe(false)
      })

      it("of 20 parallel compare-and-sets from one refresh token, exactly one wins", async () => {
        const user = await adapter.createUser(newUser())
        const account = newAccount(user.id)
        await adapter.linkAccount(account)
        const key = { provider: account.provider, providerAccountId: account.providerAccountId }
        const results = await Promise.all(Array.from({ length: 20 }, (_, index) => adapter.updateAccountTokens(key, account.refresh_token!, { refresh_token: `ghr_${index}` })))
        expect(results.filter(Boolean)).toHaveLength(1)
        const winner = results.indexOf(true)
        expect((await adapter.getAccount(account.providerAccountId, account.provider))?.refresh_token).toBe(`ghr_${winner}`)
      })
    })

    describe("sessions", () => {
      it("createSession and getSessionAndUser return the session row as stored, its id included (as Auth.js's adapter suite expects)", async () => {
        const user = await adapter.createUser(newUser())
        const session = newSession(user.id)
        const created = await adapter.createSession(session)
        const row = subject!.storedSession ? await subject!.storedSession(session.sessionToken) : created
        expect(row).toEqual({ ...session, id: expect.any(String) })
        expect(created).toEqual(row)
        expect(await adapter.getSessionAndUser(session.sessionToken)).toEqual({ session: row, user })
        // The id is the row's own, generated by the store: a second session has another.
        const other = await adapter.createSession(newSession(user.id))
        expect(other.id).not.toBe(row!.id)
      })

      it("getSessionAndUser gives null for an unknown token", async () => {
        const user = await adapter.createUser(newUser())
        await adapter.createSession(newSession(user.id))
        expect(await adapter.getSessionAndUser(randomUUID())).toBeNull()
      })

      it("updateSession changes expires and returns the updated session", async () => {
        const user = await adapter.createUser(newUser())
        const session = await adapter.createSession(newSession(user.id))
        const expires = new Date(session.expires.getTime() + 7 * 24 * HOUR)
        const updated = await adapter.updateSession({ sessionToken: session.sessionToken, expires })
        expect(updated).toEqual({ ...session, expires })
        expect((await adapter.getSessionAndUser(session.sessionToken))?.session.expires).toEqual(expires)
      })

      it("updateSession gives nothing for an unknown token and creates nothing", async () => {
        const token = randomUUID()
        expect(await adapter.updateSession({ sessionToken: token, expires: inOneDay() })).toBeFalsy()
        expect(await adapter.getSessionAndUser(token)).toBeNull()
      })

      it("deleteSession removes the session, returns it, and leaves the others", async () => {
        const user = await adapter.createUser(newUser())
        const kept = await adapter.createSession(newSession(user.id))
        const session = await adapter.createSession(newSession(user.id))
        expect(await adapter.deleteSession(session.sessionToken)).toEqual(session)
        expect(await adapter.getSessionAndUser(session.sessionToken)).toBeNull()
        expect(await adapter.getSessionAndUser(kept.sessionToken)).not.toBeNull()
        expect(await adapter.deleteSession(session.sessionToken)).toBeFalsy()
      })

      it("rejects a reused session token", async () => {
        const first = await adapter.createUser(newUser())
        const second = await adapter.createUser(newUser())
        const session = await adapter.createSession(newSession(first.id))
        await expect(adapter.createSession({ ...session, userId: second.id })).rejects.toThrow()
        expect((await adapter.getSessionAndUser(session.sessionToken))?.user.id).toBe(first.id)
      })

      it("rejects a session for an unknown user", async () => {
        const session = newSession(randomUUID())
        await expect(adapter.createSession(session)).rejects.toThrow()
        expect(await adapter.getSessionAndUser(session.sessionToken)).toBeNull()
      })
    })

    describe("verification tokens", () => {
      it("createVerificationToken returns exactly the token; useVerificationToken returns it once", async () => {
        const token = newVerificationToken()
        expect(await adapter.createVerificationToken(token)).toEqual(token)
        const used = await adapter.useVerificationToken(token)
        expect(used).toEqual(token)
        expect(Object.keys(used!).sort()).toEqual(["expires", "identifier", "token"])
        expect(await adapter.useVerificationToken(token)).toBeNull()
      })

      it("a wrong identifier or token gives null and does not consume the token", async () => {
        const token = await adapter.createVerificationToken(newVerificationToken())
        expect(await adapter.useVerificationToken({ identifier: "other@example.test", token: token!.token })).toBeNull()
        expect(await adapter.useVerificationToken({ identifier: token!.identifier, token: "wrong" })).toBeNull()
        expect(await adapter.useVerificationToken(token!)).toEqual(token)
      })

      it("returns an expired token as it is: checking expiry is the caller's job", async () => {
        const expired = newVerificationToken({ expires: new Date(Date.now() - HOUR) })
        await adapter.createVerificationToken(expired)
        expect(await adapter.useVerificationToken(expired)).toEqual(expired)
        expect(await adapter.useVerificationToken(expired)).toBeNull()
      })

      it("keys tokens by (identifier, token): the same token for two identifiers is two tokens", async () => {
        const first = newVerificationToken()
        const second = { ...newVerificationToken(), token: first.token }
        await adapter.createVerificationToken(first)
        await adapter.createVerificationToken(second)
        await expect(adapter.createVerificationToken({ ...first })).rejects.toThrow()
        expect(await adapter.useVerificationToken(first)).toEqual(first)
        expect(await adapter.useVerificationToken(second)).toEqual(second)
      })
    })

    describe("authenticators", () => {
      it("createAuthenticator returns it; getAuthenticator finds it with its types intact", async () => {
        const user = await adapter.createUser(newUser())
        const authenticator = newAuthenticator(user.id)
        expect(await adapter.createAuthenticator(authenticator)).toEqual(authenticator)
        const found = await adapter.getAuthenticator(authenticator.credentialID)
        expect(found).toEqual(authenticator)
        expect(found?.credentialBackedUp).toBe(true)
        expect(typeof found?.counter).toBe("number")
      })

      it("keeps false and absent values distinct from true and present ones", async () => {
        const user = await adapter.createUser(newUser())
        const { transports: _, ...withoutTransports } = newAuthenticator(user.id, { credentialBackedUp: false, credentialDeviceType: "singleDevice" })
        const created = await adapter.createAuthenticator(withoutTransports)
        expect(created.credentialBackedUp).toBe(false)
        expect(created.transports ?? null).toBeNull()
        expect(await adapter.getAuthenticator(withoutTransports.credentialID)).toEqual({ ...withoutTransports, transports: null })
      })

      it("getAuthenticator gives null for an unknown credential ID", async () => {
        const user = await adapter.createUser(newUser())
        await adapter.createAuthenticator(newAuthenticator(user.id))
        expect(await adapter.getAuthenticator(randomUUID())).toBeNull()
      })

      it("listAuthenticatorsByUserId lists that user's authenticators only", async () => {
        const owner = await adapter.createUser(newUser())
        const other = await adapter.createUser(newUser())
        const mine = [newAuthenticator(owner.id), newAuthenticator(owner.id)]
        for (const a of [...mine, newAuthenticator(other.id)]) await adapter.createAuthenticator(a)
        const listed = await adapter.listAuthenticatorsByUserId(owner.id)
        const byId = (a: AdapterAuthenticator, b: AdapterAuthenticator) => a.credentialID.localeCompare(b.credentialID)
        expect([...listed].sort(byId)).toEqual([...mine].sort(byId))
        expect(await adapter.listAuthenticatorsByUserId(randomUUID())).toEqual([])
      })

      it("updateAuthenticatorCounter stores the new counter, up to 2^32 - 1", async () => {
        const user = await adapter.createUser(newUser())
        const authenticator = await adapter.createAuthenticator(newAuthenticator(user.id, { counter: 5 }))
        const updated = await adapter.updateAuthenticatorCounter(authenticator.credentialID, 4_294_967_295)
        expect(updated).toEqual({ ...authenticator, counter: 4_294_967_295 })
        expect((await adapter.getAuthenticator(authenticator.credentialID))?.counter).toBe(4_294_967_295)
      })

      it("updateAuthenticatorCounter throws for an unknown credential ID", async () => {
        const id = randomUUID()
        await expect(adapter.updateAuthenticatorCounter(id, 1)).rejects.toThrow()
        expect(await adapter.getAuthenticator(id)).toBeNull()
      })

      it("rejects a duplicate credential ID and an unknown user", async () => {
        const user = await adapter.createUser(newUser())
        const authenticator = await adapter.createAuthenticator(newAuthenticator(user.id))
        await expect(adapter.createAuthenticator({ ...authenticator, counter: 9 })).rejects.toThrow()
        const orphan = newAuthenticator(randomUUID())
        await expect(adapter.createAuthenticator(orphan)).rejects.toThrow()
        expect(await adapter.getAuthenticator(orphan.credentialID)).toBeNull()
        expect((await adapter.getAuthenticator(authenticator.credentialID))?.counter).toBe(0)
      })
    })

    describe("deleting a user", () => {
      it("deletes the user's sessions, accounts and authenticators, and nobody else's", async () => {
        const user = await adapter.createUser(newUser())
        const other = await adapter.createUser(newUser())
        const session = await adapter.createSession(newSession(user.id))
        const account = newAccount(user.id)
        await adapter.linkAccount(account)
        const authenticator = await adapter.createAuthenticator(newAuthenticator(user.id))
        const otherSession = await adapter.createSession(newSession(other.id))
        const otherAccount = newAccount(other.id)
        await adapter.linkAccount(otherAccount)
        const otherAuthenticator = await adapter.createAuthenticator(newAuthenticator(other.id))

        const deleted = await adapter.deleteUser(user.id)
        expect(deleted).toEqual(user)

        expect(await adapter.getUser(user.id)).toBeNull()
        expect(await adapter.getUserByEmail(user.email)).toBeNull()
        expect(await adapter.getSessionAndUser(session.sessionToken)).toBeNull()
        expect(await adapter.getUserByAccount(account)).toBeNull()
        expect(await adapter.getAccount(account.providerAccountId, account.provider)).toBeNull()
        expect(await adapter.getAuthenticator(authenticator.credentialID)).toBeNull()
        expect(await adapter.listAuthenticatorsByUserId(user.id)).toEqual([])

        expect(await adapter.getSessionAndUser(otherSession.sessionToken)).toEqual({ session: otherSession, user: other })
        expect(await adapter.getUserByAccount(otherAccount)).toEqual(other)
        expect(await adapter.getAuthenticator(otherAuthenticator.credentialID)).toEqual(otherAuthenticator)
      })

      it("frees the email, session token and provider account for reuse", async () => {
        const user = await adapter.createUser(newUser())
        const session = await adapter.createSession(newSession(user.id))
        const account = newAccount(user.id)
        await adapter.linkAccount(account)
        await adapter.deleteUser(user.id)
        const again = await adapter.createUser(newUser({ email: user.email }))
        await adapter.createSession({ ...session, userId: again.id })
        await adapter.linkAccount({ ...account, userId: again.id })
        expect((await adapter.getSessionAndUser(session.sessionToken))?.user.id).toBe(again.id)
        expect((await adapter.getUserByAccount(account))?.id).toBe(again.id)
      })

      it("gives nothing for an unknown id and deletes nothing", async () => {
        const user = await adapter.createUser(newUser())
        expect(await adapter.deleteUser(randomUUID())).toBeFalsy()
        expect(await adapter.getUser(user.id)).toEqual(user)
      })
    })

    describe("values", () => {
      it("returns every date as a Date at the same instant", async () => {
        const user = await adapter.createUser(newUser())
        const session = await adapter.createSession(newSession(user.id))
        const token = newVerificationToken()
        const created = (await adapter.createVerificationToken(token))!
        const read = (await adapter.getSessionAndUser(session.sessionToken))!
        const used = (await adapter.useVerificationToken(token))!
        const dates = [user.emailVerified, session.expires, created.expires, read.session.expires, read.user.emailVerified, used.expires]
        for (const date of dates) expect(date).toBeInstanceOf(Date)
        expect(read.session.expires.getTime()).toBe(session.expires.getTime())
        expect(used.expires.getTime()).toBe(token.expires.getTime())
        expect(read.user.emailVerified!.toISOString()).toBe("2025-03-04T05:06:07.089Z")
      })

      it("shares no mutable state with its callers", async () => {
        const input = newUser()
        const user = await adapter.createUser(input)
        input.name = "changed after create"
        input.emailVerified!.setTime(0)
        user.name = "changed on the result"
        user.emailVerified!.setTime(0)
        const read = await adapter.getUser(user.id)
        expect(read?.name).toMatch(/^User /)
        expect(read?.emailVerified?.toISOString()).toBe("2025-03-04T05:06:07.089Z")

        const session = await adapter.createSession(newSession(user.id))
        const expires = session.expires.getTime()
        ;(await adapter.getSessionAndUser(session.sessionToken))!.session.expires.setTime(0)
        expect((await adapter.getSessionAndUser(session.sessionToken))!.session.expires.getTime()).toBe(expires)

        const authenticator = await adapter.createAuthenticator(newAuthenticator(user.id))
        ;(await adapter.listAuthenticatorsByUserId(user.id))[0]!.counter = 77
        expect((await adapter.getAuthenticator(authenticator.credentialID))?.counter).toBe(0)
      })

      it("stores text as given: unicode, quotes and SQL-looking values", async () => {
        const name = `Zoë O'Brien "; DROP TABLE users; -- 🚀`
        const user = await adapter.createUser(newUser({ name }))
        expect((await adapter.getUser(user.id))?.name).toBe(name)
        expect(await adapter.getUserByEmail(`' OR '1'='1`)).toBeNull()
      })
    })

    describe("concurrency", () => {
      it("of 20 parallel useVerificationToken calls for one token, exactly one gets it", async () => {
        const token = newVerificationToken()
        await adapter.createVerificationToken(token)
        const results = await Promise.all(Array.from({ length: 20 }, () => adapter.useVerificationToken({ ...token })))
        const winners = results.filter((result) => result !== null)
        expect(winners).toHaveLength(1)
        expect(winners[0]).toEqual(token)
        expect(await adapter.useVerificationToken(token)).toBeNull()
      })

      it("50 parallel createSession calls all succeed and all can be read back", async () => {
        const user = await adapter.createUser(newUser())
        const sessions = Array.from({ length: 50 }, () => newSession(user.id))
        const created = await Promise.all(sessions.map((session) => adapter.createSession(session)))
        expect(created).toEqual(sessions.map((session) => ({ ...session, id: expect.any(String) })))
        expect(new Set(created.map((session) => session.id)).size).toBe(50)
        const read = await Promise.all(sessions.map((session) => adapter.getSessionAndUser(session.sessionToken)))
        expect(read.map((found) => found?.session.sessionToken)).toEqual(sessions.map((session) => session.sessionToken))
        expect(new Set(read.map((found) => found?.user.id))).toEqual(new Set([user.id]))
      })

      it("of 10 parallel links of one provider account, exactly one succeeds", async () => {
        const users = await Promise.all(Array.from({ length: 10 }, () => adapter.createUser(newUser())))
        const providerAccountId = randomUUID()
        const outcomes = await Promise.allSettled(users.map((user) => adapter.linkAccount(newAccount(user.id, { providerAccountId }))))
        expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1)
        const owner = await adapter.getUserByAccount({ provider: "github", providerAccountId })
        expect(users.map((user) => user.id)).toContain(owner?.id)
      })
    })
  })
}
