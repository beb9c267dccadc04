/**
 * authflow/testing with rate limiting on: the kit drives the limiter's outcomes itself (over a
 * budget, the store down failing open or closed, at the sign-in and at the OAuth callback), in a
 * store of each world's own, so that no path depends on the paths run before it. With rate
 * limiting off, those paths are named unreachable and why.
 */
import { describe, expect, it } from "vitest"
import { authflowModelTests, type CaseResult } from "../../src/testing/index.js"
import Credentials from "../../src/providers/credentials.js"
import GitHub from "../../src/providers/github.js"
import type { AuthConfig } from "../../src/types.js"

const base: AuthConfig = {
  secret: "kit-rate-limit-secret",
  providers: [
    Credentials({ credentials: { username: {}, password: { type: "password" } }, authorize: (c) => (c.password === "right" ? { id: "u1", name: "Ada" } : null) }),
    GitHub({ clientId: "gh-id", clientSecret: "gh-secret" }),
  ],
}
const fixtures = { credentials: { credentials: { accepted: { username: "ada", password: "right" }, rejected: { username: "ada", password: "wrong" } } }, users: { newEmail: "octo@example.test" } }

describe("authflow/testing and rate limiting", async () => {
  const suite = await authflowModelTests({ ...base, rateLimit: { limits: { credentials: { identifier: { max: 2, windowSeconds: 60 } } } } }, fixtures)
  const results = new Map<string, CaseResult>()
  for (const testCase of suite.cases) results.set(testCase.name, await testCase.run())
  const outcome = (name: string) => results.get(name)?.outcome

  it("drives a request over a budget, and a store that is down failing closed, to rateLimited", () => {
    for (const name of ["credentials-sign-in credentials: over a rate limit", "credentials-sign-in credentials: rate-limit store down (fails closed)", "oauth github: over a rate limit", "oauth github: over a rate limit at the callback"]) {
      expect(outcome(name)?.final, name).toBe("rateLimited")
      expect(outcome(name)?.responses.at(-1)?.redirect, name).toMatch(/^\/auth\/signin\?error=RateLimited&retryAfter=[1-9]\d*$/)
    }
    // Over the budget at the callback: the user went to the provider, and came back refused.
    expect(outcome("oauth github: over a rate limit at the callback")!.responses.map((response) => response.request)).toEqual(["POST /signin/github", "GET /callback/github"])
    expect(outcome("credentials-sign-in credentials: rate-limit store down (fails closed)")!.errors).toEqual(["RateLimitStoreError", "RateLimited"])
  })

  it("drives a store that is down failing open: the flow goes on as if admitted, the error logged", () => {
    const signedIn = outcome("credentials-sign-in credentials: rate-limit store down (fails open), accepted credentials")!
    expect(signedIn.final).toBe("signedIn")
    expect(signedIn.errors).toEqual(["RateLimitStoreError"])
    expect(outcome("oauth github: rate-limit store down at the callback (fails open), account.new.noUser")?.final).toBe("signedIn")
  })

  it("covers every transition of the limited states, in each machine", () => {
    for (const entry of suite.coverage()) {
      expect(entry.missing, entry.machine).toEqual([])
      expect(entry.covered, entry.machine).toBe(entry.reachable)
    }
    expect(suite.unreachable.map((entry) => entry.why).join("\n")).not.toContain("rateLimit")
  })

  it("with rate limiting off, names the limited paths unreachable, and why", async () => {
    const off = await authflowModelTests({ ...base, rateLimit: false }, fixtures)
    expect(off.cases.map((testCase) => testCase.name).filter((name) => name.includes("rate"))).toEqual([])
    expect(off.unreachable.map((entry) => entry.why)).toContain("rateLimit is off (it is on by default only when NODE_ENV=production): no request is ever limited")
  })
})
