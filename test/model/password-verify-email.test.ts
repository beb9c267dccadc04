/**
 * The address verification machine, driven through the real `Auth()` along every path the model
 * generates: a link that is missing, tampered with or expired, a user gone or moved to another
 * address, an address verified already, and the store failing to read or to write.
 */
import { afterAll, describe, expect, it, vi } from "vitest"
import { passwordVerifyEmailMachine, type PasswordVerifyEmailEvent } from "../../src/machines/password-verify-email.js"
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
vi.mock("../../src/machines/password-verify-email.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("password-verify-email", await load()))
loadMachinesPerTest("password-link", "password-verify-email")

const email = "ada@example.test"
const userId = "u-ada"

/** Payload-carrying events: each is one way the real world can answer an effect. */
const events: PasswordVerifyEmailEvent[] = [
  { type: "link.opened", link: { userId, email } },
  { type: "user.found", bound: true, verified: false },
  { type: "user.found", bound: true, verified: true },
  { type: "user.found", bound: false, verified: false },
  { type: "lookup.failed", error: new Error("user store down") },
  { type: "update.failed", error: new Error("user store down") },
]

type Path = ReturnType<typeof modelPaths<typeof passwordVerifyEmailMachine>>[number]

async function scenario(path: Path) {
  const has = (type: string) => path.events.some((event) => event.type === type)
  const found = path.events.find((event) => event.type === "user.found") as Extract<PasswordVerifyEmailEvent, { type: "user.found" }> | undefined
  const memory = MemoryAdapter()
  const verifiedAt = new Date("2026-01-01T00:00:00Z")
  if (found) await memory.createUser({ id: userId, email: found.bound ? email : "ada@elsewhere.test", emailVerified: found.verified ? verifiedAt : null })
  const adapter = faultyAdapter(memory, { getUser: has("lookup.failed") && new Error("user store down"), updateUser: has("update.failed") && new Error("user store down") })
  const { sendMail } = recordingMailer(false)
  const config: AuthConfig = { secret: linkSecret, trustHost: true, adapter, providers: [Password({ verification: "required", sendMail })] }
  const query = has("link.missing") ? "" : has("link.invalid") ? "?token=tampered" : `?token=${await linkToken("verify-email", { userId, email }, has("link.expired"))}`
  return { config, memory, query, verifiedAt }
}

const recorder = new TransitionRecorder([passwordVerifyEmailMachine])
const endings = new FlowEndings(recorder, "password-verify-email")
const paths = modelPaths(passwordVerifyEmailMachine, events)

describe("password verify-email machine, driven through Auth()", () => {
  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(new Set(["linkMissing", "linkInvalid", "linkExpired", "linkStale", "emailVerified", "verifyFailed"]))
  })

  for (const path of paths) {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      const s = await scenario(path)
      const { location, errors } = await openLink(s.config, path, endings, `/verify-email/password${s.query}`)
      const user = await s.memory.getUser(userId)
      if (!expectSharedFinal(path.finalState, location, errors, ["verifyFailed"]) && !expectLinkFinal(path.finalState, location)) switch (path.finalState) {
        case "emailVerified":
          expect(location).toBe(`${origin}/auth/signin?notice=email-verified`)
          expect(user?.emailVerified).toBeInstanceOf(Date)
          // Verified already: the date stays.
          if (!path.states.includes("markingVerified")) expect(user?.emailVerified).toEqual(s.verifiedAt)
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
      if (path.finalState !== "emailVerified" && user) expect(user.emailVerified === null || user.emailVerified.valueOf() === s.verifiedAt.valueOf()).toBe(true)
    })
  }

  afterAll(() => expectFullCoverage("password verify-email", passwordVerifyEmailMachine, recorder, paths.length))
})
