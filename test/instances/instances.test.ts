/**
 * Several instances (issue 14, part 3): two separate server processes (test/instances/server.ts)
 * share only the secret, one PostgreSQL schema and Redis. An OAuth flow started on one finishes on
 * the other, an email link requested on one is consumed on the other exactly once, a session made
 * on one is read and ended on the other, and concurrent reads across both agree.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { randomUUID } from "node:crypto"
import { fileURLToPath } from "node:url"
import { Redis } from "ioredis"
import { sql, type Kysely } from "kysely"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createPostgresDatabase, migrateToLatest, type AuthflowDatabase } from "../../src/adapters/kysely/index.js"
import { loginAtProvider, startOidcProvider, type RunningProvider } from "../../demo/oidc-provider.js"
import { startSmtp, type TestSmtp } from "../support/smtp.js"
import { CookieJar, buildRequest, cookieNames } from "../helpers.js"
import { ci, postgresProbe, postgresServer, redisProbe, redisServer, withPostgres } from "../services.js"

const appOrigin = "http://app.test"
const secret = `instances-secret-${randomUUID()}`
const sessionCookie = cookieNames.http.sessionToken
const serverScript = fileURLToPath(new URL("./server.ts", import.meta.url))

/** Why PostgreSQL or Redis cannot be used, or null when both answer. */
async function probe(): Promise<string | null> {
  const postgresDown = await postgresProbe()
  if (postgresDown) return `PostgreSQL not reachable at 127.0.0.1:5432 (${postgresDown})`
  const redisDown = await redisProbe()
  if (redisDown) return `Redis not reachable at 127.0.0.1:6379 (${redisDown})`
  return null
}

/** One running server process. */
interface Instance {
  name: string
  base: string
  child: ChildProcess
  output: string[]
}

async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ["--import", "tsx", serverScript], {
    env: { ...process.env, ...env, INSTANCE: name },
    stdio: ["ignore", "pipe", "pipe"],
  })
  const output: string[] = []
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 60 s:\n${output.join("")}`)), 60_000)
    child.stdout!.on("data", (chunk: Buffer) => {
      output.push(chunk.toString())
      const match = /listening (\d+)/.exec(output.join(""))
      if (match) {
        clearTimeout(timer)
        resolve(Number(match[1]))
      }
    })
    child.stderr!.on("data", (chunk: Buffer) => output.push(chunk.toString()))
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`${name} exited with ${code} before listening:\n${output.join("")}`))
    })
  })
  return { name, base: `http://127.0.0.1:${port}`, child, output }
}

async function stopInstance(instance: Instance | undefined): Promise<void> {
  if (!instance || instance.child.exitCode !== null || instance.child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => instance.child.once("exit", () => resolve()))
  instance.child.kill("SIGTERM")
  const timer = setTimeout(() => instance.child.kill("SIGKILL"), 5000)
  await exited
  clearTimeout(timer)
}

/** Sends a request to one instance as the browser holding `jar`, taking the cookies it sets. */
async function call(instance: Instance, path: string, jar: CookieJar, form?: Record<string, string>): Promise<Response> {
  const response = await fetch(buildRequest(`${instance.base}${path}`, { form }, jar), { redirect: "manual" })
  jar.take(response)
  return response
}

/** A URL on `http://app.test`, as the path and query to send to an instance. */
function pathOf(url: string | URL): string {
  const parsed = new URL(url)
  expect(parsed.origin).toBe(appOrigin)
  return parsed.pathname + parsed.search
}

async function csrfOn(instance: Instance, jar: CookieJar): Promise<string> {
  const response = await call(instance, "/auth/csrf", jar)
  expect(response.status).toBe(200)
  return ((await response.json()) as { csrfToken: string }).csrfToken
}

async function sessionOn(instance: Instance, jar: CookieJar): Promise<{ user?: { email?: string; name?: string } } | null> {
  const response = await call(instance, "/auth/session", jar)
  expect(response.status).toBe(200)
  expect(response.headers.get("x-instance")).toBe(instance.name)
  return (await response.json()) as { user?: { email?: string; name?: string } } | null
}

const unreachable = await probe()
const skipTitle = "several instances need PostgreSQL at 127.0.0.1:5432 and Redis at 127.0.0.1:6379"

