/**
 * Issue 14, part 2: adapter faults. Every flow (credentials with JWT and database sessions, OAuth
 * first sign-in, linking and returning, asking for an email link and following it, reading and
 * updating the session, signing out, registering and authenticating with a passkey) is run once
 * to find its call sites (the Nth call of adapter method M), then once per call site and fault
 * mode (the call throws, hangs past `adapterTimeout`, or answers malformed data), each time on a
 * fresh SQLite database behind authflow/testing's `faultyAdapter`. Every run must:
 * - answer, in time, with a clean page or JSON (no 5xx, no exception out of `Auth()`, a redirect on site);
 * - log the adapter failure once (one `AdapterError`) with its cause;
 * - leave nothing half-written: no user without its account, no session row the browser was not
 *   given, a verification token consumed only by a sign-in that succeeded, no orphan authenticator.
 */
import { randomBytes } from "node:crypto"
import { afterEach, describe, expect, it } from "vitest"
import type { Kysely } from "kysely"
import { KyselyAdapter, createSqliteDatabase, migrateToLatest, type AuthflowDatabase } from "../../src/adapters/kysely/index.js"
import { AdapterError, AdapterTimeout } from "../../src/core/errors.js"
import Credentials from "../../src/providers/credentials.js"
import Passkey from "../../src/providers/passkey.js"
import { faultyAdapter, type FaultMode, type FaultyAdapter } from "../../src/testing/faulty-adapter.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, send } from "../helpers.js"
import { opProvider, standInOP } from "../support/oauth-stand-in.js"
import { SoftCredential } from "../../src/testing/authenticator.js"
import type { StandInProvider } from "../../src/testing/stand-in.js"
import type { EmailConfig } from "../../src/providers/email-config.js"
import type { AuthConfig, Provider } from "../../src/types.js"

const sessionCookie = cookieNames.https.sessionToken
const adapterTimeout = 60

/** One app on a fresh database, its adapter behind the fault injector, and everything it logged and mailed. */
interface World {
  config: AuthConfig
  db: Kysely<AuthflowDatabase>
  faulty: FaultyAdapter
  op: StandInProvider
  errors: Error[]
  mails: { url: string; token: string; identifier: string }[]
}

async function newWorld(strategy: "jwt" | "database"): Promise<World> {
  const db = createSqliteDatabase(":memory:")
  await migrateToLatest(db)
  const faulty = faultyAdapter(KyselyAdapter(db))
  const op = standInOP()
  const errors: Error[] = []
  const mails: World["mails"] = []
  const email: EmailConfig = { id: "email", name: "Email", type: "email", maxAge: 600, sendVerificationRequest: ({ url, token, identifier }) => void mails.push({ url, token, identifier }) }
  const config: AuthConfig = {
    secret: `faults-${randomBytes(8).toString("hex")}`,
    trustHost: true,
    adapter: faulty.adapter,
    adapterTimeout,
    session: { strategy, updateAge: 0 },
    experimental: { enableWebAuthn: true },
    logger: { error: (error) => void errors.push(error), warn: () => {}, debug: () => {} },
    providers: [
      Credentials({ credentials: { username: {} }, authorize: ({ username }) => (username === "ada" ? { id: "u-ada", name: "Ada", email: "ada@example.test" } : null) }) as unknown as Provider,
      opProvider(op),
      email as unknown as Provider,
      Passkey() as unknown as Provider,
    ],
  }
  await faulty.adapter.createUser!({ id: "u-ada", name: "Ada", email: "ada@example.test", emailVerified: null })
  return { config, db, faulty, op, errors, mails }
}

/** What the database holds, table by table. */
async function rows(db: Kysely<AuthflowDatabase>) {
  return {
    users: await db.selectFrom("users").selectAll().execute(),
    accounts: await db.selectFrom("accounts").selectAll().execute(),
    sessions: await db.selectFrom("sessions").selectAll().execute(),
    tokens: await db.selectFrom("verification_tokens").selectAll().execute(),
    authenticators: await db.selectFrom("authenticators").selectAll().execute(),
  }
}
type Rows = Awaited<ReturnType<typeof rows>>

