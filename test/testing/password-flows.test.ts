/**
 * The kit on a configuration with a Password provider (src/testing/drivers/password-*.ts): besides
 * sign-in, it drives forgot and reset password, the signed-in change, address verification, and
 * the email change and its confirmation, each link taken from the mail the provider's own
 * `sendMail` accepted, with both session strategies, on the memory adapter and on Kysely (SQLite):
 * every transition the configuration can reach, and what it cannot, named with why. An app that
 * breaks a flow (its `sendMail` throws, its adapter's compare-and-set does not compare) shows as
 * transitions the kit could not take.
 */
import { describe, expect, it } from "vitest"
import type { AuthflowFixtures } from "../../src/testing/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { runKitCases, sqliteAdapters } from "./kit-runs.js"
import Password from "../../src/providers/password.js"
import { skipCSRFCheck } from "../../src/core/symbols.js"
import type { PasswordOptions } from "../../src/providers/password.js"
import type { Adapter } from "../../src/adapters.js"
import type { AuthConfig, PasswordMail } from "../../src/types.js"

const machines = ["password-reset-request", "password-reset", "password-change", "password-verify-email", "password-change-email", "password-confirm-email"]

const sqliteAdapter = sqliteAdapters()

async function run(options: PasswordOptions, extra: Partial<AuthConfig> & { session: { strategy: "jwt" | "database" } }, fixtures: AuthflowFixtures = { freshAdapter: () => MemoryAdapter() }) {
  const config: AuthConfig = { secret: "kit-password-secret-0123456789abcdef", adapter: MemoryAdapter(), rateLimit: {}, providers: [Password({ hashing: { scrypt: { ln: 10 } }, ...options })], ...extra }
  return runKitCases(config, fixtures, machines)
}

