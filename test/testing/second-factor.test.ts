/**
 * The kit on a configuration with `secondFactor` on (src/testing/drivers/second-factor.ts and the
 * sign-in tail's lookup in src/testing/drivers/driver.ts): a credentials sign-in of a user the
 * world enrolled stops at secondFactorRequired with no session, the second-factor paths are named
 * by what is typed and recorded with their outcomes, and what the kit cannot drive is named with
 * why; the first factor can be an email link or an emailed code too. Without `secondFactor`, the
 * same paths are listed as unreachable in one line.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Credentials from "../../src/providers/credentials.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import { authflowModelTests, type AuthflowFixtures, type CaseResult } from "../../src/testing/index.js"
import type { AuthConfig } from "../../src/types.js"

const authorize = async ({ username, password }: Partial<Record<string, unknown>>) => (username === "ada" && password === "lovelace" ? { id: "ada", name: "Ada Lovelace", email: "ada@example.test" } : null)
const base: AuthConfig = { adapter: MemoryAdapter(), session: { strategy: "jwt" }, providers: [Credentials({ credentials: { username: {}, password: {} }, authorize })] }
const fixtures: AuthflowFixtures = {
  freshAdapter: () => MemoryAdapter(),
  credentials: { credentials: { accepted: { username: "ada", password: "lovelace" }, rejected: { username: "ada", password: "wrong" } } },
}

describe("authflow/testing with secondFactor on", async () => {
  const sent: string[] = []
  const config: AuthConfig = { ...base, secondFactor: { maxAttempts: 3, sendCode: ({ code }) => void sent.push(code) } }
  const suite = await authflowModelTests(config, fixtures)
  const results = new Map<string, CaseResult>()
  for (const testCase of suite.cases) results.set(testCase.name, await testCase.run())
  const final = (name: string) => results.get(name)?.outcome.final

  it("stops a user with an enrolled factor at secondFactorRequired, with no session", () => {
    const stopped = results.get("credentials-sign-in credentials: accepted credentials, second factor enrolled")!
    expect(stopped.outcome.final).toBe("secondFactorRequired")
    expect(stopped.outcome.session).toBeNull()
    expect(stopped.outcome.responses.at(-1)?.redirect).toMatch(/^\/auth\/second-factor\?methods=totp%2Cbackup%2Cemail$/)
    expect(final("credentials-sign-in credentials: accepted credentials")).toBe("signedIn")
    expect(final("credentials-sign-in credentials: accepted credentials, secondFactor.failed")).toBe("sessionFailed")
  })

  it("drives the second-factor machine: codes from the software authenticator, wrong ones, backup codes, emailed codes, attempts exhausted", () => {
    const signedIn = results.get("second-factor credentials: authenticator code")!
    expect(signedIn.outcome.final).toBe("signedIn")
    expect(signedIn.outcome.session?.user?.email).toBe("ada@example.test")
    expect(final("second-factor credentials: backup code")).toBe("signedIn")
    expect(final("second-factor credentials: authenticator code, wrong code, authenticator code")).toBe("signedIn")
    expect(final("second-factor credentials: asks for an emailed code, emailed code")).toBe("signedIn")
    expect(final("second-factor credentials: authenticator code, code used already, backup code")).toBe("signedIn")
    expect(final("second-factor credentials: backup code (no backup codes left)")).toBe("methodUnavailable")
    expect(final("second-factor credentials: authenticator code, flow cookie sent twice")).toBe("flowReplayed")
    expect(final("second-factor credentials: asks for an emailed code, emailCode.failed")).toBe("emailCodeFailed")
    // The model has two attempts; the configuration's third is refused before the last one.
    const exhausted = results.get("second-factor credentials: authenticator code, wrong code, authenticator code, wrong code")!
    expect(exhausted.outcome.final).toBe("attemptsExhausted")
    expect(exhausted.outcome.session).toBeNull()
    expect(exhausted.outcome.responses.filter((response) => response.request === "POST /second-factor")).toHaveLength(3)
    // An emailed code past its end: the kit seals the waiting flow again with the code expired, and the engine refuses it as expired; another factor still passes.
    const expired = results.get("second-factor credentials: asks for an emailed code, emailed code, emailed code expired, authenticator code")!.outcome
    expect(expired.final).toBe("signedIn")
    expect(expired.states).toContain("checkingEmailCode")
    expect(expired.responses.filter((response) => response.request === "POST /second-factor").map((response) => response.redirect)).toEqual([
      "/auth/second-factor?methods=totp%2Cbackup%2Cemail&sent=email",
      "/auth/second-factor?methods=totp%2Cbackup%2Cemail&error=SecondFactorRefused&reason=expired-email-code",
      "/",
    ])
    // A new code mailed after the expired one passes.
    expect(final("second-factor credentials: asks for an emailed code, emailed code, emailed code expired, asks for an emailed code, emailed code")).toBe("signedIn")
    expect(final("second-factor credentials: asks for an emailed code, emailed code, emailed code expired, emailed code, emailed code expired")).toBe("attemptsExhausted")
    // The expired code stays expired: no path types it again as if it were not.
    expect(results.has("second-factor credentials: asks for an emailed code, emailed code, emailed code expired, emailed code")).toBe(false)
    expect(results.has("second-factor credentials: asks for an emailed code, emailed code, emailed code expired, emailed code, wrong code")).toBe(false)
    const remembered = results.get("second-factor credentials: authenticator code (remember this device)")!.outcome.responses.at(-1)?.cookiesSet ?? []
    expect(remembered.filter((name) => name.endsWith("authflow.trusted-device"))).toHaveLength(1)
    // Every second-factor path ran to where its name says: none was left waiting.
    for (const [name, result] of results) if (name.startsWith("second-factor")) expect(result.outcome.final, name).not.toBe("awaitingCode")
  })

  it("covers every transition it can reach, and names the ones it cannot with why", () => {
    const coverage = suite.coverage().find((entry) => entry.machine === "second-factor")!
    expect(coverage.missing).toEqual([])
    expect(coverage.covered).toBe(coverage.reachable)
    expect(coverage.reachable).toBeGreaterThan(30)
    const why = new Map(suite.unreachable.map(({ name, why }) => [name, why]))
    // An expired emailed code is driven (the flow sealed again with the code past its end), not named.
    expect([...why.values()].filter((reason) => /no clock/.test(reason))).toEqual([])
    expect(why.get("credentials-sign-in credentials: accepted credentials, trusted device")).toMatch(/no trusted-device cookie/)
    expect(why.get("credentials-sign-in credentials: accepted credentials, second factor required, by emailed code")).toMatch(/^secondFactor.required is off/)
    expect(why.get("credentials-sign-in credentials: accepted credentials (without secondFactor)")).toMatch(/^secondFactor is on/)
  })
})

describe("authflow/testing with secondFactor on, after an email link, with database sessions", () => {
  it("passes the link for the fixtures' existing user, then the app's code writes a session row; an emailed code is not offered after an email link", async () => {
    const email = { id: "email", name: "Email", type: "email", from: "auth@example.test", maxAge: 600, sendVerificationRequest: () => {} } as const
    const config: AuthConfig = { adapter: MemoryAdapter(), providers: [email], secondFactor: { sendCode: () => {} } }
    const suite = await authflowModelTests(config, { freshAdapter: () => MemoryAdapter() })
    const run = async (name: string) => {
      const found = suite.cases.find((testCase) => testCase.name === name)
      expect(found, name).toBeDefined()
      return (await found!.run()).outcome
    }
    const signedIn = await run("second-factor email: authenticator code")
    expect(signedIn.final).toBe("signedIn")
    expect(signedIn.adapterWrites.createSession).toBe(1)
    expect(signedIn.session?.user?.email).toBe("existing-user@example.test")
    expect((await run("email-verification email: address of an existing user, second factor enrolled")).final).toBe("secondFactorRequired")
    expect((await run("second-factor email: authenticator code, wrong code, emailed code")).final).toBe("methodUnavailable")
    expect((await run("second-factor email: backup code, session.failed")).final).toBe("sessionFailed")
  })
})

describe("authflow/testing with secondFactor on, after an emailed code instead of the link", () => {
  it("types the code in the browser that asked for it, then the app's code signs in", async () => {
    const config: AuthConfig = { adapter: MemoryAdapter(), session: { strategy: "database" }, providers: [Nodemailer({ server: "smtp://localhost:1", code: "instead" })], secondFactor: true }
    const suite = await authflowModelTests(config, { freshAdapter: () => MemoryAdapter() })
    const run = async (name: string) => (await suite.cases.find((testCase) => testCase.name === name)!.run()).outcome
    const signedIn = await run("second-factor nodemailer: authenticator code")
    expect(signedIn.note).toBeUndefined()
    expect(signedIn.responses.map((response) => response.request)).toEqual(["POST /callback/nodemailer", "POST /second-factor"])
    expect(signedIn.final).toBe("signedIn")
    expect(signedIn.session?.user?.email).toBe("existing-user@example.test")
    expect((await run("email-code nodemailer: address of an existing user, second factor enrolled")).final).toBe("secondFactorRequired")
  })
})

describe("authflow/testing with secondFactor off", () => {
  it("lists the second-factor lookup and machine as unreachable, in one line each", async () => {
    const suite = await authflowModelTests(base, fixtures)
    const why = new Map(suite.unreachable.map(({ name, why }) => [name, why]))
    expect(why.get("second-factor")).toBe("secondFactor is off: no sign-in waits for a second factor")
    expect(why.get("credentials-sign-in credentials: accepted credentials, second factor enrolled (with secondFactor)")).toBe(
      "secondFactor is off: no second factor is looked up, the session is written once the first factor passed",
    )
    expect(suite.cases.some((testCase) => testCase.machine === "second-factor")).toBe(false)
  })
})