/** The session cookie a response set (not cleared), if any. */
function sessionSet(response: Response): string | undefined {
  for (const header of response.headers.getSetCookie()) {
    if (!header.startsWith(`${sessionCookie}=`)) continue
    const value = header.slice(sessionCookie.length + 1).split(";")[0]!
    if (value && !/max-age=0/i.test(header)) return decodeURIComponent(value)
  }
  return undefined
}

/** A flow: what is set up before it (not faulted), and the requests it is made of (faulted). */
interface Flow {
  name: string
  strategy: "jwt" | "database"
  /** Sets up what the flow needs (unarmed); returns the state `act` continues from. */
  prepare: (world: World) => Promise<Record<string, unknown>>
  /** The flow's requests; the last response is the flow's answer. */
  act: (world: World, state: Record<string, unknown>) => Promise<Response>
  /** Whether the answer means the user signed in (a session was issued). */
  signsIn: boolean
  /** The sign-in consumes an email verification token. */
  usesToken?: boolean
}

/** The OAuth sign-in: POST /signin/op, then the provider's redirect back with `subject`'s consent. */
async function oauthSignIn(world: World, jar: CookieJar, subject?: string): Promise<Response> {
  const csrfToken = await csrfTokenFor(world.config, jar)
  const start = await send(world.config, jar, "/signin/op", { form: { csrfToken } })
  const location = start.headers.get("location")
  if (start.status !== 302 || !location?.startsWith(world.op.issuer)) return start
  const authorizationUrl = new URL(location)
  const back = new URL(authorizationUrl.searchParams.get("redirect_uri")!)
  back.search = world.op.redirectBack(authorizationUrl, subject === undefined ? {} : { subject }).toString()
  return send(world.config, jar, back.href)
}

async function passkeyOptions(world: World, jar: CookieJar, query: Record<string, string>) {
  const response = await send(world.config, jar, `/webauthn-options/passkey?${new URLSearchParams(query)}`)
  return { response, body: response.status === 200 ? ((await response.clone().json()) as { action: string; options: never }) : undefined }
}

async function passkeyCallback(world: World, jar: CookieJar, action: string, data: unknown): Promise<Response> {
  const csrfToken = await csrfTokenFor(world.config, jar)
  return send(world.config, jar, "/callback/passkey", { form: { action, data: JSON.stringify(data), csrfToken, callbackUrl: `${origin}/dashboard` } })
}

async function registerPasskey(world: World, jar: CookieJar, email: string, credential: SoftCredential): Promise<Response> {
  const { response, body } = await passkeyOptions(world, jar, { action: "register", email })
  if (body?.action !== "register") return response
  return passkeyCallback(world, jar, "register", credential.register(body.options, origin))
}

/** Ada's credentials sign-in, in the browser holding `jar`. */
async function credentialsSignIn(world: World, jar: CookieJar): Promise<Response> {
  const csrfToken = await csrfTokenFor(world.config, jar)
  return send(world.config, jar, "/callback/credentials", { form: { csrfToken, username: "ada" } })
}

/** Asks for an email sign-in link for `email`, from a fresh browser. */
async function askForLink(world: World, email: string): Promise<Response> {
  const jar = new CookieJar()
  const csrfToken = await csrfTokenFor(world.config, jar)
  return send(world.config, jar, "/signin/email", { form: { csrfToken, email } })
}

async function signedInJar(world: World): Promise<CookieJar> {
  const jar = new CookieJar()
  await credentialsSignIn(world, jar)
  if (!jar.cookies.has(sessionCookie)) throw new Error("prepare: the credentials sign-in failed")
  return jar
}