describe("authflow/testing drives a Password provider's resets, changes and links", () => {
  it.each([
    ["jwt", "memory"],
    ["database", "memory"],
    ["database", "sqlite"],
  ] as const)("every reachable transition (%s sessions, %s adapter)", async (strategy, adapter) => {
    const mails: PasswordMail["kind"][] = []
    const fixtures: AuthflowFixtures = { freshAdapter: adapter === "sqlite" ? sqliteAdapter : () => MemoryAdapter() }
    const { suite, results, coverage, final } = await run({ sendMail: (mail) => void mails.push(mail.kind) }, { session: { strategy } }, fixtures)
    for (const machine of machines) {
      expect(coverage(machine).missing, machine).toEqual([])
      expect(coverage(machine).reachable, machine).toBeGreaterThan(10)
    }
    // Every path ran its own flow to an end: no link went missing.
    expect([...results].filter(([, result]) => result.outcome.note !== undefined || result.outcome.final === "(none)").map(([name]) => name)).toEqual([])
    // The provider's own sendMail was called for every kind of mail the flows send.
    expect(new Set(mails)).toEqual(new Set(["reset-password", "password-changed", "verify-email", "change-email", "email-taken", "email-changed"]))
    expect(final("password-reset-request password: ordinary")).toBe("resetSent")
    expect(final("password-reset-request password: unknown email")).toBe("resetSent")
    expect(final("password-reset password: ordinary")).toBe("passwordReset")
    expect(final("password-reset password: link expired")).toBe("linkExpired")
    expect(final("password-reset password: link tampered with")).toBe("linkInvalid")
    expect(final("password-reset password: password changed since the link was mailed")).toBe("linkStale")
    expect(final("password-reset password: another change won the race")).toBe("linkStale")
    expect(final("password-reset password: new password too short")).toBe("resetRefused")
    expect(final("password-change password: ordinary")).toBe("passwordChanged")
    expect(final("password-change password: wrong current password")).toBe("passwordRejected")
    expect(final("password-change password: another change won the race")).toBe("passwordRejected")
    expect(final("password-change password: not signed in")).toBe("signInRequired")
    expect(final("password-verify-email password: ordinary")).toBe("emailVerified")
    expect(final("password-verify-email password: address changed since the link was mailed")).toBe("linkStale")
    expect(final("password-change-email password: new address taken")).toBe("changeRequested")
    expect(final("password-change-email password: mail service down")).toBe("mailFailed")
    expect(final("password-confirm-email password: ordinary")).toBe("emailChanged")
    expect(final("password-confirm-email password: link followed already")).toBe("linkStale")
    expect(final("password-confirm-email password: new address taken since")).toBe("newEmailTaken")
    // A reset signs nobody in; a change keeps the session it was made from.
    expect(results.get("password-reset password: ordinary")?.outcome.session?.user).toBeFalsy()
    expect(results.get("password-change password: ordinary")?.outcome.session?.user).toBeTruthy()
    // The policy the provider does not follow is named, not driven.
    expect(suite.unreachable).toContainEqual({ name: "password-reset password: ordinary (keeping other sessions)", why: "endOtherSessions is on (the default): the user's other sessions are ended" })
  }, 300_000)

  it("names what a provider without sendMail, CSRF checks or rate limits cannot reach, and drives the rest", async () => {
    const { suite, coverage, final } = await run({ endOtherSessions: false }, { session: { strategy: "jwt" }, skipCSRFCheck, rateLimit: false })
    expect(suite.cases.filter((testCase) => machines.includes(testCase.machine)).map((testCase) => testCase.machine)).toEqual(expect.arrayContaining(["password-change"]))
    expect(suite.cases.some((testCase) => ["password-reset", "password-reset-request", "password-verify-email", "password-change-email", "password-confirm-email"].includes(testCase.machine))).toBe(false)
    const noMail = suite.unreachable.find((each) => each.name === "password-reset password")?.why
    expect(noMail).toMatch(/has no sendMail: no link or code is mailed/)
    expect(coverage("password-change").missing).toEqual([])
    expect(final("password-change password: ordinary")).toBe("passwordChanged")
    const whys = suite.unreachable.filter((each) => each.name.startsWith("password-change password")).map((each) => each.why)
    expect(whys).toEqual(
      expect.arrayContaining([
        "skipCSRFCheck: the CSRF token is not checked",
        expect.stringMatching(/^rateLimit is off/),
        "endOtherSessions is false: every session is kept",
        "no sendMail: nobody is told the password changed",
      ]),
    )
  }, 120_000)

  it("reports the flows an app breaks: a sendMail that throws, an adapter whose compare-and-set does not compare", async () => {
    // The app's sendMail refuses reset links: asking for one still ends as a sent one (the answer tells nothing), but no link is ever mailed.
    const refusing = await run({ sendMail: (mail) => void (mail.kind === "reset-password" && (() => { throw new Error("SMTP refused") })()) }, { session: { strategy: "database" } })
    expect(refusing.final("password-reset-request password: ordinary")).toBe("resetSent")
    expect(refusing.results.get("password-reset-request password: ordinary")?.outcome.errors).toEqual(["EmailSignInError"])
    expect(refusing.results.get("password-reset password: ordinary")?.outcome.note).toBe("mails no reset-password link: asking for it ended in resetSent")
    expect(refusing.coverage("password-reset").missing.length).toBeGreaterThan(10)
    expect(refusing.coverage("password-confirm-email").missing).toEqual([])

    // An adapter whose updateAccountTokens writes whatever the stored hash: the change that lost the race overwrites the one that won.
    const careless = (): Adapter => {
      const memory = MemoryAdapter()
      return { ...memory, updateAccountTokens: async (account, _expected, tokens) => memory.updateAccountTokens!(account, (await memory.getAccount(account.providerAccountId, account.provider))?.refresh_token ?? "", tokens) }
    }
    const racing = await run({ sendMail: () => {} }, { session: { strategy: "database" }, adapter: careless() }, { freshAdapter: careless })
    expect(racing.final("password-reset password: another change won the race")).toBe("passwordReset")
    expect(racing.final("password-change password: another change won the race")).toBe("passwordChanged")
    expect(racing.coverage("password-reset").missing).toEqual(["password-reset.writingPassword:password.raced:0"])
    expect(racing.coverage("password-change").missing).toEqual(["password-change.writingPassword:password.raced:0"])
  }, 300_000)
})
