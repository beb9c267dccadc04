/**
 * The signed-in password change machine, driven through the real `Auth()` along every path the
 * model generates: no CSRF token, nobody signed in or the session store failing, the limiter, a
 * wrong current password or none, a refused new one, a write that loses the compare-and-set or
 * fails, the other sessions ended (or kept) or the ending failing, the notice (where the provider
 * mails) failing.
 */
import { afterAll, describe, expect, it, vi } from "vitest"
import { passwordChangeMachine, type PasswordChangeEvent } from "../../src/machines/password-change.js"
import type { PasswordChangePolicy } from "../../src/machines/password-reset.js"
import Password from "../../src/providers/password.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { hashPassword } from "../../src/core/password/index.js"
import { CookieJar, cookieNames, origin } from "../helpers.js"
import { modelPaths } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { FlowEndings, limiterRepresentatives, rateLimitOutcomes, expectFullCoverage, expectSharedFinal, faultyAdapter } from "./harness.js"
import { recordingMailer } from "./password-links.js"
import { databaseConfig, down, expectSignedInFormFinal, linkPasswordAccount, postForm, racedTokenWrite, signInSession } from "./password-world.js"
import type { Adapter } from "../../src/adapters.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/password-change.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("password-change", await load()))
loadMachinesPerTest("rate-limit", "csrf-check", "password-change")

const userId = "u-ada"
const email = "ada@example.test"
const password = "correct horse battery"
const hashing = { scrypt: { ln: 10 } }
const storedHash = hashPassword(password, hashing)

/** Payload-carrying events: each is one way the real world can answer an effect. */
const events: PasswordChangeEvent[] = [
  { type: "session.user", user: { id: userId, email } },
  { type: "session.failed", error: down("session store") },
  ...rateLimitOutcomes,
  { type: "password.checked", valid: true },
  { type: "password.checked", valid: false },
  { type: "check.failed", error: down("account store") },
  { type: "newPassword.read" },
  { type: "newPassword.read", problem: "too-short" },
  { type: "write.failed", error: down("account write") },
  { type: "sessions.failed", error: down("session delete") },
  { type: "mail.failed", error: down("SMTP") },
]
const inputs: { policy: PasswordChangePolicy }[] = [
  { policy: { endsOtherSessions: true, mailsNotice: true } },
  { policy: { endsOtherSessions: false, mailsNotice: true } },
  { policy: { endsOtherSessions: true, mailsNotice: false } },
]

type Path = ReturnType<typeof modelPaths<typeof passwordChangeMachine>>[number]

async function scenario(path: Path) {
  const has = (type: string) => path.events.some((event) => event.type === type)
  const policy = (path.input as { policy: PasswordChangePolicy }).policy
  const memory = MemoryAdapter()
  const hash = await storedHash
  await memory.createUser({ id: userId, email, emailVerified: new Date() })
  if (!has("account.none")) await linkPasswordAccount(memory, userId, hash)
  await memory.createSession({ sessionToken: "session-phone", userId, expires: new Date(Date.now() + 3600_000) })
  const adapter: Adapter = {
    ...faultyAdapter(memory, { getUser: has("session.failed") && down("session store"), getAccount: has("check.failed") && down("account store"), deleteUserSessions: has("sessions.failed") && down("session delete") }),
    // A reset lands first.
    updateAccountTokens: racedTokenWrite(memory, has("write.failed") && down("account write"), has("password.raced")),
  }
  const mailer = recordingMailer(has("mail.failed"))
  const config = databaseConfig(adapter, path.events, "credentials", [Password({ hashing, endOtherSessions: policy.endsOtherSessions, ...(policy.mailsNotice && { sendMail: mailer.sendMail }) })])
  const jar = new CookieJar()
  if (!has("session.none")) await signInSession(memory, jar, userId, "session-laptop")
  const checked = path.events.find((event) => event.type === "password.checked") as Extract<PasswordChangeEvent, { type: "password.checked" }> | undefined
  const form = { currentPassword: checked?.valid === false ? "wrong horse battery" : password, newPassword: path.events.some((event) => event.type === "newPassword.read" && event.problem) ? "short" : "a brand new password" }
  return { config, memory, jar, form, csrfValid: !has("csrf.invalid"), mails: mailer.mails, hash }
}

const recorder = new TransitionRecorder([passwordChangeMachine])
const endings = new FlowEndings(recorder, "password-change")
const paths = limiterRepresentatives(modelPaths(passwordChangeMachine, events, { inputs }))
const page = (query: Record<string, string>) => `${origin}/auth/change-password/password?${new URLSearchParams(query)}`

describe("password change machine, driven through Auth()", () => {
  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(
      new Set(["csrfRejected", "signInRequired", "rateLimited", "passwordRejected", "noPasswordAccount", "changeRefused", "passwordChanged", "changeFailed"]),
    )
  })

  for (const path of paths) {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      const s = await scenario(path)
      const { location, errors } = await postForm(s, path, endings, "/change-password/password", s.jar)
      const changed = path.finalState === "passwordChanged"
      const stored = (await s.memory.getAccount(userId, "password"))?.refresh_token
      if (stored !== undefined && !path.events.some((event) => event.type === "password.raced")) expect(stored === s.hash).toBe(!changed)
      expect(s.mails).toEqual(path.states.includes("notifying") ? [{ kind: "password-changed", to: email }] : [])
      // The other session ends exactly when the change ends them (and the store did not fail); this one is issued again.
      const ended = path.states.includes("endingOtherSessions") && !path.events.some((event) => event.type === "sessions.failed")
      expect((await s.memory.getSessionAndUser("session-phone")) === null).toBe(ended)
      if (ended) {
        const current = s.jar.get(cookieNames.https.sessionToken)!
        expect(current).not.toBe("session-laptop")
        expect((await s.memory.getSessionAndUser(current))?.user.id).toBe(userId)
      }
      if (!expectSharedFinal(path.finalState, location, errors, ["changeFailed"]) && !expectSignedInFormFinal(path.finalState, location, "/change-password/password")) switch (path.finalState) {
        case "passwordChanged":
          expect(location).toBe(page({ notice: "password-changed" }))
          break
        case "changeRefused":
          expect(location).toBe(page({ error: "PasswordChangeRefused", reason: "too-short" }))
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
    })
  }

  afterAll(() => expectFullCoverage("password change", passwordChangeMachine, recorder, paths.length))
})
