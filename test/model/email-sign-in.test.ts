import { afterAll, describe, expect, it, vi } from "vitest"
import { emailSignInMachine, type EmailSignInEvent } from "../../src/machines/email-sign-in.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import type { Adapter, AdapterUser, VerificationToken } from "../../src/adapters.js"
import type { AuthConfig, User } from "../../src/types.js"
import type { AuthError } from "../../src/errors.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { smtpForFile } from "../support/smtp.js"
import { modelPaths } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { expectFullCoverage, expectTailFinal, FlowEndings, modelClientHeaders, rateLimitOf, rateLimitOutcomes, redirectCallbackOf, signInDecisionOf, signInDecisions } from "./harness.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"
import { Concealed } from "../../src/core/concealed.js"
import type { EmailCodeMode } from "../../src/providers/email-config.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see test/machines/load-per-test.ts).
vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/email-sign-in.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("email-sign-in", await load()))
loadMachinesPerTest("sign-in-tail", "rate-limit", "csrf-check", "email-sign-in")

const ada = "ada@example.test"
const hostile = "x<evil@evil.test>"
const adaUser: AdapterUser = { id: "u-ada", name: "Ada", email: ada, emailVerified: null }

/** Payload-carrying events: each is one way the real world can answer an effect. */
const events: EmailSignInEvent[] = [
  { type: "email.normalized", normalized: ada },
  // A user's normaliser that lets through what the grammar refuses.
  { type: "email.normalized", normalized: hostile },
  { type: "normalizer.threw", error: new TypeError("Invalid email address format.") },
  ...rateLimitOutcomes,
  { type: "user.lookedUp", user: adaUser },
  { type: "user.lookedUp", user: null },
  { type: "lookup.failed", error: new Error("user store down") },
  ...signInDecisions,
  { type: "store.failed", error: new Error("token store down") },
  { type: "code.made", code: new Concealed("038114"), hash: "hash", expiresAt: 0 },
  { type: "send.failed", error: new Error("SMTP refused the recipient") },
  { type: "revoke.failed", error: new Error("token store down") },
]

const smtp = smtpForFile()

/** The real configuration and request that make the engine meet exactly these events. */
function scenario(path: EmailSignInEvent[], code: EmailCodeMode) {
  const byType = new Map(path.map((event) => [event.type, event]))
  const normalized = byType.get("email.normalized")
  const grammarRefuses = normalized !== undefined && "normalized" in normalized && normalized.normalized === hostile
  const lookedUp = byType.get("user.lookedUp")
  const existingUser = lookedUp !== undefined && "user" in lookedUp && lookedUp.user !== null
  const smtpRefuses = byType.has("send.failed")
  const memory = MemoryAdapter()
  const storedTokens: VerificationToken[] = []
  const adapter: Adapter = {
    ...memory,
    async getUserByEmail(email) {
      if (byType.has("lookup.failed")) throw new Error("user store down")
      return memory.getUserByEmail(email)
    },
    async createVerificationToken(token) {
      if (byType.has("store.failed")) throw new Error("token store down")
      storedTokens.push({ ...token })
      return memory.createVerificationToken(token)
    },
    async useVerificationToken(params) {
      if (byType.has("revoke.failed")) throw new Error("token store down")
      return memory.useVerificationToken(params)
    },
  }
  const address = smtpRefuses ? "bounce@example.test" : ada
  const asked: User[] = []
  const config: AuthConfig = {
    secret: "model-secret",
    trustHost: true,
    ...rateLimitOf(path, "email"),
    adapter,
    providers: [Nodemailer({ server: smtp.server, from: "login@app.test", code, ...(grammarRefuses && { normalizeIdentifier: (typed: string) => typed.trim() }) })],
    callbacks: {
      signIn({ user }) {
        asked.push(user)
        return signInDecisionOf(path)
      },
      ...redirectCallbackOf(path),
    },
  }
  let typed = ` ${address.toUpperCase()} `
  if (grammarRefuses) typed = ` ${hostile} `
  if (byType.has("normalizer.threw")) typed = "ada＠example.test"
  return {
    config,
    memory,
    storedTokens,
    smtpRefuses,
    existingUser,
    address,
    asked,
    typed,
    csrfValid: !byType.has("csrf.invalid"),
    revokeFails: byType.has("revoke.failed"),
  }
}

