import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { KyselyAdapter, createSqliteDatabase, migrateToLatest } from "../../src/adapters/kysely/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Password from "../../src/providers/password.js"
import { encode } from "../../src/jwt.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import type { Adapter } from "../../src/adapters.js"
import type { AuthConfig, Session } from "../../src/types.js"

/**
 * Several accounts in one browser (`multiSession`) through `Auth()`, with JWT and database sessions
 * (memory adapter and Kysely on SQLite): add, list, switch, sign out one or all, and the attacks on
 * the others cookie.
 */

const secret = "multi-session-test-secret-0123456789abcdef"
const password = "correct horse battery"
const names = cookieNames.https
const others = names.otherSessions
const session = names.sessionToken

type Listing = { active: Session | null; others: (Session & { id: string })[] }

function world(strategy: "jwt" | "database", adapter: Adapter = MemoryAdapter(), multiSession: AuthConfig["multiSession"] = true) {
  const recording = recordingLogger()
  const signOuts: unknown[] = []
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    logger: recording.logger,
    session: { strategy },
    multiSession,
    events: { signOut: (message) => void signOuts.push(message) },
    providers: [Password({ hashing: { scrypt: { ln: 10 } } })],
  }
  return { config, adapter, errors: recording.errors, signOuts }
}

async function signUp(config: AuthConfig, email: string) {
  const jar = new CookieJar()
  await send(config, jar, "/signup/password", { form: { csrfToken: await csrfTokenFor(config, jar), email, password } })
}

async function signIn(config: AuthConfig, jar: CookieJar, email: string, addAccount = false) {
  if (addAccount) await send(config, jar, "/signin?addAccount=1")
  return send(config, jar, "/callback/password", { form: { csrfToken: await csrfTokenFor(config, jar), email, password, callbackUrl: `${origin}/home` } })
}

async function list(config: AuthConfig, jar: CookieJar): Promise<Listing> {
  return (await (await send(config, jar, "/sessions")).json()) as Listing
}

const emailsOf = (listing: Listing) => [listing.active?.user?.email ?? null, ...listing.others.map((other) => other.user?.email)]

/** Signs up A, B and C, then signs them in one after another in `jar`, adding B and C. */
async function threeAccounts(config: AuthConfig, jar: CookieJar) {
  for (const email of ["a@example.test", "b@example.test", "c@example.test"]) await signUp(config, email)
  await signIn(config, jar, "a@example.test")
  await signIn(config, jar, "b@example.test", true)
  await signIn(config, jar, "c@example.test", true)
}

function sqliteAdapter() {
  const dir = mkdtempSync(join(tmpdir(), "authflow-multi-session-"))
  const db = createSqliteDatabase(join(dir, "auth.sqlite"))
  return { db, adapter: KyselyAdapter(db), done: async () => (await db.destroy(), rmSync(dir, { recursive: true, force: true })) }
}

const strategies = [
  ["jwt", () => ({ adapter: MemoryAdapter() as Adapter, done: async () => {} })],
  ["database", () => ({ adapter: MemoryAdapter() as Adapter, done: async () => {} })],
  ["database", async () => {
    const sqlite = sqliteAdapter()
    await migrateToLatest(sqlite.db)
    return sqlite
  }],
] as const

