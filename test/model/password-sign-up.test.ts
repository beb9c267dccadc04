/**
 * The password sign-up machine, driven through the real `Auth()` along every path the model
 * generates: a form that is refused before anything is looked up, an email that is taken or new,
 * the store failing where a path says so, verification required or not, and the sign-in tail with
 * both session strategies and second factors on (a new user has no factor: only a requirement, or
 * nothing, or a failing store can be found).
 */
import { afterAll, describe, expect, it, vi } from "vitest"
import { passwordSignUpMachine, type PasswordSignUpEvent } from "../../src/machines/password-sign-up.js"
import type { PasswordSignUpPolicy } from "../../src/machines/password-sign-up.js"
import type { PasswordMail } from "../../src/types.js"
import Password from "../../src/providers/password.js"
import { CookieJar, cookieNames, origin, send } from "../helpers.js"
import { modelPaths } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { postForm } from "./password-world.js"
import { expectSecondFactorFinal, FlowEndings, rateLimitOutcomes, secondFactorFindings, secondFactorInputs, secondFactorRepresentatives, secondFactorWorldOf, signInDecisionOf, signInDecisions, tailCallbacks, tailConfig, tailInputs, expectFullCoverage, expectSharedFinal, faultsOn, faultyAdapter, inSecondFactorWorld } from "./harness.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { Adapter } from "../../src/adapters.js"
import type { AuthConfig } from "../../src/types.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

vi.mock("../../src/machines/password-sign-up.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("password-sign-up", await load()))
vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("csrf-check", await load()))
loadMachinesPerTest("sign-in-tail", "rate-limit", "csrf-check", "password-sign-up")

const secret = "model-secret-for-sign-ups"
const email = "ada@example.test"
const password = "correct horse battery"
const created = { id: "u-new", name: "Ada", email, emailVerified: null }

/** Payload-carrying events: each is one way the real world can answer an effect. */
const events: PasswordSignUpEvent[] = [
  { type: "signUp.read", email, name: "Ada" },
  { type: "signUp.read", emailProblem: "syntax" },
  { type: "signUp.read", email, passwordProblem: "too-short" },
  ...rateLimitOutcomes,
  { type: "user.exists" },
  { type: "user.absent" },
  { type: "lookup.failed", error: new Error("user store down") },
  ...signInDecisions,
  { type: "account.created", user: created },
  { type: "create.failed", error: new Error("account store down"), addressTaken: false },
  { type: "create.failed", error: new Error("duplicate key"), addressTaken: true },
  { type: "mail.sent" },
  { type: "mail.failed", error: new Error("SMTP down") },
  // A new user has no factor: a requirement, nothing, or the factor store failing.
  ...secondFactorFindings().filter((event) => event.type === "secondFactor.failed" || (event.factors === 0 && event.backupCodes === 0)),
  { type: "session.failed", error: "createSession threw" },
  { type: "encode.failed", error: "jwt callback threw" },
]

type Path = ReturnType<typeof modelPaths<typeof passwordSignUpMachine>>[number]
const policyOf = (path: Path) => (path.input as { policy: PasswordSignUpPolicy }).policy

function scenario(path: Path) {
  const byType = new Map(path.events.map((event) => [event.type, event]))
  const policy = policyOf(path)
  const memory = MemoryAdapter()
  if (byType.has("user.exists")) void memory.createUser({ id: "u-before", email, emailVerified: null })
  const raced = (byType.get("create.failed") as { addressTaken?: boolean } | undefined)?.addressTaken === true
  const signInEvents: unknown[] = []
  const mails: PasswordMail["kind"][] = []
  // Mailing where verification is required, or where the input says an optional one is mailed.
  const mailing = policy.requiresVerifiedEmail || policy.mailsVerification === true
  const sendMail = (mail: PasswordMail) => {
    mails.push(mail.kind)
    if (byType.has("mail.failed")) throw new Error("SMTP down")
  }
  const adapter: Adapter = {
    ...faultyAdapter(
      memory,
      faultsOn((type) => byType.has(type), {
        getUserByEmail: ["lookup.failed", "user store down"],
        linkAccount: ["create.failed", "account store down"],
        createSession: ["session.failed", "createSession threw"],
      }),
    ),
    // The new user gets the model's id: the second-factor world is built for it.
    async createUser(user) {
      if (raced) {
        // Another sign-up wrote the address first: a unique index refuses this one.
        await memory.createUser({ id: "u-racer", email: user.email, emailVerified: null })
        throw new Error("duplicate key")
      }
      return memory.createUser({ ...user, id: created.id })
    },
  }
  const config: AuthConfig = {
    ...tailConfig(secret, adapter, policy, path.events, "credentials", "/auth/new-user"),
    // A cheap scrypt cost for the model's many sign-ups.
    providers: [
      Password({ hashing: { scrypt: { ln: 10 } }, verification: policy.requiresVerifiedEmail ? "required" : "optional", ...(mailing && { sendMail }), ...(policy.verifiesByCode && { verifyBy: "code" as const }) }),
    ],
    callbacks: {
      signIn: () => signInDecisionOf(path.events),
      ...tailCallbacks(path.events, () => byType.has("encode.failed")),
    },
    events: { signIn: (message) => void signInEvents.push(message) },
  }
  const read = byType.get("signUp.read") as Extract<PasswordSignUpEvent, { type: "signUp.read" }> | undefined
  const form: Record<string, string> = read?.emailProblem ? { email: "not-an-address", password } : read?.passwordProblem ? { email, password: "short" } : { email, password, name: "Ada" }
  return { config, memory, form, csrfValid: !byType.has("csrf.invalid"), signInEvents, mails }
}

