/**
 * The kit on a configuration whose email provider mails a code (src/testing/drivers/email-sign-in.ts
 * and email-verification.ts): the email sign-in's paths end in codeSent with the browser on the
 * code page, and with the code instead of the link there is no link to follow, which the kit names.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import { authflowModelTests, type CaseResult } from "../../src/testing/index.js"
import type { EmailCodeMode } from "../../src/providers/email-config.js"
import type { AuthConfig } from "../../src/types.js"

async function run(code: EmailCodeMode) {
  const config: AuthConfig = { adapter: MemoryAdapter(), session: { strategy: "jwt" }, providers: [Nodemailer({ server: "smtp://localhost:1", code })] }
  const suite = await authflowModelTests(config, { freshAdapter: () => MemoryAdapter() })
  const results = new Map<string, CaseResult>()
  // The code's own paths are test/testing/email-code-kit.test.ts's.
  for (const testCase of suite.cases) if (testCase.machine !== "email-code") results.set(testCase.name, await testCase.run())
  return { suite, results }
}

describe("authflow/testing with emailed codes", () => {
  it.each(["instead", "beside"] as const)("code %s: the email sign-in ends in codeSent, on the code page", async (code) => {
    const { suite, results } = await run(code)
    const sent = [...results].filter(([name]) => name.startsWith("email-sign-in"))
    expect(sent.length).toBeGreaterThan(0)
    const ended = sent.map(([, result]) => result.outcome.final)
    expect(ended).toContain("codeSent")
    expect(ended).not.toContain("linkSent")
    const codeSent = sent.find(([, result]) => result.outcome.final === "codeSent")![1]
    expect(codeSent.outcome.responses.at(-1)?.redirect).toBe("/auth/verify-request?provider=nodemailer&type=code")
    // Every transition this configuration can reach was driven, the code's among them.
    const machines = suite.coverage()
    expect(machines.find((machine) => machine.machine === "email-sign-in")?.missing).toEqual([])
    const verification = machines.find((machine) => machine.machine === "email-verification")
    if (code === "beside") {
      // The link still works beside the code.
      expect(verification?.missing).toEqual([])
      expect(results.get("email-verification nodemailer: new address")?.outcome.final).toBe("signedIn")
    } else {
      // No link is mailed: the kit drives no verification and names why.
      expect(verification).toBeUndefined()
      expect(suite.cases.some((testCase) => testCase.machine === "email-verification")).toBe(false)
      expect(suite.unreachable).toContainEqual({ name: "email-verification nodemailer", why: 'providers.nodemailer.code is "instead": the email carries a code, and no link to follow' })
    }
  })
})
