/**
 * The kit on an email provider that mails a code (`code: "instead"` and `"beside"`,
 * src/testing/drivers/email-code.ts): it asks for a sign-in email in its browser, takes the code
 * from the mail, and types it there: every transition of the email code machine the configuration
 * can reach, with both session strategies, on the memory adapter; what it cannot reach is named,
 * with why. A provider without `code` has the machine named unused.
 */
import { describe, expect, it } from "vitest"
import { authflowModelTests, type AuthflowFixtures, type CaseResult } from "../../src/testing/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import type { EmailCodeMode } from "../../src/providers/email-config.js"
import type { AuthConfig } from "../../src/types.js"

const fixtures: AuthflowFixtures = { freshAdapter: () => MemoryAdapter() }
const codePage = "/auth/verify-request?provider=nodemailer&type=code"
const flowCookies = ["__Host-authflow.flow-binding.email-code", "__Secure-authflow.flow.email-code"]

async function run(code: EmailCodeMode | undefined, strategy: "jwt" | "database", more: Partial<AuthConfig> = {}) {
  const config: AuthConfig = {
    secret: "kit-email-code-secret-0123456789abcdef",
    adapter: MemoryAdapter(),
    rateLimit: {},
    session: { strategy },
    providers: [Nodemailer({ server: "smtp://localhost:1", ...(code && { code }) })],
    ...more,
  }
  const suite = await authflowModelTests(config, fixtures)
  const results = new Map<string, CaseResult>()
  for (const testCase of suite.cases) if (testCase.machine === "email-code") results.set(testCase.name, await testCase.run())
  const coverage = suite.coverage().find((each) => each.machine === "email-code")
  const outcome = (conditions: string) => results.get(`email-code nodemailer: ${conditions}`)?.outcome
  const whys = (prefix = "email-code") => suite.unreachable.filter(({ name }) => name.startsWith(prefix)).map(({ why }) => why)
  return { suite, results, coverage, outcome, whys }
}