describe.each(strategies.map(([strategy, make], index) => [`${strategy}${index === 2 ? " (Kysely SQLite)" : ""}`, strategy, make] as const))("multi-session with %s sessions", (_name, strategy, make) => {
  it("adds, lists, switches, signs out one and then all", async () => {
    const made = await make()
    try {
      const { config, signOuts, errors } = world(strategy, made.adapter)
      const jar = new CookieJar()
      await threeAccounts(config, jar)
      // C is active (as /session says), B then A among the others, newest first.
      const listing = await list(config, jar)
      expect(emailsOf(listing)).toEqual(["c@example.test", "b@example.test", "a@example.test"])
      expect(await (await send(config, jar, "/session")).json()).toEqual({ ...listing.active, expires: expect.any(String) })
      expect(listing.others.every((other) => typeof other.id === "string" && typeof other.expires === "string")).toBe(true)

      // Switch to A: A active, C moves into the others.
      const a = listing.others.find((other) => other.user?.email === "a@example.test")!
      const switched = await send(config, jar, "/sessions/switch", { form: { csrfToken: await csrfTokenFor(config, jar), account: a.id, callbackUrl: `${origin}/home` } })
      expect(switched.status).toBe(302)
      expect(switched.headers.get("location")).toBe(`${origin}/home`)
      expect(emailsOf(await list(config, jar))).toEqual(["a@example.test", "c@example.test", "b@example.test"])

      // Sign out B alone: A stays active, C stays.
      const b = (await list(config, jar)).others.find((other) => other.user?.email === "b@example.test")!
      await send(config, jar, "/signout", { form: { csrfToken: await csrfTokenFor(config, jar), account: b.id } })
      expect(emailsOf(await list(config, jar))).toEqual(["a@example.test", "c@example.test"])
      expect(signOuts).toHaveLength(1)

      // Sign out the active one: C becomes active.
      const activeId = (await list(config, jar)).active!.user!.email === "a@example.test" ? await userIdOf(config, made.adapter, "a@example.test", jar) : undefined
      await send(config, jar, "/signout", { form: { csrfToken: await csrfTokenFor(config, jar), account: activeId! } })
      expect(emailsOf(await list(config, jar))).toEqual(["c@example.test"])
      expect(signOuts).toHaveLength(2)

      // Add A again, then sign out all: everything cleared, every session ended.
      await signIn(config, jar, "a@example.test", true)
      expect(emailsOf(await list(config, jar))).toEqual(["a@example.test", "c@example.test"])
      await send(config, jar, "/signout", { form: { csrfToken: await csrfTokenFor(config, jar) } })
      expect(await list(config, jar)).toEqual({ active: null, others: [] })
      expect([...jar.cookies.keys()].filter((name) => name.startsWith(session) || name.startsWith(others))).toEqual([])
      expect(signOuts).toHaveLength(4)
      if (strategy === "database") for (const message of signOuts) expect(message).toEqual({ session: expect.objectContaining({ sessionToken: expect.any(String) }) })
      expect(errors).toEqual([])
    } finally {
      await made.done()
    }
  })

  it("replaces the session of the same user, and replaces without the add-account marker", async () => {
    const made = await make()
    try {
      const { config } = world(strategy, made.adapter)
      for (const email of ["a@example.test", "b@example.test"]) await signUp(config, email)
      const jar = new CookieJar()
      await signIn(config, jar, "a@example.test")
      await signIn(config, jar, "a@example.test", true)
      expect(emailsOf(await list(config, jar))).toEqual(["a@example.test"])
      await signIn(config, jar, "b@example.test")
      expect(emailsOf(await list(config, jar))).toEqual(["b@example.test"])
      // Add A, then sign B in again without adding: B replaces A, and is listed once (not also among the others).
      await signIn(config, jar, "a@example.test", true)
      expect(emailsOf(await list(config, jar))).toEqual(["a@example.test", "b@example.test"])
      await signIn(config, jar, "b@example.test")
      expect(emailsOf(await list(config, jar))).toEqual(["b@example.test"])
      expect(jar.get(names.addAccount)).toBeUndefined()
    } finally {
      await made.done()
    }
  })

  it("drops the oldest account past maxAccounts", async () => {
    const made = await make()
    try {
      const { config, adapter, signOuts } = world(strategy, made.adapter, { maxAccounts: 2 })
      for (const email of ["a@example.test", "b@example.test", "c@example.test"]) await signUp(config, email)
      const jar = new CookieJar()
      await signIn(config, jar, "a@example.test")
      const aToken = jar.get(session)!
      await signIn(config, jar, "b@example.test", true)
      signOuts.length = 0
      await signIn(config, jar, "c@example.test", true)
      expect(emailsOf(await list(config, jar))).toEqual(["c@example.test", "b@example.test"])
      // A is signed out as if asked: its database session deleted, not only forgotten; events.signOut fired for it.
      if (strategy === "database") expect(await adapter.getSessionAndUser!(aToken)).toBeNull()
      expect(signOuts).toHaveLength(1)
      const ended = signOuts[0] as { session?: { sessionToken?: string }; token?: { email?: string } }
      if (strategy === "database") expect(ended.session?.sessionToken).toBe(aToken)
      else expect(ended.token?.email).toBe("a@example.test")
    } finally {
      await made.done()
    }
  })

  it("answers AccountNotFound for an unknown account, as JSON and as the error page", async () => {
    const made = await make()
    try {
      const { config } = world(strategy, made.adapter)
      const jar = new CookieJar()
      await threeAccounts(config, jar)
      const csrfToken = await csrfTokenFor(config, jar)
      const json = await send(config, jar, "/sessions/switch", { json: { csrfToken, account: "nobody" } })
      expect(json.status).toBe(404)
      expect(await json.json()).toMatchObject({ error: "AccountNotFound" })
      const form = await send(config, jar, "/sessions/switch", { form: { csrfToken, account: "nobody" } })
      expect(form.headers.get("location")).toBe(`${origin}/auth/error?error=AccountNotFound`)
      const signOut = await send(config, jar, "/signout", { form: { csrfToken, account: "nobody" } })
      expect(signOut.headers.get("location")).toBe(`${origin}/auth/error?error=AccountNotFound`)
      const page = await send(config, jar, "/error?error=AccountNotFound")
      expect(await page.text()).toContain("not signed in")
      expect(emailsOf(await list(config, jar))).toEqual(["c@example.test", "b@example.test", "a@example.test"])
    } finally {
      await made.done()
    }
  })

  it("needs CSRF to switch and to sign out one account", async () => {
    const made = await make()
    try {
      const { config } = world(strategy, made.adapter)
      const jar = new CookieJar()
      await threeAccounts(config, jar)
      const b = (await list(config, jar)).others[0]!
      const switched = await send(config, jar, "/sessions/switch", { form: { account: b.id } })
      expect(switched.headers.get("location")).toBe(`${origin}/auth/signin?error=MissingCSRF`)
      const signedOut = await send(config, jar, "/signout", { form: { account: b.id } })
      expect(signedOut.headers.get("location")).toBe(`${origin}/auth/signin?error=MissingCSRF`)
      expect(emailsOf(await list(config, jar))).toEqual(["c@example.test", "b@example.test", "a@example.test"])
    } finally {
      await made.done()
    }
  })

  it("ignores a planted, tampered or foreign others cookie", async () => {
    const made = await make()
    try {
      const { config } = world(strategy, made.adapter)
      const jar = new CookieJar()
      await threeAccounts(config, jar)
      const sealed = jar.cookies.get(others)!
      // Tampered: one character changed.
      const tampered = new CookieJar()
      for (const [name, value] of jar.cookies) tampered.cookies.set(name, value)
      tampered.cookies.set(others, sealed.slice(0, 40) + (sealed[40] === "A" ? "B" : "A") + sealed.slice(41))
      expect((await list(config, tampered)).others).toEqual([])
      // Sealed with another secret, holding a session of this site: ignored.
      const foreign = new CookieJar()
      for (const [name, value] of jar.cookies) foreign.cookies.set(name, value)
      foreign.cookies.set(others, await encode({ token: { o: [{ t: jar.cookies.get(session)!, a: 0 }] } as never, secret: "another-secret-0123456789abcdef0123456789", salt: others }))
      expect((await list(config, foreign)).others).toEqual([])
      // Planted in chunks beside the real one: the whole cookie wins.
      const planted = new CookieJar()
      for (const [name, value] of jar.cookies) planted.cookies.set(name, value)
      planted.cookies.set(`${others}.0`, "garbage")
      expect((await list(config, planted)).others).toHaveLength(2)
      // Nobody can be switched to through a tampered cookie.
      const id = (await list(config, jar)).others[0]!.id
      const switched = await send(config, tampered, "/sessions/switch", { form: { csrfToken: await csrfTokenFor(config, tampered), account: id } })
      expect(switched.headers.get("location")).toBe(`${origin}/auth/error?error=AccountNotFound`)
    } finally {
      await made.done()
    }
  })
})

