/**
 * The reset request machine, driven through the real `Auth()` along every path the model
 * generates: no CSRF token, an address that is not one, the limiter, a known account (mailed,
 * or the mail failing), an unknown address (the dummy seal, no mail), and the store failing; each
 * with reset links and with reset codes (`resetBy: "code"`, the browser going on to the code form).
 */
import { afterAll, describe, expect, it, vi } from "vitest"
import { passwordResetRequestMachine, type PasswordResetRequestEvent, type ResetRequestPolicy } from "../../src/machines/password-reset-request.js"
import Password from "../../src/providers/password.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { hashPassword } from "../../src/core/password/index.js"
import { CookieJar, origin } from "../helpers.js"
import { modelPaths } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { FlowEndings, limiterRepresentatives, rateLimitOutcomes, expectFullCoverage, expectSharedFinal, faultyAdapter } from "./harness.js"
import { recordingMailer } from "./password-links.js"
import { databaseConfig, linkPasswordAccount, postForm } from "./password-world.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/password-reset-request.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("password-reset-request", await load()))
loadMachinesPerTest("rate-limit", "csrf-check", "password-reset-request")

const userId = "u-ada"
const email = "ada@example.test"
const storedHash = hashPassword("correct horse battery", { scrypt: { ln: 10 } })

/** Payload-carrying events: each is one way the real world can answer an effect. */
const events: PasswordResetRequestEvent[] = [
  { type: "request.read", email },
  { type: "request.read", emailProblem: "syntax" },
  ...rateLimitOutcomes,
  { type: "account.found", user: { id: userId, email }, hash: "$scrypt$…" },
  { type: "lookup.failed", error: new Error("user store down") },
  { type: "mail.failed", error: new Error("SMTP down") },
]

const inputs: { policy: ResetRequestPolicy }[] = [{ policy: { resetsByCode: false } }, { policy: { resetsByCode: true } }]

type Path = ReturnType<typeof modelPaths<typeof passwordResetRequestMachine>>[number]

async function scenario(path: Path) {
  const has = (type: string) => path.events.some((event) => event.type === type)
  const read = path.events.find((event) => event.type === "request.read") as Extract<PasswordResetRequestEvent, { type: "request.read" }> | undefined
  const memory = MemoryAdapter()
  if (has("account.found")) {
    await memory.createUser({ id: userId, email, emailVerified: null })
    await linkPasswordAccount(memory, userId, await storedHash)
  }
  const adapter = faultyAdapter(memory, { getUserByEmail: has("lookup.failed") && new Error("user store down") })
  const { resetsByCode } = (path.input as { policy: ResetRequestPolicy }).policy
  const mailer = recordingMailer(has("mail.failed"))
  const config = databaseConfig(adapter, path.events, "password-reset", [Password({ hashing: { scrypt: { ln: 10 } }, sendMail: mailer.sendMail, resetBy: resetsByCode ? "code" : "link" })])
  const form = { email: read?.emailProblem ? "not-an-address" : email.toUpperCase() }
  return { config, form, csrfValid: !has("csrf.invalid"), mails: mailer.mails }
}

const recorder = new TransitionRecorder([passwordResetRequestMachine])
const endings = new FlowEndings(recorder, "password-reset-request")
const paths = limiterRepresentatives(modelPaths(passwordResetRequestMachine, events, { inputs }))
const form = (query: Record<string, string>) => `${origin}/auth/forgot-password/password?${new URLSearchParams(query)}`

describe("password reset request machine, driven through Auth()", () => {
  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(new Set(["csrfRejected", "requestRefused", "rateLimited", "resetSent", "codeSent", "requestFailed"]))
  })

  for (const path of paths) {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      const s = await scenario(path)
      const jar = new CookieJar()
      const { response, location, errors } = await postForm(s, path, endings, "/forgot-password/password", jar)
      // Only a known account is mailed, and only its reset link.
      expect(s.mails).toEqual(path.states.includes("mailingResetLink") ? [{ kind: "reset-password", to: email }] : [])
      if (!expectSharedFinal(path.finalState, location, errors, [])) switch (path.finalState) {
        case "resetSent":
          expect(location).toBe(`${origin}/auth/signin?notice=reset-sent`)
          if (path.events.some((event) => event.type === "mail.failed")) expect(errors.map((error) => error.message)).toContain(`The Password provider "password" could not send a mail (reset-password)`)
          break
        case "codeSent":
          // A known address, an unknown one and a failed mail alike: the code form, the flow sealed in this browser.
          expect(location).toBe(`${origin}/auth/reset-password/password?type=code`)
          expect(response.headers.getSetCookie().some((cookie) => cookie.includes(".password-reset-code="))).toBe(true)
          break
        case "csrfRejected":
          expect(location).toBe(form({ error: "MissingCSRF" }))
          break
        case "requestRefused":
          expect(location).toBe(form({ error: "InvalidEmail" }))
          break
        case "requestFailed":
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
    })
  }

  afterAll(() => expectFullCoverage("password reset request", passwordResetRequestMachine, recorder, paths.length))
})