const flows: Flow[] = [
  { name: "credentials sign-in, JWT session", strategy: "jwt", signsIn: true, prepare: async () => ({}), act: (world) => credentialsSignIn(world, new CookieJar()) },
  { name: "credentials sign-in, database session", strategy: "database", signsIn: true, prepare: async () => ({}), act: (world) => credentialsSignIn(world, new CookieJar()) },
  { name: "OAuth first sign-in (creates a user), database session", strategy: "database", signsIn: true, prepare: async () => ({}), act: (world) => oauthSignIn(world, new CookieJar(), "newcomer") },
  { name: "OAuth first sign-in (creates a user), JWT session", strategy: "jwt", signsIn: true, prepare: async () => ({}), act: (world) => oauthSignIn(world, new CookieJar(), "newcomer") },
  {
    name: "OAuth linking to the signed-in user",
    strategy: "database",
    signsIn: true,
    prepare: async (world) => ({ jar: await signedInJar(world) }),
    act: (world, { jar }) => oauthSignIn(world, jar as CookieJar, "second-login"),
  },
  {
    name: "OAuth returning user",
    strategy: "database",
    signsIn: true,
    prepare: async (world) => {
      await oauthSignIn(world, new CookieJar(), "returning")
      return {}
    },
    act: (world) => oauthSignIn(world, new CookieJar(), "returning"),
  },
  {
    name: "email sign-in: asking for the link",
    strategy: "database",
    signsIn: false,
    prepare: async () => ({}),
    act: (world) => askForLink(world, "grace@example.test"),
  },
  {
    name: "email sign-in: following the link (new user)",
    strategy: "database",
    signsIn: true,
    usesToken: true,
    prepare: async (world) => {
      await askForLink(world, "grace@example.test")
      return { url: world.mails.at(-1)!.url }
    },
    act: (world, { url }) => send(world.config, new CookieJar(), url as string),
  },
  {
    name: "email sign-in: following the link (existing user)",
    strategy: "database",
    signsIn: true,
    usesToken: true,
    prepare: async (world) => {
      await askForLink(world, "ada@example.test")
      return { url: world.mails.at(-1)!.url }
    },
    act: (world, { url }) => send(world.config, new CookieJar(), url as string),
  },
  { name: "session read", strategy: "database", signsIn: false, prepare: async (world) => ({ jar: await signedInJar(world) }), act: (world, { jar }) => send(world.config, jar as CookieJar, "/session") },
  {
    name: "session update",
    strategy: "database",
    signsIn: false,
    prepare: async (world) => {
      const jar = await signedInJar(world)
      return { jar, csrfToken: await csrfTokenFor(world.config, jar) }
    },
    act: (world, { jar, csrfToken }) => send(world.config, jar as CookieJar, "/session", { json: { csrfToken, data: { name: "Ada B" } } }),
  },
  {
    name: "sign-out",
    strategy: "database",
    signsIn: false,
    prepare: async (world) => {
      const jar = await signedInJar(world)
      return { jar, csrfToken: await csrfTokenFor(world.config, jar) }
    },
    act: (world, { jar, csrfToken }) => send(world.config, jar as CookieJar, "/signout", { form: { csrfToken: csrfToken as string } }),
  },
  { name: "passkey registration (new user)", strategy: "database", signsIn: true, prepare: async () => ({}), act: (world) => registerPasskey(world, new CookieJar(), "pat@example.test", new SoftCredential("app.test")) },
  {
    name: "passkey registration (signed-in user adds one)",
    strategy: "database",
    signsIn: true,
    prepare: async (world) => ({ jar: await signedInJar(world) }),
    act: (world, { jar }) => registerPasskey(world, jar as CookieJar, "ada@example.test", new SoftCredential("app.test")),
  },
  {
    name: "passkey authentication",
    strategy: "database",
    signsIn: true,
    prepare: async (world) => {
      const credential = new SoftCredential("app.test")
      const response = await registerPasskey(world, new CookieJar(), "pat@example.test", credential)
      if (response.status !== 302) throw new Error(`prepare: the passkey registration failed (${response.status})`)
      return { credential }
    },
    act: async (world, { credential }) => {
      const jar = new CookieJar()
      const { response, body } = await passkeyOptions(world, jar, { action: "authenticate" })
      if (body?.action !== "authenticate") return response
      return passkeyCallback(world, jar, "authenticate", (credential as SoftCredential).authenticate(body.options, origin))
    },
  },
]

