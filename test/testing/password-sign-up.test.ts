/**
 * The kit on a Password provider's sign-up and verification by code (src/testing/drivers/
 * password-sign-up.ts, password-verify-code.ts): every transition the configuration can reach,
 * with both session strategies, on the memory adapter and on Kysely (SQLite), the code taken from
 * the mail the provider's own `sendMail` accepted; what a configuration cannot reach (verification
 * by link, off, no sendMail, skipCSRFCheck, rate limits off) named with why; and an app that drops
 * the codes shows as transitions the kit could not take.
 */
import { describe, expect, it } from "vitest"
import type { AuthflowFixtures } from "../../src/testing/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { runKitCases, sqliteAdapters } from "./kit-runs.js"
import Password from "../../src/providers/password.js"
import { skipCSRFCheck } from "../../src/core/symbols.js"
import type { PasswordOptions } from "../../src/providers/password.js"
import type { AuthConfig, PasswordMail } from "../../src/types.js"

const machines = ["password-sign-up", "password-verify-code"]

const sqliteAdapter = sqliteAdapters()

async function run(options: PasswordOptions, extra: Partial<AuthConfig> & { session: { strategy: "jwt" | "database" } }, fixtures: AuthflowFixtures = { freshAdapter: () => MemoryAdapter() }) {
  const config: AuthConfig = { secret: "kit-sign-up-secret-0123456789abcdef", adapter: MemoryAdapter(), rateLimit: {}, providers: [Password({ hashing: { scrypt: { ln: 10 } }, ...options })], ...extra }
  const kit = await runKitCases(config, fixtures, machines)
  const why = (name: string) => kit.suite.unreachable.find((each) => each.name === name)?.why
  return { ...kit, why }
}