const recorder = new TransitionRecorder([emailSignInMachine])
const endings = new FlowEndings(recorder, "email-sign-in")
/** The provider's `code` option: links only (the Auth.js wire), a code instead of the link, or both. */
const codeModes = [undefined, { code: "instead" }, { code: "beside" }] as const
const paths = modelPaths(emailSignInMachine, events, { inputs: codeModes })
const codeOf = (input: unknown): EmailCodeMode => (input as { code?: EmailCodeMode } | undefined)?.code ?? false

describe("email sign-in machine, driven through Auth()", () => {
  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(
      new Set(["linkSent", "codeSent", "csrfRejected", "emailRejected", "lookupFailed", "accessDenied", "redirected", "storeFailed", "sendFailed", "rateLimited"]),
    )
  })

  for (const path of paths) {
    const code = codeOf(path.input)
    it(`${code ? `code ${code}: ` : ""}${path.description} ⇒ ${path.finalState}`, async () => {
      const s = scenario(path.events, code)
      if (s.smtpRefuses) smtp.refused.add(s.address)
      const existing = s.existingUser ? await s.memory.createUser({ ...adaUser, email: s.address }) : undefined
      const { logger: recording, errors } = recordingLogger()
      const debugs: [string, unknown][] = []
      const logger = { ...recording, debug: (code: string, metadata?: unknown) => void debugs.push([code, metadata]) }
      endings.reset()
      const jar = new CookieJar()
      const csrfToken = await csrfTokenFor({ ...s.config, logger }, jar)
      const response = await send({ ...s.config, logger, inspect: endings.inspect }, jar, "/signin/nodemailer", {
        form: { email: s.typed, callbackUrl: "/dashboard", ...(s.csrfValid && { csrfToken }) },
        headers: modelClientHeaders,
      })

      // The real run walked exactly the model's path, and ended there: every way the flow ends is a final state.
      expect(recorder.runs.map((run) => run.states)).toEqual([path.states])
      expect(endings.statuses).toEqual(["done"])

      expect(response.status).toBe(302)
      const location = response.headers.get("location")
      if (s.asked.length) {
        // The callback was asked about the user who has the address, or about the one the link would create.
        const [user] = s.asked
        if (existing) expect(user).toMatchObject({ id: existing.id, email: s.address })
        else expect(user).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), email: s.address, emailVerified: null })
      }
      // What the user sees in each final state.
      if (!expectTailFinal(path.finalState, location)) switch (path.finalState) {
        case "linkSent": {
          expect(location).toBe(`${origin}/auth/verify-request?provider=nodemailer&type=email`)
          expect(smtp.messages).toHaveLength(1)
          const mail = smtp.messages[0]!
          expect(mail.envelopeTo).toEqual([ada])
          expect(mail.subject).toBe("Sign in to app.test")
          expect(new URL(mail.link).searchParams.get("email")).toBe(ada)
          expect(s.storedTokens.map((token) => token.identifier)).toEqual([ada])
          // The page the user lands on.
          const page = await send(s.config, jar, "/verify-request?provider=nodemailer&type=email")
          expect(await page.text()).toContain("Check your email")
          break
        }
        case "codeSent": {
          // The mail carries a 6-digit code (and the link beside it), and this browser goes on to type it, its flow sealed here.
          expect(location).toBe(`${origin}/auth/verify-request?provider=nodemailer&type=code`)
          expect(smtp.messages).toHaveLength(1)
          const mail = smtp.messages[0]!
          expect(mail.envelopeTo).toEqual([ada])
          expect(mail.text).toMatch(/Your sign-in code, valid 10 minutes: \d{6}\r?\n/)
          expect(jar.get(`${cookieNames.https.flow}.email-code`)).toBeTruthy()
          // The link's token, beside the row the replay store issues for the sealed flow.
          const linkTokens = s.storedTokens.filter((token) => token.identifier === ada)
          expect(s.storedTokens.filter((token) => token.identifier !== ada).map((token) => token.identifier)).toEqual(["authflow:flow"])
          if (code === "beside") {
            expect(new URL(mail.link).searchParams.get("email")).toBe(ada)
            expect(linkTokens).toHaveLength(1)
          } else {
            expect(mail.link).toBe("")
            expect(linkTokens).toHaveLength(0)
          }
          const page = await send(s.config, jar, "/verify-request?provider=nodemailer&type=code")
          expect(await page.text()).toContain('name="code"')
          break
        }
        case "csrfRejected":
          expect(location).toBe(`${origin}/auth/signin?error=MissingCSRF`)
          break
        case "emailRejected":
          expect(location).toBe(`${origin}/auth/signin?${new URLSearchParams({ error: "InvalidEmail", email: s.typed })}`)
          expect(debugs).toContainEqual(["email-rejected", expect.objectContaining({ reason: "Invalid email address format." })])
          if (s.typed.includes(hostile)) expect(debugs).toContainEqual(["email-rejected", expect.objectContaining({ problem: "syntax" })])
          break
        case "lookupFailed":
          // The database failed before anyone could decide: the server's problem.
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          expect(errors.map((error) => error.name)).toContain("AdapterError")
          break
        case "rateLimited": {
          expect(location).toMatch(new RegExp(`^${origin}/auth/signin\\?error=RateLimited&retryAfter=[1-9]\\d*$`))
          expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0)
          const page = await send(s.config, jar, "/signin?error=RateLimited")
          expect(await page.text()).toContain("Too many attempts. Wait a few minutes, then try again.")
          break
        }
        case "storeFailed":
        case "sendFailed": {
          expect(location).toBe(`${origin}/auth/signin?error=EmailSignin`)
          expect(errors.map((error) => error.name)).toContain("EmailSignInError")
          // …caused by what failed: storing the token, or the SMTP server refusing the recipient.
          const cause = path.finalState === "storeFailed" ? "token store down" : expect.stringContaining("550 Mailbox unavailable")
          expect(errors.filter((error) => error.name === "EmailSignInError").map((error) => ((error as AuthError).cause?.err as Error | undefined)?.message)).toEqual([cause])
          if (s.revokeFails) {
            // The one case where a link the user was told failed stays usable: the adapter could not
            // delete its token either (logged as an AdapterError).
            expect(errors.map((error) => error.name)).toContain("AdapterError")
            expect(await s.memory.useVerificationToken(s.storedTokens[0]!)).not.toBeNull()
          } else {
            // No link of this sign-in can be used: either no token was stored, or it was removed.
            for (const token of s.storedTokens) expect(await s.memory.useVerificationToken(token)).toBeNull()
          }
          const page = await send(s.config, jar, "/signin?error=EmailSignin")
          expect(await page.text()).toContain("The e-mail could not be sent.")
          break
        }
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
      if (path.finalState !== "linkSent" && path.finalState !== "codeSent") expect(smtp.messages).toHaveLength(0)
      if (path.finalState !== "linkSent" && path.finalState !== "sendFailed" && path.finalState !== "codeSent") expect(s.storedTokens).toHaveLength(0)
      // A link's token exists only when the mail carries the link.
      if (code === "instead") expect(s.storedTokens.filter((token) => token.identifier === ada)).toHaveLength(0)
    })
  }

  afterAll(async () => {
    await smtp.close()
    expectFullCoverage("email-sign-in", emailSignInMachine, recorder, paths.length)
  })
})
