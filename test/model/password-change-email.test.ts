/**
 * The email change request machine, driven through the real `Auth()` along every path the model
 * generates: no CSRF token, nobody signed in, the limiter, a new address that is not one or is the
 * same, a wrong password or none, a new address free or taken (answered alike), and the store or
 * the mail failing.
 */
import { afterAll, describe, expect, it, vi } from "vitest"
import { passwordChangeEmailMachine, type PasswordChangeEmailEvent } from "../../src/machines/password-change-email.js"
import Password from "../../src/providers/password.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { hashPassword } from "../../src/core/password/index.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { coverageReport } from "../../src/testing/coverage.js"
import { modelPaths } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { FlowEndings, modelClientHeaders, rateLimitOf, rateLimitOutcomes } from "./harness.js"
import { linkSecret, recordingMailer } from "./password-links.js"
import type { Adapter } from "../../src/adapters.js"
import type { AuthConfig } from "../../src/types.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/password-change-email.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("password-change-email", await load()))
loadMachinesPerTest("rate-limit", "csrf-check", "password-change-email")

const userId = "u-ada"
const email = "ada@old.test"
const newEmail = "ada@new.test"
const password = "correct horse battery"
const hashing = { scrypt: { ln: 10 } }
const storedHash = hashPassword(password, hashing)

/** Payload-carrying events: each is one way the real world can answer an effect. */
const events: PasswordChangeEmailEvent[] = [
  { type: "session.user", user: { id: userId, email } },
  { type: "session.failed", error: new Error("session store down") },
  ...rateLimitOutcomes,
  { type: "change.read", newEmail },
  { type: "change.read", emailProblem: "syntax" },
  { type: "change.read", newEmail: email },
  { type: "password.checked", valid: true },
  { type: "password.checked", valid: false },
  { type: "check.failed", error: new Error("account store down") },
  { type: "lookup.failed", error: new Error("user store down") },
  { type: "mail.failed", error: new Error("SMTP down") },
]

type Path = ReturnType<typeof modelPaths<typeof passwordChangeEmailMachine>>[number]

async function scenario(path: Path) {
  const has = (type: string) => path.events.some((event) => event.type === type)
  const read = path.events.find((event) => event.type === "change.read") as Extract<PasswordChangeEmailEvent, { type: "change.read" }> | undefined
  const checked = path.events.find((event) => event.type === "password.checked") as Extract<PasswordChangeEmailEvent, { type: "password.checked" }> | undefined
  const memory = MemoryAdapter()
  await memory.createUser({ id: userId, email, emailVerified: new Date() })
  if (!has("account.none")) await memory.linkAccount({ userId, type: "credentials" as never, provider: "password", providerAccountId: userId, refresh_token: await storedHash })
  if (has("newEmail.taken")) await memory.createUser({ id: "u-bob", email: newEmail, emailVerified: new Date() })
  const adapter: Adapter = {
    ...memory,
    async getUser(id) {
      if (has("session.failed")) throw new Error("session store down")
      return memory.getUser(id)
    },
    async getAccount(providerAccountId, provider) {
      if (has("check.failed")) throw new Error("account store down")
      return memory.getAccount(providerAccountId, provider)
    },
    async getUserByEmail(address) {
      if (has("lookup.failed")) throw new Error("user store down")
      return memory.getUserByEmail(address)
    },
  }
  const mailer = recordingMailer(has("mail.failed"))
  const config: AuthConfig = {
    secret: linkSecret,
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    ...rateLimitOf(path.events, "credentials"),
    providers: [Password({ hashing, verification: "required", sendMail: mailer.sendMail })],
  }
  const jar = new CookieJar()
  // Signed in (a database session) unless the path finds nobody.
  if (!has("session.none")) {
    await memory.createSession({ sessionToken: "session-ada", userId, expires: new Date(Date.now() + 3600_000) })
    jar.cookies.set(cookieNames.https.sessionToken, "session-ada")
  }
  const typedEmail = read?.emailProblem ? "not-an-address" : (read?.newEmail ?? newEmail)
  const form = { newEmail: typedEmail.toUpperCase(), password: checked?.valid === false ? "wrong horse battery" : password }
  return { config, memory, jar, form, csrfValid: !has("csrf.invalid"), mails: mailer.mails }
}

const recorder = new TransitionRecorder([passwordChangeEmailMachine])
const endings = new FlowEndings(recorder, "password-change-email")
const paths = modelPaths(passwordChangeEmailMachine, events)
const page = (query: Record<string, string>) => `${origin}/auth/change-email/password?${new URLSearchParams(query)}`

describe("password change-email machine, driven through Auth()", () => {
  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(
      new Set(["csrfRejected", "rateLimited", "signInRequired", "changeRefused", "passwordRejected", "noPasswordAccount", "changeRequested", "mailFailed", "changeFailed"]),
    )
  })

  for (const path of paths) {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      const s = await scenario(path)
      const { logger, errors } = recordingLogger()
      const config = { ...s.config, logger }
      const csrfToken = await csrfTokenFor(config, s.jar)
      endings.reset()
      const response = await send({ ...config, inspect: endings.inspect }, s.jar, "/change-email/password", { form: { ...(s.csrfValid && { csrfToken }), ...s.form }, headers: modelClientHeaders })
      expect(recorder.runs.map((run) => run.states)).toEqual([path.states])
      expect(endings.statuses).toEqual(["done"])
      expect(response.status).toBe(302)
      const location = response.headers.get("location")
      // A taken address is mailed a notice, a free one the link; nothing else is mailed.
      const mailed = path.states.includes("notifyingOwner") ? [{ kind: "email-taken", to: newEmail }] : path.states.includes("mailingConfirmation") ? [{ kind: "change-email", to: newEmail }] : []
      expect(s.mails).toEqual(mailed)
      // Nothing changes here: the link does it.
      expect((await s.memory.getUser(userId))?.email).toBe(email)
      switch (path.finalState) {
        case "changeRequested":
          expect(location).toBe(page({ notice: "change-requested" }))
          break
        case "csrfRejected":
          expect(location).toBe(page({ error: "MissingCSRF" }))
          break
        case "signInRequired":
          expect(location).toBe(`${origin}/auth/signin?${new URLSearchParams({ callbackUrl: `${origin}/auth/change-email/password` })}`)
          break
        case "changeRefused":
          expect(location).toBe(page({ error: path.events.some((event) => event.type === "change.read" && event.emailProblem) ? "InvalidEmail" : "SameEmail" }))
          break
        case "passwordRejected":
          expect(location).toBe(page({ error: "CredentialsSignin" }))
          break
        case "noPasswordAccount":
          expect(location).toBe(page({ error: "NoPassword" }))
          break
        case "mailFailed":
          expect(location).toBe(page({ error: "EmailSignin" }))
          expect(errors.map((error) => error.message)).toContain(`The Password provider "password" could not send a mail (${mailed[0]!.kind})`)
          break
        case "rateLimited":
          expect(location).toMatch(new RegExp(`^${origin}/auth/signin\\?error=RateLimited&retryAfter=[1-9]\\d*$`))
          break
        case "changeFailed":
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          expect(errors.length).toBeGreaterThan(0)
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
    })
  }

  afterAll(() => {
    const { line, missing } = coverageReport(passwordChangeEmailMachine, recorder)
    console.log(`password change-email: ${paths.length} paths;`, line)
    expect(missing, `uncovered transitions: ${missing.join(", ")}`).toEqual([])
  })
})
