/**
 * The email change confirmation machine, driven through the real `Auth()` along every path the
 * model generates: a link missing, tampered with or expired, a user gone or no longer at the old
 * address, a new address taken since the mail, the store failing to read or to write, and the
 * notice to the old address failing (the change stands).
 */
import { afterAll, describe, expect, it, vi } from "vitest"
import { passwordConfirmEmailMachine, type PasswordConfirmEmailEvent } from "../../src/machines/password-confirm-email.js"
import Password from "../../src/providers/password.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { origin } from "../helpers.js"
import { modelPaths } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { FlowEndings, expectFullCoverage, expectSharedFinal, faultyAdapter } from "./harness.js"
import { linkSecret, linkToken, recordingMailer } from "./password-links.js"
import { expectLinkFinal, openLink } from "./password-world.js"
import type { AuthConfig } from "../../src/types.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

vi.mock("../../src/machines/password-link.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("password-link", await load()))
vi.mock("../../src/machines/password-confirm-email.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("password-confirm-email", await load()))
loadMachinesPerTest("password-link", "password-confirm-email")

const userId = "u-ada"
const email = "ada@old.test"
const newEmail = "ada@new.test"

/** Payload-carrying events: each is one way the real world can answer an effect. */
const events: PasswordConfirmEmailEvent[] = [
  { type: "link.opened", link: { userId, email, newEmail } },
  { type: "user.found", bound: true, verified: true },
  { type: "user.found", bound: false, verified: true },
  { type: "lookup.failed", error: new Error("user store down") },
  { type: "update.failed", error: new Error("user store down") },
  { type: "mail.failed", error: new Error("SMTP down") },
]

type Path = ReturnType<typeof modelPaths<typeof passwordConfirmEmailMachine>>[number]

async function scenario(path: Path) {
  const has = (type: string) => path.events.some((event) => event.type === type)
  const found = path.events.find((event) => event.type === "user.found") as Extract<PasswordConfirmEmailEvent, { type: "user.found" }> | undefined
  // The lookup that failed: the user's (findingUser) or the new address's (findingNewEmail).
  const failedLookup = has("lookup.failed") ? path.states.at(-2) : undefined
  const memory = MemoryAdapter()
  if (found) await memory.createUser({ id: userId, email: found.bound ? email : "ada@elsewhere.test", emailVerified: new Date() })
  if (has("newEmail.taken")) await memory.createUser({ id: "u-carol", email: newEmail, emailVerified: null })
  const adapter = faultyAdapter(memory, {
    getUser: failedLookup === "findingUser" && new Error("user store down"),
    getUserByEmail: failedLookup === "findingNewEmail" && new Error("user store down"),
    updateUser: has("update.failed") && new Error("user store down"),
  })
  const mailer = recordingMailer(has("mail.failed"))
  const config: AuthConfig = { secret: linkSecret, trustHost: true, adapter, providers: [Password({ verification: "required", sendMail: mailer.sendMail })] }
  const query = has("link.missing") ? "" : has("link.invalid") ? "?token=tampered" : `?token=${await linkToken("change-email", { userId, email, newEmail }, has("link.expired"))}`
  return { config, memory, query, mails: mailer.mails }
}

const recorder = new TransitionRecorder([passwordConfirmEmailMachine])
const endings = new FlowEndings(recorder, "password-confirm-email")
const paths = modelPaths(passwordConfirmEmailMachine, events)

describe("password confirm-email machine, driven through Auth()", () => {
  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(new Set(["linkMissing", "linkInvalid", "linkExpired", "linkStale", "newEmailTaken", "emailChanged", "changeFailed"]))
  })

  for (const path of paths) {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      const s = await scenario(path)
      const { location, errors } = await openLink(s.config, path, endings, `/confirm-email/password${s.query}`)
      const user = await s.memory.getUser(userId)
      // The address changes only where the change was written.
      expect(user?.email === newEmail).toBe(path.states.includes("notifyingOldAddress"))
      if (!expectSharedFinal(path.finalState, location, errors, ["changeFailed"]) && !expectLinkFinal(path.finalState, location)) switch (path.finalState) {
        case "emailChanged":
          expect(location).toBe(`${origin}/auth/signin?notice=email-changed`)
          expect(s.mails).toEqual([{ kind: "email-changed", to: email }])
          if (path.events.some((event) => event.type === "mail.failed")) expect(errors.map((error) => error.message)).toContain('The Password provider "password" could not send a mail (email-changed)')
          break
        case "newEmailTaken":
          expect(location).toBe(`${origin}/auth/signin?error=EmailChangeConflict`)
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
      if (path.finalState !== "emailChanged") expect(s.mails).toEqual([])
    })
  }

  afterAll(() => expectFullCoverage("password confirm-email", passwordConfirmEmailMachine, recorder, paths.length))
})