/** The invariants of the database after a run: what `before` held plus what a run may leave. */
function halfWritten(before: Rows, after: Rows, response: Response, flow: Flow, fault: string): string[] {
  const problems: string[] = []
  const knownUsers = new Set(before.users.map((u) => u.id))
  const accountsByUser = new Set(after.accounts.map((a) => a.user_id))
  for (const user of after.users) {
    if (knownUsers.has(user.id)) continue
    // An email sign-in creates a user without an account (as Auth.js does); every other flow links one.
    const emailUser = flow.usesToken === true
    if (!emailUser && !accountsByUser.has(user.id)) problems.push(`user ${user.email} was created without its account`)
  }
  const issued = sessionSet(response)
  const knownSessions = new Set(before.sessions.map((s) => s.session_token))
  for (const session of after.sessions) {
    if (knownSessions.has(session.session_token)) continue
    if (session.session_token !== issued) problems.push("a session row was written that the browser was not given")
  }
  for (const authenticator of after.authenticators) {
    const account = after.accounts.find((a) => a.provider === "passkey" && a.provider_account_id === authenticator.provider_account_id)
    if (!account) problems.push(`authenticator ${authenticator.credential_id} has no account`)
  }
  for (const account of after.accounts.filter((a) => a.provider === "passkey")) {
    if (!after.authenticators.some((a) => a.provider_account_id === account.provider_account_id)) problems.push(`passkey account ${account.provider_account_id} has no authenticator`)
  }
  // A consume whose answer is malformed cannot be undone: what was consumed is unknown (an adapter
  // that answers garbage to useVerificationToken fails every link anyway, and says so in the log).
  if (flow.usesToken && !issued && fault !== "useVerificationToken/malformed") {
    const key = (t: { identifier: string; token: string }) => `${t.identifier}/${t.token}`
    const left = new Set(after.tokens.map(key))
    for (const token of before.tokens) if (!left.has(key(token))) problems.push(`the verification token of ${token.identifier} was consumed by a sign-in that failed`)
  }
  return problems
}

/** Whether an error, or one of its causes, is `target` (the logger hands out safe copies: compared by message). */
function causedBy(error: unknown, target: Error, depth = 0): boolean {
  if (error instanceof Error && error.message === target.message) return true
  if (depth > 5 || !(error instanceof Error)) return false
  const cause = error.cause as { err?: unknown } | Error | undefined
  return causedBy(cause instanceof Error ? cause : cause?.err, target, depth + 1)
}

let worlds: World[] = []
afterEach(async () => {
  for (const world of worlds) {
    world.faulty.release()
    await world.db.destroy()
  }
  worlds = []
})

async function freshWorld(flow: Flow): Promise<{ world: World; state: Record<string, unknown> }> {
  const world = await newWorld(flow.strategy)
  worlds.push(world)
  const state = await flow.prepare(world)
  world.errors.length = 0
  return { world, state }
}

/** The call sites of a flow: each method and how many times the flow calls it. */
async function callSites(flow: Flow): Promise<{ method: string; call: number }[]> {
  const { world, state } = await freshWorld(flow)
  world.faulty.arm([])
  const response = await flow.act(world, state)
  if (flow.signsIn) expect(sessionSet(response), `${flow.name} signs in when nothing fails`).toBeDefined()
  expect(world.errors, `${flow.name} logs no error when nothing fails`).toEqual([])
  return Object.entries(world.faulty.callCounts()).flatMap(([method, count]) => Array.from({ length: count }, (_, i) => ({ method, call: i + 1 })))
}

const modes: FaultMode[] = ["throw", "hang", "malformed"]

describe.each(flows)("adapter faults: $name", (flow) => {
  it("every call site × throw, hang, malformed: a clean answer in time, the failure logged once with its cause, nothing half-written", { timeout: 120_000 }, async () => {
    const sites = await callSites(flow)
    const failures: string[] = []
    let faulted = 0
    for (const site of sites) {
      for (const mode of modes) {
        const { world, state } = await freshWorld(flow)
        const before = await rows(world.db)
        const injected = new Error(`injected: ${site.method} #${site.call}`)
        world.faulty.arm({ method: site.method as never, call: site.call, mode, error: injected })
        const label = `${site.method} #${site.call} ${mode}`
        const started = performance.now()
        let response: Response
        try {
          response = await Promise.race([
            flow.act(world, state),
            new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the request hung")), 5_000)),
          ])
        } catch (error) {
          failures.push(`${label}: ${String(error)}`)
          continue
        }
        const elapsed = performance.now() - started
        if (!world.faulty.fired.length) continue
        faulted++
        if (response.status >= 500) failures.push(`${label}: answered ${response.status}`)
        const location = response.headers.get("location")
        if (location && new URL(location, origin).origin !== origin && !location.startsWith(world.op.issuer)) failures.push(`${label}: redirected off site to ${location}`)
        if (elapsed > 3_000) failures.push(`${label}: took ${Math.round(elapsed)} ms`)

        const adapterErrors = world.errors.filter((error) => error instanceof AdapterError)
        const expectsError = mode !== "malformed" || adapterErrors.length > 0
        if (expectsError) {
          if (adapterErrors.length !== 1) failures.push(`${label}: ${adapterErrors.length} AdapterErrors logged (${world.errors.map((e) => e.name).join(", ")})`)
          const logged = adapterErrors[0]
          if (mode === "throw" && logged && !causedBy(logged, injected)) failures.push(`${label}: the logged AdapterError does not carry the injected error as its cause`)
          if (mode === "hang" && logged && !(logged instanceof AdapterTimeout)) failures.push(`${label}: a hang was logged as ${logged.name}, not AdapterTimeout`)
          if (mode === "malformed" && logged && !/answered/.test(logged.message)) failures.push(`${label}: a malformed answer was logged as "${logged.message}"`)
        }
        for (const problem of halfWritten(before, await rows(world.db), response, flow, `${site.method}/${mode}`)) failures.push(`${label}: ${problem}`)
      }
    }
    expect(failures).toEqual([])
    // The flow uses the adapter (but credentials with JWT sessions, which never does) and its faults fired.
    if (flow.name !== "credentials sign-in, JWT session") expect(faulted).toBeGreaterThan(0)
  })
})

