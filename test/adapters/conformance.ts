/**
 * authflow's adapter conformance suite: one set of behaviours every adapter must show, run against
 * each implementation (memory, SQLite, PostgreSQL, MariaDB). Each test starts from an empty store (`reset`).
 */
import { randomUUID } from "node:crypto"
import type { Kysely } from "kysely"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { KyselyAdapter, migrateToLatest, type AuthflowDatabase } from "../../src/adapters/kysely/index.js"
import { ci } from "../services.js"
import Password from "../../src/providers/password.js"
import type { PasswordMail } from "../../src/base-types.js"
import { CookieJar, csrfTokenFor, send } from "../helpers.js"
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterFactor,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "../../src/adapters.js"

/** What a test file hands the suite: a ready adapter, a way to empty its store, and cleanup. */
/** The tables `migrateToLatest` leaves in a fresh database, sorted: authflow's seven and its migration bookkeeping. */
export const migratedTables = [
  "accounts", "authenticators", "authflow_migration", "authflow_migration_lock", "backup_codes", "factors", "sessions", "users", "verification_tokens",
]

/** The migrations a fresh database gets, in order, as `migrateToLatest` reports them. */
export const allMigrations = [["0001_initial", "Success"], ["0002_second_factor", "Success"]]

/**
 * Checks that a database the first release migrated (`0001_initial` only: no second factor's
 * tables), holding a user, migrates forward: `migrateToLatest` applies `0002_second_factor` alone,
 * keeps the user, and the new tables work. `database` is a fresh, empty one, dropped at the end. It
 * is migrated, then turned back into the first release's by dropping what `0002_second_factor`
 * added (0001 is the first release's migration unchanged, so that is the schema the release left).
 */
export async function expectMigratesForwardFromFirstRelease({ db, drop }: { db: Kysely<AuthflowDatabase>; drop(): Promise<void> }): Promise<void> {
  try {
    await migrateToLatest(db)
    await db.schema.dropTable("backup_codes").execute()
    await db.schema.dropTable("factors").execute()
    await (db as unknown as Kysely<{ authflow_migration: { name: string } }>).deleteFrom("authflow_migration").where("name", "=", "0002_second_factor").execute()
    const adapter = KyselyAdapter(db)
    const user = await adapter.createUser(newUser())

    const applied = await migrateToLatest(db)
    expect(applied.map((m) => [m.migrationName, m.status])).toEqual([["0002_second_factor", "Success"]])
    expect(await migrateToLatest(db)).toEqual([])
    expect(await adapter.getUser(user.id)).toEqual(user)
    const factor = newFactor(user.id)
    expect(await adapter.createFactor(factor)).toEqual(factor)
    await adapter.replaceBackupCodes(user.id, ["h1", "h2"])
    expect(await adapter.countBackupCodes(user.id)).toBe(2)
  } finally {
    await drop()
  }
}

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

/** A TOTP factor as authflow writes it: a sealed secret (opaque to the adapter), created a second ago. */
function newFactor(userId: string, overrides: Partial<AdapterFactor> = {}): AdapterFactor {
  return {
    id: randomUUID(),
    userId,
    type: "totp",
    name: "Phone",
    secret: `eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..${randomUUID()}.${"x".repeat(120)}.tag`,
    algorithm: "SHA-1",
    digits: 6,
    period: 30,
    lastUsedStep: null,
    createdAt: new Date(Math.floor(Date.now() / 1000) * 1000 - 1000 + 123),
    ...overrides,
  }
}

/** `count` backup code hashes (hex, as a SHA-256 would give), distinct between calls. */
function newCodeHashes(count = 10): string[] {
  return Array.from({ length: count }, () => randomUUID().replaceAll("-", "").repeat(2))
}

