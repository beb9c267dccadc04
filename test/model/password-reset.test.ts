/**
 * The password reset machine, driven through the real `Auth()` along every path the model
 * generates: no CSRF token; a link missing, tampered with, expired, or bound to a hash the account
 * no longer has; the limiter; the user gone or the store failing; a refused new password; a write
 * that loses the compare-and-set or fails; an address already verified or the marking failing;
 * sessions ended (or kept, `endOtherSessions: false`) or the ending failing; the notice failing.
 */
import { afterAll, describe, expect, it, vi } from "vitest"
import { passwordResetMachine, type PasswordChangePolicy, type PasswordResetEvent } from "../../src/machines/password-reset.js"
import Password from "../../src/providers/password.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { hashPassword } from "../../src/core/password/index.js"
import { linkBindings, sealPasswordLink } from "../../src/actions/password/link-token.js"
import { CookieJar, cookieNames, origin } from "../helpers.js"
import { modelPaths } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { FlowEndings, limiterRepresentatives, rateLimitOutcomes, expectFullCoverage, expectSharedFinal, faultyAdapter } from "./harness.js"
import { linkSecret, recordingMailer } from "./password-links.js"
import type { Adapter } from "../../src/adapters.js"
import { databaseConfig, down, expectLinkFinal, linkPasswordAccount, postForm, racedTokenWrite, resetStepEvents } from "./password-world.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/password-reset.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("password-reset", await load()))
loadMachinesPerTest("rate-limit", "csrf-check", "password-reset")

const userId = "u-ada"
const email = "ada@example.test"
const hashing = { scrypt: { ln: 10 } }
const storedHash = hashPassword("correct horse battery", hashing)

/** Payload-carrying events: each is one way the real world can answer an effect. */
const events: PasswordResetEvent[] = [
  { type: "link.opened", link: { userId, email } },
  ...rateLimitOutcomes,
  ...resetStepEvents,
]
const inputs: { policy: PasswordChangePolicy }[] = [{ policy: { endsOtherSessions: true } }, { policy: { endsOtherSessions: false } }]

type Path = ReturnType<typeof modelPaths<typeof passwordResetMachine>>[number]

/** A reset token for Ada bound to `hash`, sealed now or an hour and more ago. */
async function token(hash: string, expired = false): Promise<string> {
  const [bound] = await linkBindings(linkSecret, hash)
  if (expired) vi.useFakeTimers({ now: Date.now() - 61 * 60 * 1000, toFake: ["Date"] })
  try {
    return await sealPasswordLink(linkSecret, "reset-password", { userId, email, bound: bound! })
  } finally {
    vi.useRealTimers()
  }
}

async function scenario(path: Path) {
  const has = (type: string) => path.events.some((event) => event.type === type)
  const found = path.events.find((event) => event.type === "account.found") as Extract<PasswordResetEvent, { type: "account.found" }> | undefined
  const policy = (path.input as { policy: PasswordChangePolicy }).policy
  const memory = MemoryAdapter()
  const hash = await storedHash
  if (!has("account.missing")) {
    await memory.createUser({ id: userId, email, emailVerified: found?.verified ? new Date(0) : null })
    await linkPasswordAccount(memory, userId, hash)
    await memory.createSession({ sessionToken: "session-ada", userId, expires: new Date(Date.now() + 3600_000) })
  }
  const adapter: Adapter = {
    ...faultyAdapter(memory, { getUser: has("lookup.failed") && down("user store"), updateUser: has("verify.failed") && down("user update"), deleteUserSessions: has("sessions.failed") && down("session store") }),
    // Another change of the password lands first.
    updateAccountTokens: racedTokenWrite(memory, has("write.failed") && down("account store"), has("password.raced")),
  }
  const mailer = recordingMailer(has("mail.failed"))
  const config = databaseConfig(adapter, path.events, "password-reset", [Password({ hashing, sendMail: mailer.sendMail, endOtherSessions: policy.endsOtherSessions })])
  const link = has("link.missing") ? undefined : has("link.invalid") ? "not-a-token" : await token(found?.bound === false ? "$scrypt$an-older-hash" : hash, has("link.expired"))
  const form = { ...(link !== undefined && { token: link }), password: path.events.some((event) => event.type === "newPassword.read" && event.problem) ? "short" : "a brand new password" }
  return { config, memory, form, link, csrfValid: !has("csrf.invalid"), mails: mailer.mails, hash }
}

const recorder = new TransitionRecorder([passwordResetMachine])
const endings = new FlowEndings(recorder, "password-reset")
const paths = limiterRepresentatives(modelPaths(passwordResetMachine, events, { inputs }))
const signIn = (query: Record<string, string>) => `${origin}/auth/signin?${new URLSearchParams(query)}`

describe("password reset machine, driven through Auth()", () => {
  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(
      new Set(["csrfRejected", "linkMissing", "linkInvalid", "linkExpired", "linkStale", "rateLimited", "resetRefused", "passwordReset", "resetFailed"]),
    )
  })

  for (const path of paths) {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      const s = await scenario(path)
      const jar = new CookieJar()
      const { location, errors } = await postForm(s, path, endings, "/reset-password/password", jar)
      const account = await s.memory.getAccount(userId, "password")
      const written = path.finalState === "passwordReset"
      // The hash changes exactly when the write won.
      if (account && !path.events.some((event) => event.type === "password.raced")) expect(account?.refresh_token === s.hash).toBe(!written)
      expect(s.mails).toEqual(path.states.includes("notifying") ? [{ kind: "password-changed", to: email }] : [])
      // The session row goes exactly when the reset ends the sessions (and the store did not fail).
      const sessionKept = (await s.memory.getSessionAndUser("session-ada")) !== null
      if (account) expect(sessionKept).toBe(!(path.states.includes("endingOtherSessions") && !path.events.some((event) => event.type === "sessions.failed")))
      if (!expectSharedFinal(path.finalState, location, errors, ["resetFailed"]) && !expectLinkFinal(path.finalState, location)) switch (path.finalState) {
        case "passwordReset":
          expect(location).toBe(signIn({ notice: "password-reset" }))
          expect((await s.memory.getUser(userId))?.emailVerified).toEqual(path.events.some((event) => event.type === "verify.failed") ? null : expect.any(Date))
          break
        case "csrfRejected":
          expect(location).toBe(`${origin}/auth/reset-password/password?${new URLSearchParams({ token: s.link!, error: "MissingCSRF" })}`)
          break
        case "resetRefused":
          expect(location).toBe(`${origin}/auth/reset-password/password?${new URLSearchParams({ token: s.link!, error: "PasswordResetRefused", reason: "too-short" })}`)
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
      expect(jar.get(cookieNames.https.sessionToken)).toBeUndefined()
    })
  }

  afterAll(() => expectFullCoverage("password reset", passwordResetMachine, recorder, paths.length))
})