describe("faultyAdapter and adapterTimeout", () => {
  it("a hanging method answers AdapterTimeout after adapterTimeout milliseconds, logged once", async () => {
    const flow = flows.find((f) => f.name === "session read")!
    const { world, state } = await freshWorld(flow)
    world.faulty.arm({ method: "getSessionAndUser", mode: "hang" })
    const started = performance.now()
    const response = await flow.act(world, state)
    const elapsed = performance.now() - started
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
    expect(elapsed).toBeGreaterThanOrEqual(adapterTimeout - 5)
    expect(elapsed).toBeLessThan(adapterTimeout + 1_000)
    const timeouts = world.errors.filter((e) => e instanceof AdapterTimeout)
    expect(timeouts).toHaveLength(1)
    expect(timeouts[0]!.message).toBe(`adapter.getSessionAndUser did not answer within ${adapterTimeout} ms: check the database, or raise adapterTimeout`)
    expect((timeouts[0] as AdapterTimeout).type).toBe("AdapterTimeout")
  })

  it("a malformed answer is refused with a message that says what was wrong", async () => {
    const flow = flows.find((f) => f.name === "session read")!
    const { world, state } = await freshWorld(flow)
    world.faulty.arm({ method: "getSessionAndUser", mode: "malformed" })
    await flow.act(world, state)
    const logged = world.errors.find((e) => e instanceof AdapterError)!
    expect(logged.message).toBe("adapter.getSessionAndUser answered { session, user } whose session is whose expires is not a date: fix the adapter")
  })

  it("the Nth call of a method is the one that fails, and calls are recorded", async () => {
    const world = await newWorld("database")
    worlds.push(world)
    world.faulty.arm({ method: "getUser", call: 2, mode: "throw" })
    await expect(world.config.adapter!.getUser!("u-ada")).resolves.toMatchObject({ id: "u-ada" })
    await expect(world.config.adapter!.getUser!("u-ada")).rejects.toThrow("injected fault: getUser call 2 throws")
    await expect(world.config.adapter!.getUser!("u-ada")).resolves.toMatchObject({ id: "u-ada" })
    expect(world.faulty.calls.filter((c) => c.method === "getUser").map((c) => [c.nth, c.fault])).toEqual([
      [1, undefined],
      [2, "throw"],
      [3, undefined],
    ])
    expect(world.faulty.fired).toHaveLength(1)
  })

  it("adapterTimeout: 0 waits for ever (until the hanging call is released)", async () => {
    const world = await newWorld("database")
    worlds.push(world)
    world.config.adapterTimeout = 0
    const jar = await signedInJar(world)
    world.faulty.arm({ method: "getSessionAndUser", mode: "hang" })
    const pending = send(world.config, jar, "/session")
    const first = await Promise.race([pending.then(() => "answered"), new Promise((resolve) => setTimeout(() => resolve("waiting"), 3 * adapterTimeout))])
    expect(first).toBe("waiting")
    world.faulty.release()
    expect(await (await pending).json()).toBeNull()
  })
})
