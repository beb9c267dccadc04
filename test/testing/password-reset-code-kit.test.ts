/**
 * The kit on a Password provider that resets by code (`resetBy: "code"` and `"both"`,
 * src/testing/drivers/password-reset-code.ts and password-reset-request.ts): it asks for a reset
 * in its browser, takes the code from the mail the provider's own `sendMail` accepted, and types it
 * with a new password there: every transition of the forgot request and of the reset by code the
 * configuration can reach, with both session strategies, on the memory adapter and on Kysely
 * (SQLite). An app whose `sendMail` drops reset mails shows as transitions the kit could not take.
 */
import { describe, expect, it } from "vitest"
import type { AuthflowFixtures } from "../../src/testing/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { runKitCases, sqliteAdapters } from "./kit-runs.js"
import Password from "../../src/providers/password.js"
import type { PasswordOptions } from "../../src/providers/password.js"
import type { AuthConfig, PasswordMail } from "../../src/types.js"

const machines = ["password-reset-request", "password-reset-code"]

const sqliteAdapter = sqliteAdapters()

async function run(options: PasswordOptions, strategy: "jwt" | "database", fixtures: AuthflowFixtures = { freshAdapter: () => MemoryAdapter() }) {
  const config: AuthConfig = { secret: "kit-reset-code-secret-0123456789abcdef", adapter: await fixtures.freshAdapter!(), rateLimit: {}, session: { strategy }, providers: [Password({ hashing: { scrypt: { ln: 10 } }, ...options })] }
  return runKitCases(config, fixtures, machines)
}

describe("authflow/testing drives a Password provider's reset by code", () => {
  it.each([
    ["code", "jwt", "memory"],
    ["code", "database", "memory"],
    ["both", "jwt", "memory"],
    ["both", "database", "sqlite"],
  ] as const)("every reachable transition (resetBy %s, %s sessions, %s adapter)", async (resetBy, strategy, adapter) => {
    const mails: PasswordMail[] = []
    const fixtures: AuthflowFixtures = { freshAdapter: adapter === "sqlite" ? sqliteAdapter : () => MemoryAdapter() }
    const { suite, results, coverage, final } = await run({ resetBy, sendMail: (mail) => void mails.push(mail) }, strategy, fixtures)
    for (const machine of machines) {
      expect(coverage(machine).missing, machine).toEqual([])
      expect(coverage(machine).reachable, machine).toBeGreaterThan(10)
    }
    // Every path ran its own flow to an end: no code went missing.
    expect([...results].filter(([, result]) => result.outcome.note !== undefined || result.outcome.final === "(none)").map(([name]) => name)).toEqual([])
    expect(mails.some((mail) => mail.kind === "reset-password" && mail.code !== undefined)).toBe(true)
    expect(final("password-reset-request password: ordinary")).toBe("codeSent")
    expect(final("password-reset-request password: unknown email")).toBe("codeSent")
    expect(final("password-reset-code password: ordinary")).toBe("passwordReset")
    expect(final("password-reset-code password: wrong code, wrong code, wrong code, wrong code, wrong code")).toBe("attemptsExhausted")
    expect(final("password-reset-code password: flow cookie sent twice")).toBe("flowReplayed")
    expect(final("password-reset-code password: password changed since the code was mailed")).toBe("codeStale")
    expect(final("password-reset-code password: another change won the race")).toBe("codeStale")
    // A password too short: back to the form, the code still good; the right code with a good one then resets.
    expect(final("password-reset-code password: new password too short")).toBe("passwordReset")
    expect(final("password-reset-code password: storing the new hash failed")).toBe("resetFailed")
    expect(final("password-reset-code password: unverified address")).toBe("passwordReset")
    // A code past its end: the kit seals the waiting flow again with the code expired; the engine refuses it and sends the browser to ask again.
    const expired = results.get("password-reset-code password: code expired")!.outcome
    expect(expired.final).toBe("codeExpired")
    expect(expired.responses.at(-1)?.redirect).toBe("/auth/forgot-password/password?error=PasswordCodeExpired")
    expect(expired.errors).toEqual(["PasswordCodeExpired"])
    expect(expired.adapterWrites.updateAccountTokens).toBeUndefined()
    // A reset signs nobody in.
    expect(results.get("password-reset-code password: ordinary")?.outcome.session?.user).toBeFalsy()
    // What the configuration cannot reach is named, with why.
    const whys = suite.unreachable.map((each) => each.why)
    expect(whys.filter((why) => /no clock/.test(why))).toEqual([])
    expect(whys).toContain("endOtherSessions is on (the default): the user's other sessions are ended")
    expect(whys).toContain(`providers.password.resetBy is "${resetBy}": forgot password mails a code, typed in the browser that asked`)
    expect(suite.unreachable.some((each) => each.name.startsWith("password-reset-code"))).toBe(true)
    // With "both" the link is mailed too, and the link reset is driven beside the code; with "code" it is not.
    const linkReset = suite.unreachable.find((each) => each.name === "password-reset password")
    if (resetBy === "code") expect(linkReset?.why).toMatch(/resetBy is "code"/)
    else expect(suite.cases.some((testCase) => testCase.machine === "password-reset")).toBe(true)
  }, 300_000)

  it("names the reset by code unused where resets are by link", async () => {
    const { suite } = await run({ sendMail: () => undefined }, "jwt")
    expect(suite.cases.some((testCase) => testCase.machine === "password-reset-code")).toBe(false)
    expect(suite.unreachable).toContainEqual({ name: "password-reset-code password", why: 'providers.password.resetBy is "link" (the default): forgot password mails a link, no code' })
  }, 120_000)

  it("reports a sendMail that drops reset codes: the reset by code cannot be driven", async () => {
    const dropping = await run({ resetBy: "code", sendMail: (mail) => void (mail.kind === "reset-password" && (() => { throw new Error("SMTP refused") })()) }, "database")
    // Asking still ends as a sent code (the answer tells nothing), but no code is ever mailed.
    expect(dropping.final("password-reset-request password: ordinary")).toBe("codeSent")
    expect(dropping.results.get("password-reset-code password: ordinary")?.outcome.note).toBe("mails no reset code: asking for it ended in codeSent")
    expect(dropping.coverage("password-reset-code").missing.length).toBeGreaterThan(10)
    // The forgot request's own paths run, but no mail is ever sent.
    expect(dropping.coverage("password-reset-request").missing).toEqual(["password-reset-request.mailingResetLink:mail.sent:0"])
  }, 300_000)
})
