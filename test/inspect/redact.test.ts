import { describe, expect, it } from "vitest"
import { REDACTED, isSecretKey, redact, redactText, statelySanitizers } from "../../src/inspect/index.js"
import { cookieNames } from "../helpers.js"

describe("redaction", () => {
  it("redacts by property name, deeply, without touching the input", () => {
    const input = {
      checks: { codeVerifier: "v", state: "s", nonce: "n", redirectUri: "https://app.test/auth/callback/op", callbackUrl: "/dashboard" },
      credentials: { username: "ada", password: "pw" },
      tokens: { access_token: "a", refresh_token: "r", id_token: "i", token_type: "Bearer", expires_in: 3600 },
      client: { client_secret: "cs", clientSecret: "cs2", apiKey: "k" },
      headers: { cookie: "c", Authorization: "Basic x", "set-cookie": "y" },
      sessionToken: "t",
      csrfToken: "x",
      code: "c",
      user: { id: "u1", name: "Ada", email: "ada@example.test" },
    }
    const copy = JSON.parse(JSON.stringify(input))
    const shown = redact(input) as typeof input
    expect(input).toEqual(copy)
    expect(shown.checks).toEqual({ codeVerifier: REDACTED, state: REDACTED, nonce: REDACTED, redirectUri: "https://app.test/auth/callback/op", callbackUrl: "/dashboard" })
    expect(shown.credentials).toBe(REDACTED)
    expect(shown.tokens).toBe(REDACTED)
    expect(shown.client).toEqual({ client_secret: REDACTED, clientSecret: REDACTED, apiKey: REDACTED })
    expect(shown.headers).toEqual({ cookie: REDACTED, Authorization: REDACTED, "set-cookie": REDACTED })
    expect([shown.sessionToken, shown.csrfToken, shown.code]).toEqual([REDACTED, REDACTED, REDACTED])
    expect(shown.user).toEqual(input.user)
    expect(isSecretKey("callbackUrl")).toBe(false)
    expect(isSecretKey("email")).toBe(false)
    expect(redact({ tenant: "x", orgId: "y" }, { keys: ["tenant", /^org/] })).toEqual({ tenant: REDACTED, orgId: REDACTED })
  })

  it("redacts secret-shaped values under any name: JWT, JWE, bearer, secret query parameters, random runs", () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl"
    const jwe = "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0..aXY.Y2lwaGVydGV4dA.dGFn"
    expect(redactText(`token ${jwt} end`)).toBe(`token ${REDACTED} end`)
    expect(redactText(jwe)).toBe(REDACTED)
    expect(redactText("Authorization: Bearer abc.def-ghi")).toBe(`Authorization: Bearer ${REDACTED}`)
    expect(redactText("https://app.test/auth/callback/email?callbackUrl=%2F&token=abc123&email=a%40b.c")).toBe(`https://app.test/auth/callback/email?callbackUrl=%2F&token=${REDACTED}&email=a%40b.c`)
    expect(redactText("https://app.test/cb?code=xyz&state=abc")).toBe(`https://app.test/cb?code=${REDACTED}&state=${REDACTED}`)
    expect(redactText(`${cookieNames.http.sessionToken}=opaque; Path=/; HttpOnly`)).toBe(`${cookieNames.http.sessionToken}=${REDACTED}; Path=/; HttpOnly`)
    expect(redactText("verifier dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk in text")).toBe(`verifier ${REDACTED} in text`)
    expect(redactText("session 6f1c2b4e-8a7d-4c1e-9b2a-3d5e7f901234")).toBe(`session ${REDACTED}`)
    expect(redactText("a3f1".repeat(16))).toBe(REDACTED)
    for (const plain of ["validatingInput", "https://app.test/auth/callback/credentials", "ada@example.test", "2024-01-01T00:00:00.000Z", "The link has expired"]) {
      expect(redactText(plain)).toBe(plain)
    }
  })

  it("shows errors by name, message, type and cause; class instances by name; survives cycles and throwing getters", () => {
    const cause = new Error(`upstream said eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig`)
    const error = Object.assign(new Error("Read more at https://errors.authjs.dev#callbackrouteerror", { cause }), { type: "CallbackRouteError", secret: "s" })
    const cyclic: Record<string, unknown> = { name: "loop" }
    cyclic.self = cyclic
    const tricky = Object.defineProperty({}, "boom", { enumerable: true, get: () => { throw new Error("no") } })
    const shown = redact({ error, cyclic, tricky, request: new Request("https://app.test/?code=1"), headers: new Headers({ cookie: "a=b" }), bytes: new Uint8Array(4), when: new Date(0), map: new Map([["password", "p"]]), fn: function named() {} }) as Record<string, unknown>
    expect(shown.error).toEqual({ name: "Error", message: "Read more at https://errors.authjs.dev#callbackrouteerror", type: "CallbackRouteError", cause: { name: "Error", message: `upstream said ${REDACTED}` } })
    expect(shown.cyclic).toEqual({ name: "loop", self: "[circular]" })
    expect(shown.tricky).toEqual({ boom: "[unreadable]" })
    expect([shown.request, shown.headers, shown.bytes, shown.when, shown.fn]).toEqual(["[Request]", "[Headers]", "[Uint8Array]", "1970-01-01T00:00:00.000Z", "[function named]"])
    expect(shown.map).toEqual({ password: REDACTED })
  })

  it("sanitize events and contexts for a Stately inspector, keeping event types", () => {
    expect(statelySanitizers.sanitizeEvent({ type: "authorization.ready", checks: { state: "s", callbackUrl: "/" } })).toEqual({ type: "authorization.ready", checks: { state: REDACTED, callbackUrl: "/" } })
    expect(statelySanitizers.sanitizeContext({ checks: { codeVerifier: "v" } })).toEqual({ checks: { codeVerifier: REDACTED } })
  })
})