// A new user goes to pages.newUser when it is set: the tail's inputs set it; one input leaves it out.
const inputs = [
  ...[...tailInputs, ...secondFactorInputs].map(({ policy }) => ({ policy: { ...policy, requiresVerifiedEmail: false } })),
  ...tailInputs.map(({ policy }) => ({ policy: { ...policy, newUserPage: false, requiresVerifiedEmail: false } })),
  { policy: { ...tailInputs[1]!.policy, requiresVerifiedEmail: true } },
  // Verification optional, with sendMail: the link is mailed, and the new user signed in at once.
  { policy: { ...tailInputs[1]!.policy, requiresVerifiedEmail: false, mailsVerification: true } },
  // Verified by code (`verifyBy: "code"`), required or optional: the browser goes to the code page.
  { policy: { ...tailInputs[1]!.policy, requiresVerifiedEmail: true, verifiesByCode: true } },
  { policy: { ...tailInputs[1]!.policy, requiresVerifiedEmail: false, mailsVerification: true, verifiesByCode: true } },
]
const recorder = new TransitionRecorder([passwordSignUpMachine])
const endings = new FlowEndings(recorder, "password-sign-up")
const paths = secondFactorRepresentatives(modelPaths(passwordSignUpMachine, events, { inputs }))
/** A new account has no trusted device and no factor: those rules stay for an adapter whose createUser answers with a user who existed. */
const unreachable = new Map([
  ["password-sign-up.checkingSecondFactor:secondFactor.found:0", "a new account has no trusted device"],
  ["password-sign-up.checkingSecondFactor:secondFactor.found:1", "a new account has no factor"],
])

describe("password sign-up machine, driven through Auth()", () => {
  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(
      new Set(["signedIn", "signedInNewUser", "csrfRejected", "signUpRefused", "emailTaken", "verificationRequired", "codeSent", "signUpFailed", "accessDenied", "redirected", "sessionFailed", "rateLimited", "secondFactorRequired", "secondFactorUnavailable"]),
    )
  })

  for (const path of paths) {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      const s = scenario(path)
      const world = secondFactorWorldOf(path.events)
      const jar = new CookieJar()
      const config = policyOf(path).secondFactor ? await inSecondFactorWorld(s.config, world, jar, { userId: created.id, secret }) : s.config
      const { response, location, errors } = await postForm({ ...s, config, form: { callbackUrl: "/dashboard", ...s.form } }, path, endings, "/signup/password", jar)
      const sessionCookie = jar.get(cookieNames.https.sessionToken)
      // The account exists once it was created, whatever followed; never when the creation failed (its user is removed again).
      const account = await s.memory.getAccount!(created.id, "password")
      expect(Boolean(account)).toBe(path.events.some((event) => event.type === "account.created"))
      expect(await s.memory.getUser!(created.id)).toEqual(account ? expect.objectContaining({ email }) : null)
      // A taken address is mailed an email-taken notice where verification is required; a new account its link, where mails go out.
      const taken = path.events.some((event) => event.type === "user.exists" || (event.type === "create.failed" && event.addressTaken))
      const mailed = path.states.includes("notifyingOwner") ? ["email-taken"] : path.states.includes("mailingVerification") ? ["verify-email"] : []
      expect(s.mails).toEqual(mailed)
      if (path.events.some((event) => event.type === "mail.failed")) expect(errors.map((error) => error.message)).toContain(`The Password provider "password" could not send a mail (${mailed[0]})`)
      if (expectSecondFactorFinal(path.finalState, world, response, jar, origin)) return
      if (!expectSharedFinal(path.finalState, location, errors, ["signUpFailed", "sessionFailed"])) switch (path.finalState) {
        case "signedIn":
        case "signedInNewUser":
          expect(location).toBe(path.finalState === "signedIn" ? `${origin}/dashboard` : `/auth/new-user?callbackUrl=${encodeURIComponent(`${origin}/dashboard`)}`)
          expect(((await (await send(config, jar, "/session")).json()) as { user?: { email?: string } }).user?.email).toBe(email)
          expect(s.signInEvents).toHaveLength(1)
          break
        case "csrfRejected":
          expect(location).toBe(`${origin}/auth/signin?error=MissingCSRF`)
          break
        case "signUpRefused":
          expect(location).toBe(`${origin}/auth/signin?error=SignUpRefused`)
          break
        case "emailTaken":
          expect(location).toBe(`${origin}/auth/signin?error=EmailTaken`)
          break
        case "verificationRequired":
          // A taken address and a new account end alike: the same redirect, a notice mailed either way.
          expect(location).toBe(`${origin}/auth/signin?notice=verify-email`)
          expect(s.mails).toEqual([taken ? "email-taken" : "verify-email"])
          break
        case "codeSent":
          // A taken address and a new account end alike here too: the code page, with a sealed flow waiting for the code.
          expect(location).toBe(`${origin}/auth/verify-request?provider=password&type=code`)
          expect(jar.get(`${cookieNames.https.flow}.password-code`)).toBeTruthy()
          expect(s.mails).toEqual([taken ? "email-taken" : "verify-email"])
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
      if (path.finalState !== "signedIn" && path.finalState !== "signedInNewUser") {
        expect(sessionCookie).toBeUndefined()
        expect(s.signInEvents).toHaveLength(0)
      }
    })
  }

  afterAll(() => expectFullCoverage("password sign-up", passwordSignUpMachine, recorder, paths.length, { unreachable }))
})
