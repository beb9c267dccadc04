/**
 * `authflow/testing` on the demo's own configuration (demo/auth.config.ts): every path of every
 * machine it uses is driven through Auth() and compared with the committed snapshot,
 * demo/auth.snap.json. After a deliberate change of behaviour, rewrite the snapshot with
 *
 *   node --import tsx src/cli.ts test demo/auth.config.ts --update
 */
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { authflowModelTests, formatCoverage, type CaseResult } from "../../src/testing/index.js"
import demoUnderTest, { demoFixtures } from "../../demo/auth.config.js"
import type { AuthConfig } from "../../src/types.js"

const snapshotFile = fileURLToPath(new URL("../../demo/auth.snap.json", import.meta.url))
const { config } = await demoUnderTest()
const suite = await authflowModelTests(config, demoFixtures, { snapshotFile })

describe("authflow/testing on the demo's configuration", () => {
  for (const testCase of suite.cases) {
    it(testCase.name, async () => {
      const result = await testCase.run()
      expect(result.difference).toBeUndefined()
      expect(result.status).toBe("same")
    })
  }

  it("covers every transition reachable with the demo's configuration, in every machine it uses", async () => {
    const coverage = suite.coverage()
    console.log(formatCoverage(coverage, suite.unreachable))
    expect(coverage.map((entry) => entry.machine)).toEqual(["credentials-sign-in", "oauth", "email-sign-in", "email-verification", "webauthn", "sign-out"])
    for (const entry of coverage) {
      expect(entry.missing, entry.machine).toEqual([])
      expect(entry.covered, entry.machine).toBe(entry.reachable)
      expect(entry.reachable, entry.machine).toBeGreaterThan(0)
    }
    await expect(suite.finish()).resolves.toEqual({ differences: [], written: false })
  })

  it("says why the paths it does not run cannot happen with this configuration", () => {
    const why = new Map(suite.unreachable.map(({ name, why }) => [name, why]))
    expect(why.get("oauth demo-idp: account.new.emailTaken (allowDangerousEmailAccountLinking on)")).toMatch(/allowDangerousEmailAccountLinking is off/)
    expect(why.get("credentials-sign-in credentials: accepted credentials, signIn.denied")).toBe("no callbacks.signIn: every sign-in is allowed")
    expect(why.get("sign-out: session.found (jwt session)")).toBe("sessions are database sessions: no JWT is decoded")
  })

  it("a signIn callback that refuses a user fails the comparison with a diff naming each changed path", async () => {
    const refusing: AuthConfig = { ...config, callbacks: { signIn: ({ user }) => user.email !== "newcomer@example.test" } }
    const changed = await authflowModelTests(refusing, demoFixtures, { snapshotFile })
    const results: CaseResult[] = []
    for (const testCase of changed.cases) results.push(await testCase.run())
    const differing = results.filter((result) => result.status === "changed")
    // Only the newcomer's paths change: Ada's credentials, Grace's links, sign-out and the provider's refusals do not.
    expect(differing.map((result) => result.name).sort()).toEqual(
      [
        "oauth demo-idp: account.new.noUser",
        "oauth demo-idp: account.new.noUser, session.failed",
        "oauth demo-idp: account.new.noUser, persist.failed",
        "oauth demo-idp: account.new.noUser, persist.failed, undo.failed",
        "oauth demo-idp: account.linkedToUser",
        "oauth demo-idp: account.linkedToUser, session.failed",
        "oauth demo-idp: account.new.signedIn(sign-in started signed in)",
        "oauth demo-idp: account.new.signedIn(sign-in started signed in), session.failed",
        "oauth demo-idp: account.new.signedIn(sign-in started signed in), persist.failed",
        "email-sign-in email: new address",
        "email-sign-in email: new address, store.failed",
        "email-sign-in email: new address, send.failed",
        "email-sign-in email: new address, send.failed, revoke.failed",
        "email-verification email: new address",
        "email-verification email: new address, session.failed",
        "email-verification email: new address, session.failed, restore.failed",
        "email-verification email: new address, persist.failed",
        "email-verification email: new address, persist.failed, restore.failed",
        // A link to follow is asked for the new address unless the path needs an existing user's.
        "email-verification email: link expired",
        "email-verification email: link used already",
        "email-verification email: link without token",
        "email-verification email: lookup.failed",
        "email-verification email: lookup.failed, restore.failed",
        "email-verification email: token.failed",
        // A passkey registered for the new address: the newcomer is refused before anything is stored.
        "webauthn passkey: action=register, new email",
        "webauthn passkey: action=register, new email, session.failed",
        "webauthn passkey: action=register, new email, persist.failed",
        "webauthn passkey: action=register, new email, persist.failed, undo.failed",
        "webauthn passkey: no action, new email",
        "webauthn passkey: no action, new email, session.failed",
        "webauthn passkey: no action, new email, persist.failed",
        "webauthn passkey: no action, new email, persist.failed, undo.failed",
      ].sort(),
    )
    for (const result of differing) expect(result.difference!.split("\n")[0]).toMatch(/: callbacks\.signIn changed\?$/)
    expect(results.find((result) => result.name === "credentials-sign-in credentials: accepted credentials")?.status).toBe("same")

    const failure = await changed.finish().then(
      () => undefined,
      (error: Error) => error.message,
    )
    expect(failure).toContain(`${differing.length} path(s) differ`)
    expect(failure).toContain("oauth demo-idp: account.new.noUser → now ends in accessDenied (was signedIn): callbacks.signIn changed?")
    expect(failure).toContain('  final: "signedIn" → "accessDenied"')
    expect(failure).toContain("email-sign-in email: new address → now ends in accessDenied (was linkSent): callbacks.signIn changed?")
    expect(failure).toContain("email-verification email: new address → now mails no link: asking for it ended in accessDenied (was signedIn): callbacks.signIn changed?")
    expect(failure).toContain("webauthn passkey: action=register, new email → now ends in accessDenied (was signedIn): callbacks.signIn changed?")
    // Every path again, on a changed configuration: a minute on a quiet machine, more on a busy one.
  }, 300_000)
})
