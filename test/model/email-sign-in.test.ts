import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { emailSignInMachine, type EmailSignInEvent } from "../../src/machines/email-sign-in.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import type { Adapter, VerificationToken } from "../../src/adapters.js"
import type { AuthConfig } from "../../src/types.js"
import { CookieJar, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { startSmtp, type TestSmtp } from "../email/smtp.js"
import { coverageReport, modelPaths, TransitionRecorder, signInDecisionOf } from "./harness.js"

const ada = "ada@example.test"

/** Payload-carrying events: each is one way the real world can answer an effect. */
const events: EmailSignInEvent[] = [
  { type: "email.invalid", error: "not an address" },
  { type: "signIn.denied" },
  { type: "signIn.denied", error: "callback threw" },
  { type: "signIn.redirect", url: "/welcome" },
  { type: "send.failed", error: "SMTP refused the recipient" },
  { type: "send.failed", error: "token store down" },
]

let smtp: TestSmtp
beforeAll(async () => {
  smtp = await startSmtp()
})

/** The real configuration and request that make the engine meet exactly these events. */
function scenario(path: EmailSignInEvent[]) {
  const byType = new Map(path.map((event) => [event.type, event]))
  const failure = byType.get("send.failed")
  const smtpRefuses = failure && "error" in failure && failure.error === "SMTP refused the recipient"
  const storeFails = failure && "error" in failure && failure.error === "token store down"
  const memory = MemoryAdapter()
  const storedTokens: VerificationToken[] = []
  const adapter: Adapter = {
    ...memory,
    async createVerificationToken(token) {
      if (storeFails) throw new Error("token store down")
      storedTokens.push({ ...token })
      return memory.createVerificationToken(token)
    },
  }
  const address = smtpRefuses ? "bounce@example.test" : ada
  const config: AuthConfig = {
    secret: "model-secret",
    trustHost: true,
    adapter,
    providers: [Nodemailer({ server: smtp.server, from: "login@app.test" })],
    callbacks: {
      signIn() {
        return signInDecisionOf(path)
      },
    },
  }
  return {
    config,
    memory,
    storedTokens,
    smtpRefuses,
    address,
    typed: byType.has("email.invalid") ? "ada＠example.test" : ` ${address.toUpperCase()} `,
    csrfValid: !byType.has("csrf.invalid"),
  }
}

const recorder = new TransitionRecorder(emailSignInMachine)
const paths = modelPaths(emailSignInMachine, events)

describe("email sign-in machine, driven through Auth()", () => {
  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(
      new Set(["linkSent", "csrfRejected", "emailRejected", "accessDenied", "redirected", "sendFailed"]),
    )
  })

  for (const path of paths) {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      const { config, memory, storedTokens, smtpRefuses, address, typed, csrfValid } = scenario(path.events)
      smtp.messages.length = 0
      smtp.refused.clear()
      if (smtpRefuses) smtp.refused.add(address)
      const { logger, errors } = recordingLogger()
      recorder.resetVisits()
      const jar = new CookieJar()
      const csrfToken = await csrfTokenFor({ ...config, logger }, jar)
      const response = await send({ ...config, logger, inspect: recorder.inspect }, jar, "/signin/nodemailer", {
        form: { email: typed, callbackUrl: "/dashboard", ...(csrfValid && { csrfToken }) },
      })

      // The real run walked exactly the model's path.
      expect(recorder.visited).toEqual([path.states])

      expect(response.status).toBe(302)
      const location = response.headers.get("location")
      // What the user sees in each final state.
      switch (path.finalState) {
        case "linkSent": {
          expect(location).toBe(`${origin}/auth/verify-request?provider=nodemailer&type=email`)
          expect(smtp.messages).toHaveLength(1)
          const mail = smtp.messages[0]!
          expect(mail.envelopeTo).toEqual([ada])
          expect(mail.subject).toBe("Sign in to app.test")
          expect(new URL(mail.link).searchParams.get("email")).toBe(ada)
          expect(storedTokens.map((token) => token.identifier)).toEqual([ada])
          // The page the user lands on.
          const page = await send(config, jar, "/verify-request?provider=nodemailer&type=email")
          expect(await page.text()).toContain("Check your email")
          break
        }
        case "csrfRejected":
          expect(location).toBe(`${origin}/auth/signin?error=MissingCSRF`)
          break
        case "emailRejected":
          expect(location).toBe(`${origin}/auth/signin?${new URLSearchParams({ error: "InvalidEmail", email: typed })}`)
          break
        case "accessDenied":
          expect(location).toBe(`${origin}/auth/error?error=AccessDenied`)
          break
        case "redirected":
          expect(location).toBe(`${origin}/welcome`)
          break
        case "sendFailed": {
          expect(location).toBe(`${origin}/auth/signin?error=EmailSignin`)
          expect(errors.map((error) => error.name)).toContain("EmailSignInError")
          // No link of this sign-in can be used: either no token was stored, or it was removed.
          for (const token of storedTokens) expect(await memory.useVerificationToken(token)).toBeNull()
          const page = await send(config, jar, "/signin?error=EmailSignin")
          expect(await page.text()).toContain("The e-mail could not be sent.")
          break
        }
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
      if (path.finalState !== "linkSent") expect(smtp.messages).toHaveLength(0)
      if (path.finalState !== "linkSent" && path.finalState !== "sendFailed") expect(storedTokens).toHaveLength(0)
    })
  }

  afterAll(async () => {
    await smtp.close()
    const { line, missing } = coverageReport(emailSignInMachine, recorder)
    console.log(line)
    expect(missing, `uncovered transitions: ${missing.join(", ")}`).toEqual([])
  })
})