/** A TOTP time step of today (30-second steps since 1970: about 59 million). */
const stepNow = () => Math.floor(Date.now() / 30_000)

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

    describe("password accounts (the Password provider, through Auth())", () => {
      it("deleteUserSessions deletes every session of that user and no one else's", async () => {
        const user = await adapter.createUser(newUser())
        const other = await adapter.createUser(newUser())
        const sessions = [await adapter.createSession(newSession(user.id)), await adapter.createSession(newSession(user.id))]
        const kept = await adapter.createSession(newSession(other.id))
        await adapter.deleteUserSessions(user.id)
        for (const session of sessions) expect(await adapter.getSessionAndUser(session.sessionToken)).toBeNull()
        expect((await adapter.getSessionAndUser(kept.sessionToken))?.user.id).toBe(other.id)
      })

      it("signs up, signs in, resets the password by the mailed link (ending the other sessions) and signs in with the new one", async () => {
        const mails: PasswordMail[] = []
        const config = {
          secret: "adapter-conformance-password-secret",
          trustHost: true,
          adapter,
          session: { strategy: "database" as const },
          providers: [Password({ hashing: { scrypt: { ln: 10 } }, sendMail: (mail) => void mails.push(mail) })],
        }
        const email = `${randomUUID()}@example.test`
        const form = async (jar: CookieJar, path: string, fields: Record<string, string>) => send(config, jar, path, { form: { csrfToken: await csrfTokenFor(config, jar), callbackUrl: "https://app.test/home", ...fields } })
        const signedIn = async (jar: CookieJar) => ((await (await send(config, jar, "/session")).json()) as { user?: { email?: string } } | null)?.user?.email

        const laptop = new CookieJar()
        expect((await form(laptop, "/signup/password", { email, password: "the first password" })).headers.get("location")).toBe("https://app.test/home")
        expect(await signedIn(laptop)).toBe(email)
        const user = (await adapter.getUserByEmail(email))!
        // The hash lives in the account row of provider "password", in refresh_token, as a PHC string.
        expect((await adapter.getAccount(user.id, "password"))?.refresh_token).toMatch(/^\$scrypt\$/)
        const phone = new CookieJar()
        await form(phone, "/callback/password", { email, password: "the first password" })
        expect(await signedIn(phone)).toBe(email)

        await form(new CookieJar(), "/forgot-password/password", { email })
        const mail = mails.find((candidate) => candidate.kind === "reset-password") as Extract<PasswordMail, { kind: "reset-password" }>
        const token = new URL(mail.url).searchParams.get("token")!
        const elsewhere = new CookieJar()
        expect((await form(elsewhere, "/reset-password/password", { token, password: "the second password" })).headers.get("location")).toBe("https://app.test/auth/signin?notice=password-reset")
        // Both sessions are gone from the store; the link is used up.
        expect(await signedIn(laptop)).toBeUndefined()
        expect(await signedIn(phone)).toBeUndefined()
        expect((await form(elsewhere, "/reset-password/password", { token, password: "a third password" })).headers.get("location")).toBe("https://app.test/auth/signin?error=PasswordLinkInvalid")

        const refused = new CookieJar()
        expect((await form(refused, "/callback/password", { email, password: "the first password" })).headers.get("location")).toContain("error=CredentialsSignin")
        const back = new CookieJar()
        await form(back, "/callback/password", { email, password: "the second password" })
        expect(await signedIn(back)).toBe(email)
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

    describe("second factors", () => {
      it("createFactor returns the factor; listFactorsByUserId finds it with its types intact", async () => {
        const user = await adapter.createUser(newUser())
        const factor = newFactor(user.id, { name: "Zoë's phone 🚀", algorithm: "SHA-512", digits: 8, period: 60 })
        expect(await adapter.createFactor(factor)).toEqual(factor)
        const [found] = await adapter.listFactorsByUserId(user.id)
        expect(found).toEqual(factor)
        expect(found!.createdAt).toBeInstanceOf(Date)
        expect(found!.lastUsedStep).toBeNull()
        expect([typeof found!.digits, typeof found!.period]).toEqual(["number", "number"])
      })

      it("keeps a stored lastUsedStep a number, beyond 32 bits too", async () => {
        const user = await adapter.createUser(newUser())
        const today = await adapter.createFactor(newFactor(user.id, { lastUsedStep: stepNow() }))
        const far = await adapter.createFactor(newFactor(user.id, { lastUsedStep: 2 ** 40 + 1 }))
        const listed = await adapter.listFactorsByUserId(user.id)
        expect(listed.map((factor) => factor.lastUsedStep).sort()).toEqual([today.lastUsedStep, far.lastUsedStep].sort())
        for (const factor of listed) expect(typeof factor.lastUsedStep).toBe("number")
      })

      it("listFactorsByUserId lists that user's factors only, oldest first (ties by id); an empty array for none", async () => {
        const user = await adapter.createUser(newUser())
        const other = await adapter.createUser(newUser())
        const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds, 456))
        const [lowId, highId] = [randomUUID(), randomUUID()].sort()
        const newest = newFactor(user.id, { name: "Tablet", createdAt: at(30) })
        const oldest = newFactor(user.id, { name: "Phone", createdAt: at(10) })
        const tiedHigh = newFactor(user.id, { id: highId!, name: "Laptop", createdAt: at(20) })
        const tiedLow = newFactor(user.id, { id: lowId!, name: "Watch", createdAt: at(20) })
        for (const factor of [newest, tiedHigh, oldest, tiedLow]) await adapter.createFactor(factor)
        await adapter.createFactor(newFactor(other.id, { createdAt: at(0) }))
        expect(await adapter.listFactorsByUserId(user.id)).toEqual([oldest, tiedLow, tiedHigh, newest])
        expect(await adapter.listFactorsByUserId(randomUUID())).toEqual([])
      })

      it("renameFactor changes the name only and returns the factor; null for an unknown id", async () => {
        const user = await adapter.createUser(newUser())
        const factor = await adapter.createFactor(newFactor(user.id))
        const kept = await adapter.createFactor(newFactor(user.id, { name: "Backup phone" }))
        expect(await adapter.renameFactor(factor.id, `Work "phone"; --`)).toEqual({ ...factor, name: `Work "phone"; --` })
        expect(await adapter.renameFactor(randomUUID(), "Ghost")).toBeNull()
        const listed = await adapter.listFactorsByUserId(user.id)
        expect(listed).toHaveLength(2)
        expect(listed.find((f) => f.id === factor.id)).toEqual({ ...factor, name: `Work "phone"; --` })
        expect(listed.find((f) => f.id === kept.id)).toEqual(kept)
      })

      it("deleteFactor removes the factor, returns it, and leaves the others", async () => {
        const user = await adapter.createUser(newUser())
        const factor = await adapter.createFactor(newFactor(user.id))
        const kept = await adapter.createFactor(newFactor(user.id))
        expect(await adapter.deleteFactor(factor.id)).toEqual(factor)
        expect(await adapter.listFactorsByUserId(user.id)).toEqual([kept])
        expect(await adapter.deleteFactor(factor.id)).toBeFalsy()
        expect(await adapter.useFactorStep(factor.id, stepNow())).toBe(false)
        expect(await adapter.getUser(user.id)).toEqual(user)
      })

      it("rejects a duplicate factor id and a factor for an unknown user", async () => {
        const user = await adapter.createUser(newUser())
        const factor = await adapter.createFactor(newFactor(user.id))
        await expect(adapter.createFactor({ ...factor, name: "Copy" })).rejects.toThrow()
        const orphan = newFactor(randomUUID())
        await expect(adapter.createFactor(orphan)).rejects.toThrow()
        expect(await adapter.listFactorsByUserId(orphan.userId)).toEqual([])
        expect(await adapter.listFactorsByUserId(user.id)).toEqual([factor])
      })

      it("shares no mutable state with its callers", async () => {
        const user = await adapter.createUser(newUser())
        const input = newFactor(user.id)
        const createdAt = input.createdAt.getTime()
        const created = await adapter.createFactor(input)
        input.createdAt.setTime(0)
        created.name = "changed on the result"
        ;(await adapter.listFactorsByUserId(user.id))[0]!.lastUsedStep = 5
        const [read] = await adapter.listFactorsByUserId(user.id)
        expect(read!.createdAt.getTime()).toBe(createdAt)
        expect(read!.name).toBe("Phone")
        expect(read!.lastUsedStep).toBeNull()
      })
    })

    describe("TOTP steps (replay protection)", () => {
      it("useFactorStep takes a step above the stored one, and refuses an equal or lower one", async () => {
        const user = await adapter.createUser(newUser())
        const factor = await adapter.createFactor(newFactor(user.id))
        const step = stepNow()
        const stored = async () => (await adapter.listFactorsByUserId(user.id))[0]!.lastUsedStep
        expect(await adapter.useFactorStep(factor.id, step)).toBe(true) // from null
        expect(await stored()).toBe(step)
        expect(await adapter.useFactorStep(factor.id, step)).toBe(false) // the same code again: a replay
        expect(await adapter.useFactorStep(factor.id, step - 1)).toBe(false) // an earlier window
        expect(await stored()).toBe(step)
        expect(await adapter.useFactorStep(factor.id, step + 1)).toBe(true)
        expect(await stored()).toBe(step + 1)
        expect(await adapter.useFactorStep(factor.id, 2 ** 40)).toBe(true)
        expect(await stored()).toBe(2 ** 40)
        expect(await adapter.useFactorStep(factor.id, 2 ** 40 - 1)).toBe(false)
      })

      it("useFactorStep gives false for an unknown id, and one factor's step leaves another's alone", async () => {
        const user = await adapter.createUser(newUser())
        const first = await adapter.createFactor(newFactor(user.id))
        const second = await adapter.createFactor(newFactor(user.id))
        expect(await adapter.useFactorStep(randomUUID(), stepNow())).toBe(false)
        expect(await adapter.useFactorStep(first.id, stepNow())).toBe(true)
        const byId = Object.fromEntries((await adapter.listFactorsByUserId(user.id)).map((f) => [f.id, f.lastUsedStep]))
        expect(byId).toEqual({ [first.id]: stepNow(), [second.id]: null })
        expect(await adapter.useFactorStep(second.id, stepNow())).toBe(true)
      })

      it("of 20 parallel useFactorStep calls with one step, exactly one gets true", async () => {
        const user = await adapter.createUser(newUser())
        const factor = await adapter.createFactor(newFactor(user.id))
        const step = stepNow()
        const results = await Promise.all(Array.from({ length: 20 }, () => adapter.useFactorStep(factor.id, step)))
        expect(results.filter((result) => result === true)).toHaveLength(1)
        expect(results.filter((result) => result === false)).toHaveLength(19)
        expect((await adapter.listFactorsByUserId(user.id))[0]!.lastUsedStep).toBe(step)
      })

      it("of 20 parallel useFactorStep calls with one step on a used factor, exactly one gets true", async () => {
        const user = await adapter.createUser(newUser())
        const step = stepNow()
        const factor = await adapter.createFactor(newFactor(user.id, { lastUsedStep: step - 1 }))
        const results = await Promise.all(Array.from({ length: 20 }, () => adapter.useFactorStep(factor.id, step)))
        expect(results.filter((result) => result === true)).toHaveLength(1)
        expect((await adapter.listFactorsByUserId(user.id))[0]!.lastUsedStep).toBe(step)
      })

      it("parallel calls with different steps end on the highest, which always wins", async () => {
        const user = await adapter.createUser(newUser())
        const factor = await adapter.createFactor(newFactor(user.id))
        const base = stepNow()
        const steps = [3, 9, 1, 7, 0, 5, 8, 2, 6, 4].map((offset) => base + offset)
        const results = await Promise.all(steps.map((step) => adapter.useFactorStep(factor.id, step)))
        expect(results[steps.indexOf(base + 9)]).toBe(true)
        expect((await adapter.listFactorsByUserId(user.id))[0]!.lastUsedStep).toBe(base + 9)
        expect(await adapter.useFactorStep(factor.id, base + 9)).toBe(false)
      })
    })

    describe("backup codes", () => {
      it("countBackupCodes gives 0 for a user with none and for an unknown user", async () => {
        const user = await adapter.createUser(newUser())
        expect(await adapter.countBackupCodes(user.id)).toBe(0)
        expect(await adapter.countBackupCodes(randomUUID())).toBe(0)
        expect(await adapter.useBackupCode(user.id, newCodeHashes(1)[0]!)).toBe(false)
      })

      it("useBackupCode takes each code once and counts down", async () => {
        const user = await adapter.createUser(newUser())
        const codes = newCodeHashes(10)
        await adapter.replaceBackupCodes(user.id, codes)
        expect(await adapter.countBackupCodes(user.id)).toBe(10)
        expect(await adapter.useBackupCode(user.id, codes[3]!)).toBe(true)
        expect(await adapter.useBackupCode(user.id, codes[3]!)).toBe(false)
        expect(await adapter.countBackupCodes(user.id)).toBe(9)
        expect(await adapter.useBackupCode(user.id, "0".repeat(64))).toBe(false)
        expect(await adapter.useBackupCode(user.id, codes[3]!.toUpperCase())).toBe(false) // hashes compare exactly
        for (const code of codes.filter((_, index) => index !== 3)) expect(await adapter.useBackupCode(user.id, code)).toBe(true)
        expect(await adapter.countBackupCodes(user.id)).toBe(0)
      })

      it("a code belongs to its user only", async () => {
        const user = await adapter.createUser(newUser())
        const other = await adapter.createUser(newUser())
        const codes = newCodeHashes(3)
        await adapter.replaceBackupCodes(user.id, codes)
        await adapter.replaceBackupCodes(other.id, [codes[0]!])
        expect(await adapter.useBackupCode(other.id, codes[1]!)).toBe(false)
        expect(await adapter.useBackupCode(other.id, codes[0]!)).toBe(true)
        expect(await adapter.countBackupCodes(user.id)).toBe(3)
        expect(await adapter.useBackupCode(user.id, codes[0]!)).toBe(true)
      })

      it("replaceBackupCodes makes the user's codes exactly the new ones", async () => {
        const user = await adapter.createUser(newUser())
        const old = newCodeHashes(10)
        const fresh = newCodeHashes(10)
        await adapter.replaceBackupCodes(user.id, old)
        await adapter.useBackupCode(user.id, old[0]!)
        await adapter.replaceBackupCodes(user.id, fresh)
        expect(await adapter.countBackupCodes(user.id)).toBe(10)
        for (const code of old) expect(await adapter.useBackupCode(user.id, code)).toBe(false)
        expect(await adapter.useBackupCode(user.id, fresh[9]!)).toBe(true)
        await adapter.replaceBackupCodes(user.id, [])
        expect(await adapter.countBackupCodes(user.id)).toBe(0)
        expect(await adapter.useBackupCode(user.id, fresh[0]!)).toBe(false)
      })

      it("replaceBackupCodes rejects an unknown user and stores nothing", async () => {
        const unknown = randomUUID()
        const codes = newCodeHashes(2)
        await expect(adapter.replaceBackupCodes(unknown, codes)).rejects.toThrow()
        expect(await adapter.countBackupCodes(unknown)).toBe(0)
        expect(await adapter.useBackupCode(unknown, codes[0]!)).toBe(false)
      })

      it("of 20 parallel useBackupCode calls for one code, exactly one gets true", async () => {
        const user = await adapter.createUser(newUser())
        const codes = newCodeHashes(10)
        await adapter.replaceBackupCodes(user.id, codes)
        const results = await Promise.all(Array.from({ length: 20 }, () => adapter.useBackupCode(user.id, codes[5]!)))
        expect(results.filter((result) => result === true)).toHaveLength(1)
        expect(results.filter((result) => result === false)).toHaveLength(19)
        expect(await adapter.countBackupCodes(user.id)).toBe(9)
      })

      it("of three parallel regenerations, one set wins whole", async () => {
        const user = await adapter.createUser(newUser())
        await adapter.replaceBackupCodes(user.id, newCodeHashes(10))
        const sets = [newCodeHashes(10), newCodeHashes(10), newCodeHashes(10)]
        await Promise.all(sets.map((set) => adapter.replaceBackupCodes(user.id, set)))
        expect(await adapter.countBackupCodes(user.id)).toBe(10)
        const usable = await Promise.all(sets.map(async (set) => (await Promise.all(set.map((code) => adapter.useBackupCode(user.id, code)))).filter(Boolean).length))
        expect([...usable].sort()).toEqual([0, 0, 10])
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
        const factor = await adapter.createFactor(newFactor(user.id))
        const otherFactor = await adapter.createFactor(newFactor(other.id))
        const [code] = newCodeHashes(1)
        await adapter.replaceBackupCodes(user.id, [code!, ...newCodeHashes(9)])
        await adapter.replaceBackupCodes(other.id, [code!, ...newCodeHashes(4)])

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

        expect(await adapter.listFactorsByUserId(user.id)).toEqual([])
        expect(await adapter.useFactorStep(factor.id, stepNow())).toBe(false)
        expect(await adapter.deleteFactor(factor.id)).toBeFalsy()
        expect(await adapter.countBackupCodes(user.id)).toBe(0)
        expect(await adapter.useBackupCode(user.id, code!)).toBe(false)
        expect(await adapter.listFactorsByUserId(other.id)).toEqual([otherFactor])
        expect(await adapter.countBackupCodes(other.id)).toBe(5)
        expect(await adapter.useBackupCode(other.id, code!)).toBe(true)
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
