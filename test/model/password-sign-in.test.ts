/**
 * The password sign-in machine, driven through the real `Auth()` along every path the model
 * generates: the Password provider over a memory adapter holding Ada (verified or not) with her
 * password account, a legacy hash an app brought (which verifies through the hook and is replaced),
 * or nobody; the store failing where a path says so; the sign-in tail with both session strategies
 * and second factors on.
 */
import { afterAll, describe, expect, it, vi } from "vitest"
import { passwordSignInMachine, type PasswordSignInEvent, type PasswordSignInPolicy } from "../../src/machines/password-sign-in.js"
import Password from "../../src/providers/password.js"
import { hashPassword } from "../../src/core/password/index.js"
import { CookieJar, cookieNames, origin, send } from "../helpers.js"
import { modelPaths } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { postForm } from "./password-world.js"
import { expectSecondFactorFinal, FlowEndings, rateLimitOutcomes, secondFactorFindings, secondFactorInputs, secondFactorRepresentatives, secondFactorWorldOf, signInDecisionOf, signInDecisions, tailCallbacks, tailConfig, tailInputs, expectFullCoverage, expectSharedFinal, faultsOn, faultyAdapter, inSecondFactorWorld } from "./harness.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { Adapter } from "../../src/adapters.js"
import type { AuthConfig } from "../../src/types.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

vi.mock("../../src/machines/password-sign-in.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("password-sign-in", await load()))
vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("csrf-check", await load()))
loadMachinesPerTest("sign-in-tail", "rate-limit", "csrf-check", "password-sign-in")

const secret = "model-secret-for-passwords"
const ada = { id: "u1", name: "Ada Lovelace", email: "ada@example.test" }
const password = "correct horse battery"
/** A cheap scrypt cost for the model's many sign-ins (the engine's work is the same at any cost). */
const hashing = { scrypt: { ln: 10 } }
/** The hash the model's Ada has: made once, with the configured parameters. */
const currentHash = hashPassword(password, hashing)

/** Payload-carrying events: each is one way the real world can answer an effect. */
const events: PasswordSignInEvent[] = [
  { type: "credentials.read", identifier: ada.email, nonString: [] },
  { type: "credentials.read", nonString: [] },
  { type: "credentials.read", nonString: ["email"] },
  ...rateLimitOutcomes,
  { type: "account.found", user: ada, hash: "stored", emailVerified: true },
  { type: "account.found", user: ada, hash: "stored", emailVerified: false },
  { type: "account.unknown" },
  { type: "account.failed", error: new Error("user store down") },
  { type: "password.checked", valid: true, needsRehash: false },
  { type: "password.checked", valid: true, needsRehash: true },
  { type: "password.checked", valid: false, needsRehash: false },
  { type: "dummyPassword.checked" },
  { type: "rehash.failed", error: new Error("account store down") },
  { type: "mail.sent" },
  { type: "mail.failed", error: new Error("SMTP down") },
  ...signInDecisions,
  ...secondFactorFindings(),
  { type: "session.failed", error: "createSession threw" },
  { type: "encode.failed", error: "jwt callback threw" },
]

type Path = ReturnType<typeof modelPaths<typeof passwordSignInMachine>>[number]
const policyOf = (path: Path) => (path.input as { policy: PasswordSignInPolicy }).policy

/** The world of a path: the database, the configuration, and the form sent. */
async function scenario(path: Path) {
  const byType = new Map(path.events.map((event) => [event.type, event]))
  const policy = policyOf(path)
  const found = byType.get("account.found") as Extract<PasswordSignInEvent, { type: "account.found" }> | undefined
  const checked = byType.get("password.checked") as Extract<PasswordSignInEvent, { type: "password.checked" }> | undefined
  const memory = MemoryAdapter()
  // Ada is in the database for every path (a database session needs her row); only a found account has a password.
  await memory.createUser({ ...ada, emailVerified: found?.emailVerified ? new Date() : null })
  if (found) {
    // An outdated hash: the app's legacy one, which verifies through the hook and is replaced.
    const hash = checked?.needsRehash ? `$legacy$${password}` : await currentHash
    await memory.linkAccount({ userId: ada.id, type: "credentials" as never, provider: "password", providerAccountId: ada.id, refresh_token: hash })
  }
  const signInEvents: unknown[] = []
  const mails: string[] = []
  const adapter: Adapter = {
    ...faultyAdapter(memory, faultsOn((type) => byType.has(type), { updateAccountTokens: ["rehash.failed", "account store down"], createSession: ["session.failed", "createSession threw"] })),
    async getUserByEmail(email) {
      if (byType.has("account.failed")) throw new Error("user store down")
      // Nobody: the email names no user (Ada is there for the session row only).
      return found ? memory.getUserByEmail(email) : null
    },
  }
  const config: AuthConfig = {
    ...tailConfig(secret, adapter, policy, path.events, "credentials", "/auth/new-user"),
    providers: [
      Password({
        hashing,
        verification: policy.requiresVerifiedEmail ? "required" : "optional",
        ...(policy.verifiesByCode && { verifyBy: "code" as const }),
        sendMail: (mail) => {
          mails.push(mail.kind)
          if (byType.has("mail.failed")) throw new Error("SMTP down")
        },
        verifyLegacyHash: (typed, hash) => hash === `$legacy$${typed}`,
      }),
    ],
    callbacks: {
      signIn: () => signInDecisionOf(path.events),
      ...tailCallbacks(path.events, () => byType.has("encode.failed")),
    },
    events: { signIn: (message) => void signInEvents.push(message) },
  }
  const read = byType.get("credentials.read") as Extract<PasswordSignInEvent, { type: "credentials.read" }> | undefined
  const typed = checked?.valid === false ? "wrong horse battery" : password
  // An email that is not a string only JSON can send; a form names the email, or only the password.
  const json = read?.nonString.length ? { email: [ada.email], password: typed } : undefined
  const fields: Record<string, string> = json ? {} : read?.identifier === undefined ? { password: typed } : { email: ada.email, password: typed }
  return { config, memory, form: { callbackUrl: "/dashboard", ...fields }, json, csrfValid: !byType.has("csrf.invalid"), signInEvents, mails, hadLegacyHash: checked?.needsRehash === true, rehashFails: byType.has("rehash.failed") }
}

