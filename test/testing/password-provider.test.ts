/**
 * The kit on a configuration with a Password provider (src/testing/drivers/password-sign-in.ts): it
 * keeps a password account of its own for the existing user and drives every password sign-in
 * transition the configuration can reach; with verification by link, the code flow is named as not driven, with the reason.
 */
import { describe, expect, it } from "vitest"
import { authflowModelTests, type CaseResult } from "../../src/testing/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Password from "../../src/providers/password.js"
import type { PasswordOptions } from "../../src/providers/password.js"
import type { AuthConfig } from "../../src/types.js"

async function run(options: PasswordOptions, strategy: "jwt" | "database") {
  const config: AuthConfig = { secret: "kit-password-secret-0123456789abcdef", adapter: MemoryAdapter(), session: { strategy }, rateLimit: {}, providers: [Password({ hashing: { scrypt: { ln: 12 } }, ...options })] }
  const suite = await authflowModelTests(config, { freshAdapter: () => MemoryAdapter() })
  const results = new Map<string, CaseResult>()
  for (const testCase of suite.cases) results.set(testCase.name, await testCase.run())
  return { suite, results }
}

const finalOf = (results: Map<string, CaseResult>, name: string) => results.get(`password-sign-in password: ${name}`)?.outcome.final

describe("authflow/testing with a Password provider", () => {
  it.each(["jwt", "database"] as const)("drives every reachable password sign-in transition (%s sessions), and names the code flow as not driven", async (strategy) => {
    const { suite, results } = await run({ verification: "required", sendMail: () => {} }, strategy)
    expect(suite.cases.filter((testCase) => testCase.machine === "credentials-sign-in")).toEqual([])
    const signIn = suite.coverage().find((machine) => machine.machine === "password-sign-in")!
    expect(signIn.reachable).toBeGreaterThan(20)
    expect(signIn.missing).toEqual([])
    expect(finalOf(results, "wrong password")).toBe("credentialsRejected")
    expect(finalOf(results, "unknown email")).toBe("credentialsRejected")
    expect(finalOf(results, "unverified address")).toBe("emailUnverified")
    expect(finalOf(results, "outdated hash")).toBe("signedIn")
    expect(finalOf(results, "account lookup failed")).toBe("signInFailed")
    expect(finalOf(results, "no email typed, unknown email")).toBe("credentialsRejected")
    expect(results.has("password-sign-in password: no email typed, account lookup failed")).toBe(false)
    expect(suite.coverage().find((machine) => machine.machine === "password-sign-up")?.missing).toEqual([])
    expect(suite.unreachable).toContainEqual({ name: "password-verify-code password", why: 'providers.password.verifyBy is "link" (the default): sign-up mails a link, no code' })
  }, 120_000)
})