describe("authflow/testing drives a Password provider's sign-up and its verification by code", () => {
  it.each([
    ["jwt", "memory"],
    ["database", "memory"],
    ["database", "sqlite"],
  ] as const)("verifyBy code, verification required: every reachable transition (%s sessions, %s adapter)", async (strategy, adapter) => {
    const mails: PasswordMail[] = []
    const fixtures: AuthflowFixtures = { freshAdapter: adapter === "sqlite" ? sqliteAdapter : () => MemoryAdapter() }
    const { results, coverage, final, why } = await run({ verification: "required", verifyBy: "code", sendMail: (mail) => void mails.push(mail) }, { session: { strategy } }, fixtures)
    for (const machine of machines) {
      expect(coverage(machine)?.missing, machine).toEqual([])
      expect(coverage(machine)?.reachable, machine).toBeGreaterThan(10)
    }
    // Every path ran its own flow to an end: no code went missing.
    expect([...results].filter(([, result]) => result.outcome.note !== undefined || result.outcome.final === "(none)").map(([name]) => name)).toEqual([])
    // The provider's own sendMail was given the codes the kit typed.
    expect(mails.some((mail) => mail.kind === "verify-email" && /^\d{6}$/.test(mail.code ?? ""))).toBe(true)
    expect(final("password-sign-up password: ordinary")).toBe("codeSent")
    expect(final("password-sign-up password: email taken")).toBe("codeSent")
    expect(final("password-sign-up password: another sign-up took the address meanwhile")).toBe("codeSent")
    expect(final("password-sign-up password: mail service down")).toBe("codeSent")
    expect(final("password-sign-up password: not an address")).toBe("signUpRefused")
    expect(final("password-sign-up password: password too short")).toBe("signUpRefused")
    expect(final("password-sign-up password: writing the account failed")).toBe("signUpFailed")
    expect(final("password-verify-code password: ordinary")).toBe("signedIn")
    expect(results.get("password-verify-code password: ordinary")?.outcome.session?.user).toBeTruthy()
    expect(final("password-verify-code password: address verified already")).toBe("signedIn")
    expect(final("password-verify-code password: another account at the address since the code was mailed")).toBe("codeStale")
    expect(final("password-verify-code password: user gone")).toBe("codeStale")
    expect(final("password-verify-code password: flow cookie sent twice")).toBe("flowReplayed")
    expect(final("password-verify-code password: wrong code, wrong code, wrong code, wrong code, wrong code")).toBe("attemptsExhausted")
    expect(final("password-verify-code password: marking the address verified failed")).toBe("verifyFailed")
    // What this configuration cannot reach is named, with why.
    expect(why("password-sign-up password: ordinary (verification optional, by link)")).toBe('providers.password.verification is "required": a new account waits for its address to be verified')
    expect(why("password-sign-up password: ordinary (verification required, by link)")).toBe('providers.password.verifyBy is "code": the mail carries a code, typed in the browser that signed up')
    // A code past its end: the kit seals the waiting flow again with the code expired, and the engine refuses it.
    const expired = results.get("password-verify-code password: code expired")!.outcome
    expect(why("password-verify-code password: code expired")).toBeUndefined()
    expect(expired.final).toBe("codeExpired")
    expect(expired.responses.at(-1)?.redirect).toBe("/auth/signin?error=PasswordCodeExpired")
    expect(expired.errors).toEqual(["PasswordCodeExpired"])
    expect(expired.session?.user).toBeFalsy()
    expect(why("password-verify-code password: address verified already, signIn.denied")).toBe("no callbacks.signIn: every sign-in is allowed")
  }, 600_000)

  it("verifyBy both, verification optional, second factors on: the code flow's sign-in stops for an enrolled factor", async () => {
    const { coverage, final, why, results, suite } = await run({ verification: "optional", verifyBy: "both", sendMail: () => {} }, { session: { strategy: "database" }, secondFactor: true })
    for (const machine of machines) expect(coverage(machine)?.missing, machine).toEqual([])
    expect(final("password-sign-up password: ordinary")).toBe("codeSent")
    expect(final("password-verify-code password: ordinary")).toBe("signedIn")
    expect(final("password-verify-code password: second factor enrolled")).toBe("secondFactorRequired")
    expect(final("password-verify-code password: secondFactor.failed")).toBe("sessionFailed")
    // A password is not a passkey: the machines carry no passkey rule, so the kit has no such path to drive or to name unreachable.
    expect([...results.keys(), ...suite.unreachable.map((each) => each.name)].filter((name) => name.includes("passkey"))).toEqual([])
    expect(why("password-sign-up password: ordinary (nothing mailed)")).toBe('providers.password.verification is "optional": a new account is mailed its verification and signed in at once')
  }, 300_000)

  it("verifyBy link, verification optional: the sign-up mails a link and signs in; no code flow is driven, and why", async () => {
    const { suite, coverage, final, why } = await run({ verification: "optional", sendMail: () => {} }, { session: { strategy: "jwt" } })
    expect(coverage("password-sign-up")?.missing).toEqual([])
    expect(coverage("password-verify-code")).toBeUndefined()
    expect(final("password-sign-up password: ordinary")).toBe("signedIn")
    expect(final("password-sign-up password: email taken")).toBe("emailTaken")
    expect(final("password-sign-up password: mail service down")).toBe("signedIn")
    expect(suite.unreachable).toContainEqual({ name: "password-verify-code password", why: 'providers.password.verifyBy is "link" (the default): sign-up mails a link, no code' })
    expect(why("password-sign-up password: ordinary (verification optional, by code)")).toBe('providers.password.verifyBy is "link": the mail carries a link, and no code')
  }, 300_000)

  it("names what a provider without sendMail, CSRF checks or rate limits cannot reach, and drives the rest", async () => {
    const { suite, coverage, final } = await run({}, { session: { strategy: "database" }, skipCSRFCheck, rateLimit: false })
    expect(coverage("password-sign-up")?.missing).toEqual([])
    expect(final("password-sign-up password: ordinary")).toBe("signedIn")
    expect(suite.unreachable.find((each) => each.name === "password-verify-code password")?.why).toMatch(/has no sendMail: no link or code is mailed/)
    const whys = suite.unreachable.filter((each) => each.name.startsWith("password-sign-up password")).map((each) => each.why)
    expect(whys).toEqual(expect.arrayContaining(["skipCSRFCheck: the CSRF token is not checked", expect.stringMatching(/^rateLimit is off/), "providers.password has no sendMail: a sign-up mails nothing, and signs the new user in at once"]))
  }, 300_000)

  it("reports an app whose sendMail drops the codes: the code flow's transitions go untaken", async () => {
    const dropping = (mail: PasswordMail) => {
      if (mail.kind === "verify-email") throw new Error("SMTP refused")
    }
    const { results, coverage } = await run({ verification: "required", verifyBy: "code", sendMail: dropping }, { session: { strategy: "database" } })
    // The sign-up answers as if the mail went out (nobody learns from it); no code reaches the kit.
    expect(results.get("password-sign-up password: ordinary")?.outcome.final).toBe("codeSent")
    expect(results.get("password-verify-code password: ordinary")?.outcome.note).toBe("mails no verification code: asking for it ended in codeSent")
    expect(coverage("password-verify-code")?.missing.length).toBeGreaterThan(10)
  }, 300_000)
})
