/**
 * The origin policy called directly: which origin a request is served as, which origins a redirect
 * proxy may forward to, and the one-line configuration errors. test/security/origin.test.ts attacks
 * the same rules through `Auth()`.
 */
import { describe, expect, it } from "vitest"
import { isConfiguredOrigin, servedOrigin } from "../../src/core/origin.js"
import { UntrustedHost } from "../../src/errors.js"
import type { AuthConfig } from "../../src/types.js"

function config(options: Partial<AuthConfig>): AuthConfig {
  return { providers: [], ...options }
}

function served(url: string, options: Partial<AuthConfig>) {
  return servedOrigin(new URL(url), config(options))
}

function errorOf(result: ReturnType<typeof servedOrigin>): UntrustedHost {
  expect(result.origin).toBeUndefined()
  expect(result.error).toBeInstanceOf(UntrustedHost)
  return result.error!
}

describe("servedOrigin", () => {
  it("serves every request as `origin` when only that is configured, its own origin when it is `origin`", () => {
    expect(served("http://evil.example/auth/signin", { origin: "https://app.example" })).toEqual({ origin: "https://app.example" })
    expect(served("https://app.example/auth/signin", { origin: "https://app.example/" })).toEqual({ origin: "https://app.example" })
    expect(served("https://app.example:8443/auth", { origin: "https://app.example" })).toEqual({ origin: "https://app.example" })
  })

  it("serves a trusted origin as itself, anything else as `origin`", () => {
    const options = { origin: "https://app.example", trustedOrigins: ["https://*.preview.example", "https://admin.example"] }
    expect(served("https://pr-1.preview.example/auth", options)).toEqual({ origin: "https://pr-1.preview.example" })
    expect(served("https://admin.example/auth", options)).toEqual({ origin: "https://admin.example" })
    expect(served("https://evil.example/auth", options)).toEqual({ origin: "https://app.example" })
  })

  it("refuses an untrusted origin when only `trustedOrigins` is configured, saying how to fix it", () => {
    const error = errorOf(served("https://evil.example/auth", { trustedOrigins: ["https://app.example"] }))
    expect(error.message).toContain("The origin https://evil.example is not in `trustedOrigins`")
    expect(served("https://app.example/auth", { trustedOrigins: ["https://app.example"] })).toEqual({ origin: "https://app.example" })
  })

  it("with nothing configured, serves the request's own origin only with trustHost", () => {
    expect(served("https://any.example/auth", { trustHost: true })).toEqual({ origin: "https://any.example" })
    const error = errorOf(served("https://any.example/auth", {}))
    expect(error.message).toMatch(/^The request's Host cannot be trusted: set AUTH_URL/)
    expect(errorOf(served("https://any.example/auth", { trustHost: false })).message).toMatch(/cannot be trusted/)
  })

  it("`origin` wins over trustHost: the Host header is never trusted when an origin is named", () => {
    expect(served("https://evil.example/auth", { origin: "https://app.example", trustHost: true })).toEqual({ origin: "https://app.example" })
  })

  it("refuses a malformed `origin` with a message naming it and the fix", () => {
    for (const origin of ["app.example", "ftp://app.example", "https://app.example/auth", "https://app.example/?x=1", "https://app.example/#x", "https://user@app.example", "https://u:p@app.example", "javascript:alert(1)", ""]) {
      const error = errorOf(served("https://app.example/auth", { origin, trustHost: true }))
      expect(error.message, origin).toBe(`\`origin\` must be an http(s) origin such as "https://app.example", not "${origin}": fix it (or AUTH_URL)`)
    }
    expect(served("http://app.example/auth", { origin: "http://app.example" })).toEqual({ origin: "http://app.example" })
  })

  it("refuses a malformed `trustedOrigins` entry, naming the first bad one", () => {
    for (const entry of ["*", "https://*", "xhttps://*.preview.example", " https://*.preview.example", "https://*evil.example", "https://a.*.example", "*.example", "https://app.example/path", "app.example", "https://*.exa mple", 42]) {
      const error = errorOf(served("https://app.example/auth", { origin: "https://app.example", trustedOrigins: [entry as string] }))
      expect(error.message, String(entry)).toBe(
        `\`trustedOrigins\` entries are origins ("https://app.example") or one-label wildcards ("https://*.preview.example"), not ${JSON.stringify(entry)}: fix that entry`,
      )
    }
    const error = errorOf(served("https://app.example/auth", { trustedOrigins: ["https://ok.example", "first bad", "second bad"] }))
    expect(error.message).toContain('not "first bad"')
  })

  it("recompiles the policy when the same configuration object changes", () => {
    const options = config({ origin: "https://one.example" })
    expect(servedOrigin(new URL("https://evil.example/"), options)).toEqual({ origin: "https://one.example" })
    options.origin = "https://two.example"
    expect(servedOrigin(new URL("https://evil.example/"), options)).toEqual({ origin: "https://two.example" })
    options.trustedOrigins = ["https://evil.example"]
    expect(servedOrigin(new URL("https://evil.example/"), options)).toEqual({ origin: "https://evil.example" })
    options.trustedOrigins = ["https://other.example"]
    expect(servedOrigin(new URL("https://evil.example/"), options)).toEqual({ origin: "https://two.example" })
  })
})

describe("isConfiguredOrigin", () => {
  const wildcard = config({ origin: "https://app.example", trustedOrigins: ["https://*.preview.example"] })

  it("names `origin` and exact `trustedOrigins` entries", () => {
    expect(isConfiguredOrigin("https://app.example", wildcard)).toBe(true)
    expect(isConfiguredOrigin("https://admin.example", config({ trustedOrigins: ["https://admin.example/"] }))).toBe(true)
    expect(isConfiguredOrigin("https://evil.example", wildcard)).toBe(false)
    expect(isConfiguredOrigin("http://app.example", wildcard)).toBe(false)
    expect(isConfiguredOrigin("https://app.example", config({}))).toBe(false)
  })

  it("a wildcard matches exactly one DNS label, on its scheme and port", () => {
    for (const origin of ["https://pr-42.preview.example", "https://a.preview.example", "https://0.preview.example", `https://${"a".repeat(63)}.preview.example`, "https://a-b.preview.example"]) {
      expect(isConfiguredOrigin(origin, wildcard), origin).toBe(true)
    }
    for (const origin of [
      "https://preview.example",
      "https://.preview.example",
      "https://a.b.preview.example",
      "http://pr-42.preview.example",
      "https://pr-42.preview.example:8443",
      "https://pr-42.preview.example.evil",
      "https://pr-42.evilpreview.example",
      "https://-a.preview.example",
      "https://a-.preview.example",
      "https://A.preview.example",
      `https://${"a".repeat(64)}.preview.example`,
      "https://a_b.preview.example",
      "xhttps://pr-42.preview.example",
    ]) {
      expect(isConfiguredOrigin(origin, wildcard), origin).toBe(false)
    }
  })

  it("a wildcard's scheme and host are case-insensitive, and its port is kept", () => {
    const options = config({ trustedOrigins: ["HTTPS://*.Preview.Example:8443"] })
    expect(isConfiguredOrigin("https://pr-1.preview.example:8443", options)).toBe(true)
    expect(isConfiguredOrigin("https://pr-1.preview.example", options)).toBe(false)
    const defaultPort = config({ trustedOrigins: ["https://*.preview.example:443"] })
    expect(isConfiguredOrigin("https://pr-1.preview.example", defaultPort)).toBe(true)
    const plain = config({ trustedOrigins: ["http://*.local.test"] })
    expect(isConfiguredOrigin("http://dev.local.test", plain)).toBe(true)
    expect(isConfiguredOrigin("https://dev.local.test", plain)).toBe(false)
  })
})