/**
 * The paths the real world can walk: a request whose email cannot be read walks on as one that
 * names nobody (checked against the dummy hash): one such path is driven.
 */
function drivable(paths: readonly Path[]): Path[] {
  let kept = false
  return paths.filter((path) => {
    const has = (type: string) => path.events.some((event) => event.type === type)
    const unread = path.events.some((event) => event.type === "credentials.read" && event.identifier === undefined && event.nonString.length === 0)
    if (unread && has("account.found")) return false
    if (!unread) return true
    if (kept) return false
    return (kept = true)
  })
}

/** Where verification is required, only the paths that reach the check are new: the others are the optional policy's. */
const inputs = [
  ...[...tailInputs, ...secondFactorInputs].map(({ policy }) => ({ policy: { ...policy, requiresVerifiedEmail: false } })),
  { policy: { ...tailInputs[1]!.policy, requiresVerifiedEmail: true } },
  // Verified by code: the right password of an unverified address mails a fresh code.
  { policy: { ...tailInputs[1]!.policy, requiresVerifiedEmail: true, verifiesByCode: true } },
]
const recorder = new TransitionRecorder([passwordSignInMachine])
const endings = new FlowEndings(recorder, "password-sign-in")
const paths = secondFactorRepresentatives(drivable(modelPaths(passwordSignInMachine, events, { inputs })))


describe("password sign-in machine, driven through Auth()", () => {
  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(
      new Set(["signedIn", "csrfRejected", "credentialsMalformed", "credentialsRejected", "emailUnverified", "codeSent", "signInFailed", "accessDenied", "redirected", "sessionFailed", "rateLimited", "secondFactorRequired", "secondFactorUnavailable"]),
    )
  })

  for (const path of paths) {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      const s = await scenario(path)
      const world = secondFactorWorldOf(path.events)
      const jar = new CookieJar()
      const config = policyOf(path).secondFactor ? await inSecondFactorWorld(s.config, world, jar, { userId: ada.id, secret }) : s.config
      const { response, location, errors } = await postForm({ ...s, config }, path, endings, "/callback/password", jar)
      const sessionCookie = jar.get(cookieNames.https.sessionToken)
      // The legacy hash is replaced once the password passed, unless storing the new one failed.
      const stored = (await s.memory.getAccount!(ada.id, "password"))?.refresh_token
      if (s.hadLegacyHash) expect(stored?.startsWith("$scrypt$")).toBe(path.states.includes("rehashingPassword") && !s.rehashFails)
      if (expectSecondFactorFinal(path.finalState, world, response, jar, origin)) return
      if (!expectSharedFinal(path.finalState, location, errors, ["signInFailed", "sessionFailed"])) switch (path.finalState) {
        case "signedIn":
          expect(location).toBe(`${origin}/dashboard`)
          expect(sessionCookie).toBeTruthy()
          expect(((await (await send(config, jar, "/session")).json()) as { user?: { email?: string } }).user?.email).toBe(ada.email)
          expect(s.signInEvents).toHaveLength(1)
          break
        case "csrfRejected":
          expect(location).toBe(`${origin}/auth/signin?error=MissingCSRF`)
          break
        case "credentialsMalformed":
        case "credentialsRejected":
          expect(location).toBe(`${origin}/auth/signin?error=CredentialsSignin&code=credentials`)
          break
        case "emailUnverified":
          expect(location).toBe(`${origin}/auth/signin?error=CredentialsSignin&code=email_unverified`)
          // With codes, only after the fresh code could not be mailed.
          expect(s.mails).toEqual(path.states.includes("mailingCode") ? ["verify-email"] : [])
          break
        case "codeSent":
          expect(location).toBe(`${origin}/auth/verify-request?provider=password&type=code`)
          expect(jar.get(`${cookieNames.https.flow}.password-code`)).toBeTruthy()
          expect(s.mails).toEqual(["verify-email"])
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
      if (path.finalState !== "signedIn") {
        expect(sessionCookie).toBeUndefined()
        expect(s.signInEvents).toHaveLength(0)
      }
    })
  }

  afterAll(() => expectFullCoverage("password sign-in", passwordSignInMachine, recorder, paths.length))
})
