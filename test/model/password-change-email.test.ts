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
import { CookieJar, origin } from "../helpers.js"
import { modelPaths } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { FlowEndings, rateLimitOutcomes, expectFullCoverage, expectSharedFinal, faultyAdapter } from "./harness.js"
import { recordingMailer } from "./password-links.js"
import { databaseConfig, expectSignedInFormFinal, linkPasswordAccount, postForm, signInSession } from "./password-world.js"
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
  if (!has("account.none")) await linkPasswordAccount(memory, userId, await storedHash)
  if (has("newEmail.taken")) await memory.createUser({ id: "u-bob", email: newEmail, emailVerified: new Date() })
  const adapter = faultyAdapter(memory, {
    getUser: has("session.failed") && new Error("session store down"),
    getAccount: has("check.failed") && new Error("account store down"),
    getUserByEmail: has("lookup.failed") && new Error("user store down"),
  })
  const mailer = recordingMailer(has("mail.failed"))
  const config = databaseConfig(adapter, path.events, "credentials", [Password({ hashing, verification: "required", sendMail: mailer.sendMail })])
  const jar = new CookieJar()
  // Signed in (a database session) unless the path finds nobody.
  if (!has("session.none")) await signInSession(memory, jar, userId, "session-ada")
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
      const { location, errors } = await postForm(s, path, endings, "/change-email/password", s.jar)
      // A taken address is mailed a notice, a free one the link; nothing else is mailed.
      const mailed = path.states.includes("notifyingOwner") ? [{ kind: "email-taken", to: newEmail }] : path.states.includes("mailingConfirmation") ? [{ kind: "change-email", to: newEmail }] : []
      expect(s.mails).toEqual(mailed)
      // Nothing changes here: the link does it.
      expect((await s.memory.getUser(userId))?.email).toBe(email)
      if (!expectSharedFinal(path.finalState, location, errors, ["changeFailed"]) && !expectSignedInFormFinal(path.finalState, location, "/change-email/password")) switch (path.finalState) {
        case "changeRequested":
          expect(location).toBe(page({ notice: "change-requested" }))
          break
        case "changeRefused":
          expect(location).toBe(page({ error: path.events.some((event) => event.type === "change.read" && event.emailProblem) ? "InvalidEmail" : "SameEmail" }))
          break
        case "mailFailed":
          expect(location).toBe(page({ error: "EmailSignin" }))
          expect(errors.map((error) => error.message)).toContain(`The Password provider "password" could not send a mail (${mailed[0]!.kind})`)
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
    })
  }

  afterAll(() => expectFullCoverage("password change-email", passwordChangeEmailMachine, recorder, paths.length))
})