if (unreachable && ci) {
  describe("several instances", () => {
    it("has PostgreSQL and Redis (required when CI is set)", () => {
      throw new Error(`${skipTitle}; CI is set, so this fails instead of being skipped: ${unreachable}`)
    })
  })
} else if (unreachable) {
  console.warn(`${skipTitle}: ${unreachable}`)
  describe.skip(`${skipTitle}: ${unreachable}`, () => {
    it("runs two instances against one database", () => {})
  })
} else {
  describe("two server processes sharing only the secret, PostgreSQL and Redis", () => {
    const schema = `authflow_instances_${randomUUID().replaceAll("-", "")}`
    const redisPrefix = `authflow-instances:${randomUUID()}:`
    let db: Kysely<AuthflowDatabase>
    let op: RunningProvider
    let smtp: TestSmtp
    let a: Instance
    let b: Instance

    beforeAll(async () => {
      await withPostgres((client) => client.query(`create schema ${schema}`))
      db = createPostgresDatabase({ ...postgresServer, options: `-c search_path=${schema}` })
      await migrateToLatest(db)
      op = await startOidcProvider({
        accounts: { alice: { sub: "alice", email: "alice@example.test", name: "Alice Liddell", email_verified: true } },
        clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${appOrigin}/auth/callback/oidc`] }],
      })
      smtp = await startSmtp()
      const env = { AUTH_SECRET: secret, PG_SCHEMA: schema, OIDC_ISSUER: op.issuer, SMTP_PORT: String(smtp.port), REDIS_PREFIX: redisPrefix }
      ;[a, b] = await Promise.all([startInstance("A", env), startInstance("B", env)])
    }, 120_000)

    afterAll(async () => {
      await Promise.all([stopInstance(a), stopInstance(b)])
      await op?.close()
      await smtp?.close()
      await db?.destroy()
      await withPostgres((client) => client.query(`drop schema if exists ${schema} cascade`))
      const redis = new Redis(redisServer)
      const keys = await redis.keys(`${redisPrefix}*`)
      if (keys.length) await redis.del(...keys)
      await redis.quit()
    }, 60_000)

    it("runs as two processes", () => {
      expect(a.child.pid).toBeTypeOf("number")
      expect(b.child.pid).toBeTypeOf("number")
      expect(a.child.pid).not.toBe(b.child.pid)
      expect(a.base).not.toBe(b.base)
    })

    it("an OAuth flow started on A finishes on B, and its callback replayed on A is refused", async () => {
      const browser = new CookieJar()
      const csrfToken = await csrfOn(a, browser)
      const started = await call(a, "/auth/signin/oidc", browser, { csrfToken, callbackUrl: `${appOrigin}/dashboard` })
      expect(started.status).toBe(302)
      const authorization = new URL(started.headers.get("location")!)
      expect(authorization.origin).toBe(op.issuer)
      expect(authorization.searchParams.get("redirect_uri")).toBe(`${appOrigin}/auth/callback/oidc`)

      const back = await loginAtProvider(authorization.href, "alice")
      expect(back.searchParams.get("code")).toBeTruthy()
      const replay = new CookieJar()
      for (const [name, value] of browser.cookies) replay.cookies.set(name, value)

      const finished = await call(b, pathOf(back), browser)
      expect(finished.status).toBe(302)
      expect(finished.headers.get("location")).toBe(`${appOrigin}/dashboard`)
      expect(finished.headers.get("x-instance")).toBe("B")
      expect(browser.get(sessionCookie)).toBeTruthy()

      // The session row is in the shared database: A reads it.
      expect(await sessionOn(a, browser)).toMatchObject({ user: { email: "alice@example.test", name: "Alice Liddell" } })
      const accounts = await db.selectFrom("accounts").select(["provider", "provider_account_id"]).where("provider", "=", "oidc").execute()
      expect(accounts).toEqual([{ provider: "oidc", provider_account_id: "alice" }])

      // The flow was marked used in the shared Redis store; the same flow cookies and code sent to A
      // again are refused there.
      const redis = new Redis(redisServer)
      const used = await redis.keys(`${redisPrefix}*`)
      await redis.quit()
      expect(used.length).toBe(1)
      const replayed = await call(a, pathOf(back), replay)
      expect(replayed.status).toBe(302)
      expect(replayed.headers.get("location")).toMatch(/^http:\/\/app\.test\/auth\/(signin|error)\?error=/)
      expect(replay.get(sessionCookie)).toBeUndefined()
    }, 60_000)

    it("an email link requested on A is consumed on B, once", async () => {
      const browser = new CookieJar()
      const csrfToken = await csrfOn(a, browser)
      const before = smtp.messages.length
      const requested = await call(a, "/auth/signin/nodemailer", browser, { csrfToken, email: "bob@example.test", callbackUrl: `${appOrigin}/inbox` })
      expect(requested.status).toBe(302)
      expect(requested.headers.get("location")).toMatch(/^http:\/\/app\.test\/auth\/verify-request/)
      expect(smtp.messages.length).toBe(before + 1)
      const mail = smtp.messages.at(-1)!
      expect(mail.envelopeTo).toEqual(["bob@example.test"])
      expect(mail.link.startsWith(`${appOrigin}/auth/callback/nodemailer?`)).toBe(true)
      const link = pathOf(mail.link)

      // Another browser (the mail app's) opens the link on B.
      const opener = new CookieJar()
      const consumed = await call(b, link, opener)
      expect(consumed.status).toBe(302)
      expect(consumed.headers.get("location")).toBe(`${appOrigin}/inbox`)
      expect(opener.get(sessionCookie)).toBeTruthy()
      expect(await sessionOn(a, opener)).toMatchObject({ user: { email: "bob@example.test" } })

      // The second use, on A, is refused and signs nobody in.
      const again = new CookieJar()
      const refused = await call(a, link, again)
      expect(refused.status).toBe(302)
      expect(refused.headers.get("location")).toBe(`${appOrigin}/auth/error?error=Verification`)
      expect(again.get(sessionCookie)).toBeUndefined()
      const left = await db.selectFrom("verification_tokens").select("identifier").where("identifier", "=", "bob@example.test").execute()
      expect(left).toEqual([])
    }, 60_000)

    it("a session made on A is read and ended on B", async () => {
      const browser = new CookieJar()
      const csrfToken = await csrfOn(a, browser)
      await call(a, "/auth/signin/nodemailer", browser, { csrfToken, email: "carol@example.test" })
      const mail = smtp.messages.at(-1)!
      expect(mail.envelopeTo).toEqual(["carol@example.test"])
      const made = await call(a, pathOf(mail.link), browser)
      expect(made.status).toBe(302)
      const token = browser.get(sessionCookie)!
      expect(token).toBeTruthy()
      const stolenCopy = new CookieJar()
      stolenCopy.cookies.set(sessionCookie, browser.cookies.get(sessionCookie)!)

      expect(await sessionOn(b, browser)).toMatchObject({ user: { email: "carol@example.test" } })
      const signedOut = await call(b, "/auth/signout", browser, { csrfToken: await csrfOn(b, browser) })
      expect(signedOut.status).toBe(302)
      expect(signedOut.headers.get("x-instance")).toBe("B")
      expect(browser.get(sessionCookie)).toBeUndefined()

      // The row is gone, so the old cookie reads as no session on A too.
      const rows = await db.selectFrom("sessions").select("session_token").where("session_token", "=", token).execute()
      expect(rows).toEqual([])
      expect(await sessionOn(a, stolenCopy)).toBeNull()
      expect(await sessionOn(b, browser)).toBeNull()
    }, 60_000)

    it("20 concurrent session reads across both instances all read the same session", async () => {
      const browser = new CookieJar()
      const csrfToken = await csrfOn(b, browser)
      await call(b, "/auth/signin/nodemailer", browser, { csrfToken, email: "dave@example.test" })
      const mail = smtp.messages.at(-1)!
      expect(mail.envelopeTo).toEqual(["dave@example.test"])
      await call(b, pathOf(mail.link), browser)
      const cookie = browser.header()
      const reads = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const instance = i % 2 ? b : a
          const response = await fetch(`${instance.base}/auth/session`, { headers: { cookie } })
          return { status: response.status, instance: response.headers.get("x-instance"), body: (await response.json()) as { user?: { email?: string } } | null }
        }),
      )
      expect(reads.filter((read) => read.instance === "A")).toHaveLength(10)
      expect(reads.filter((read) => read.instance === "B")).toHaveLength(10)
      for (const read of reads) {
        expect(read.status).toBe(200)
        expect(read.body?.user?.email).toBe("dave@example.test")
      }
      const sessions = await sql<{ count: string }>`select count(*)::text as count from sessions s join users u on u.id = s.user_id where u.email = 'dave@example.test'`.execute(db)
      expect(sessions.rows[0]!.count).toBe("1")
    }, 60_000)
  })
}
