/** The kit on a configuration with a Password provider: it does not drive it as a credentials provider, and says why. */
import { describe, expect, it } from "vitest"
import { authflowModelTests } from "../../src/testing/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Password from "../../src/providers/password.js"

describe("authflow/testing with a Password provider", () => {
  it("names its machines as not driven, with the reason, and drives no credentials path for it", async () => {
    const suite = await authflowModelTests({ secret: "kit-password-secret-0123456789abcdef", adapter: MemoryAdapter(), providers: [Password()] }, { freshAdapter: () => MemoryAdapter() })
    expect(suite.cases.filter((testCase) => testCase.machine === "credentials-sign-in")).toEqual([])
    expect(JSON.stringify(suite)).toContain("the kit does not drive the Password provider yet")
  })
})