describe("authflow/testing drives an email provider's sign-in by code", () => {
  it.each([
    ["instead", "jwt"],
    ["instead", "database"],
    ["beside", "jwt"],
    ["beside", "database"],
  ] as const)("every reachable transition (code %s, %s sessions)", async (code, strategy) => {
    const { suite, results, coverage, outcome, whys } = await run(code, strategy)
    expect(coverage?.missing).toEqual([])
    expect(coverage?.reachable).toBeGreaterThan(20)
    // Every path ran its own flow to an end: no code went missing.
    expect([...results].filter(([, result]) => result.outcome.note !== undefined || result.outcome.final === "(none)").map(([name]) => name)).toEqual([])

    // The right code signs the address in, in the browser that asked, and ends the flow.
    const signedIn = outcome("new address")!
    expect(signedIn.final).toBe("signedIn")
    expect(signedIn.responses).toEqual([expect.objectContaining({ request: "POST /callback/nodemailer", redirect: "/", cookiesCleared: flowCookies })])
    expect(signedIn.session?.user?.email).toBe("new-user@example.test")
    expect(signedIn.adapterWrites.createUser).toBe(1)
    // Beside the link, the code uses the link up.
    expect(signedIn.adapterWrites.useVerificationToken).toBe(code === "beside" ? 1 : undefined)
    expect(outcome("address of an existing user")?.session?.user?.email).toBe("existing-user@example.test")

    // Wrong codes: back to the code page, the flow sealed anew, until the fifth ends the sign-in.
    const exhausted = outcome("wrong code, wrong code, wrong code, wrong code, wrong code")!
    expect(exhausted.final).toBe("attemptsExhausted")
    expect(exhausted.responses.map((response) => response.redirect)).toEqual([...Array(4).fill(`${codePage}&error=Verification&reason=wrong-code`), "/auth/error?error=Verification"])
    expect(exhausted.responses.at(-1)?.cookiesCleared).toEqual(flowCookies)
    expect(exhausted.session).toBeNull()

    // A code past its end: the kit seals the waiting flow again with the code expired; the engine refuses it.
    const expired = outcome("code expired")!
    expect(expired.final).toBe("codeExpired")
    expect(expired.responses.at(-1)?.redirect).toBe("/auth/error?error=Verification")
    expect(expired.errors).toEqual(["Verification"])
    expect(expired.session).toBeNull()

    expect(outcome("flow cookie sent twice")?.final).toBe("flowReplayed")
    expect(outcome("claimFlow failed")?.final).toBe("claimFailed")
    expect(outcome("csrf.invalid")?.final).toBe("csrfRejected")
    expect(outcome("over a rate limit")?.final).toBe("rateLimited")
    expect(outcome("rate-limit store down (fails open), new address")?.final).toBe("signedIn")
    expect(outcome("lookup.failed")?.final).toBe("lookupFailed")
    expect(outcome("new address, persist.failed")?.final).toBe("persistFailed")
    if (strategy === "database") {
      expect(outcome("address of an existing user, browser signed in as another user")?.final).toBe("signedIn")
      expect(outcome("address of an existing user, browser signed in as another user, otherSession.failed")?.final).toBe("persistFailed")
      expect(outcome("new address, session.failed")?.final).toBe("sessionFailed")
    } else {
      expect(whys()).toContain("sessions are jwt sessions: no session row is created")
    }

    // The link beside the code: followed first (in another browser), or using it up failing; without it, named unreachable.
    if (code === "beside") {
      const linkFirst = outcome("link mailed beside the code followed first")!
      expect(linkFirst.final).toBe("linkUsed")
      expect(linkFirst.responses.at(-1)?.redirect).toBe("/auth/error?error=Verification")
      expect(linkFirst.session).toBeNull()
      expect(outcome("using up the link failed")?.final).toBe("tokenLookupFailed")
      expect(whys()).toContain('providers.nodemailer.code is "beside": the link is mailed beside the code, and a right code uses it up')
    } else {
      expect(results.has("email-code nodemailer: link mailed beside the code followed first")).toBe(false)
      expect(whys()).toContain('providers.nodemailer.code is "instead": no link is mailed beside the code')
      // No link is mailed, so the verification machine is named unused rather than driven with every path stopped.
      expect(suite.cases.some((testCase) => testCase.machine === "email-verification")).toBe(false)
      expect(suite.unreachable).toContainEqual({ name: "email-verification nodemailer", why: 'providers.nodemailer.code is "instead": the email carries a code, and no link to follow' })
    }
    // What no configuration without callbacks or second factors reaches is named, with why.
    expect(whys()).toEqual(expect.arrayContaining(["no callbacks.signIn: every sign-in is allowed", "no pages.newUser: a user the sign-in creates goes to the callback URL"]))
  }, 300_000)

  it("drives the sign-in tail of the configuration: its signIn callback, pages.newUser and second factors", async () => {
    const { coverage, outcome, results, suite } = await run("instead", "database", {
      pages: { newUser: "/welcome" },
      secondFactor: { required: true, sendCode: () => undefined },
      callbacks: { signIn: ({ user, email }) => email?.verificationRequest === true || user.email !== "new-user@example.test" },
    })
    expect(coverage?.missing).toEqual([])
    // The signIn callback refuses the new address, once its code was right.
    expect(outcome("new address")?.final).toBe("accessDenied")
    // A user with an authenticator app is asked for it; one without is refused (required of everyone),
    // though sendCode is set: the email is the first factor, and a code emailed as the second would be
    // the same factor again, so the machine has no rule that emails one.
    expect(outcome("address of an existing user, second factor enrolled")?.final).toBe("secondFactorRequired")
    expect(outcome("address of an existing user, second factor required, no way to pass it")?.final).toBe("secondFactorUnavailable")
    expect([...results.keys(), ...suite.unreachable.map((each) => each.name)].filter((name) => name.includes("by emailed code"))).toEqual([])
  }, 300_000)

  it("names the machine unused for an email provider without code, and for no email provider", async () => {
    const { suite } = await run(undefined, "jwt")
    expect(suite.cases.some((testCase) => testCase.machine === "email-code")).toBe(false)
    expect(suite.unreachable).toContainEqual({ name: "email-code nodemailer", why: "providers.nodemailer.code is off (the default): the email carries a link, no code" })
    const none = await authflowModelTests({ secret: "kit-email-code-secret-0123456789abcdef", providers: [] }, fixtures)
    expect(none.unreachable).toContainEqual({ name: "email-code", why: "no email provider" })
  }, 120_000)
})