describe("the sign-in page", () => {
  it("offers 'Use another account' when someone is signed in, and sets the add-account marker on it", async () => {
    const { config } = world("jwt")
    await signUp(config, "a@example.test")
    const jar = new CookieJar()
    expect(await (await send(config, jar, "/signin")).text()).not.toContain("Use another account")
    await signIn(config, jar, "a@example.test")
    const page = await (await send(config, jar, "/signin")).text()
    expect(page).toContain(`href="${origin}/auth/signin?addAccount=1&amp;callbackUrl=`)
    expect(page).toContain("Use another account")
    expect(jar.get(names.addAccount)).toBeUndefined()
    const adding = await send(config, jar, "/signin?addAccount=1")
    expect(await adding.text()).not.toContain("Use another account")
    expect(jar.get(names.addAccount)).toBe("1")
    const french = await send(config, jar, "/signin", { headers: { "accept-language": "fr" } })
    expect(await french.text()).toContain("Utiliser un autre compte")
  })
})

describe("multi-session off", () => {
  it("serves no /sessions routes, and sign-in replaces the session", async () => {
    const { config } = world("jwt", MemoryAdapter(), false)
    for (const email of ["a@example.test", "b@example.test"]) await signUp(config, email)
    const jar = new CookieJar()
    await signIn(config, jar, "a@example.test")
    await signIn(config, jar, "b@example.test", true)
    expect(jar.get(others)).toBeUndefined()
    expect(jar.get(names.addAccount)).toBeUndefined()
    expect((await send(config, jar, "/sessions")).status).toBe(302)
  })
})

/** The id the listing gives `email`'s account (its user's id). */
async function userIdOf(_config: AuthConfig, adapter: Adapter, email: string, _jar: CookieJar): Promise<string> {
  return (await adapter.getUserByEmail!(email))!.id
}
