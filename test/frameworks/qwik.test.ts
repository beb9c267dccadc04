/**
 * authflow/qwik without Qwik City running: the validation of useSignIn/useSignOut, the cookie
 * bridge into Qwik's cookie API, and the environment defaults. (The module wiring QwikAuth$
 * imports @builder.io/qwik-city, which only loads inside a Qwik City build: examples/qwik and
 * qwik.browser.test.ts cover it.)
 */
import { describe, expect, it } from "vitest"
import type { Cookie as QwikCookie, CookieOptions } from "@builder.io/qwik-city"
import { serializeCookie } from "../../src/core/cookies/serialize.js"
import { skipCSRFCheck } from "../../src/core/symbols.js"
import { moveCookies, parseSetCookie, writeCookies } from "../../src/frameworks/qwik/cookies.js"
import { setQwikEnvDefaults } from "../../src/frameworks/qwik/env.js"
import { validateSignIn, validateSignOut } from "../../src/frameworks/qwik/validate.js"
import Credentials from "../../src/providers/credentials.js"
import GitHub from "../../src/providers/github.js"
import type { AuthConfig, ProviderConfig } from "../../src/types.js"
import { cookieNames } from "../helpers.js"

const noErrors = { authorizationParams: undefined, options: undefined, providerId: undefined, redirectTo: undefined }

describe("validateSignIn", () => {
  it("accepts the four fields, keeps the extra keys of options and drops unknown fields", () => {
    const input = {
      providerId: "credentials",
      redirectTo: "/here",
      options: { redirectTo: "/there", username: "ada", remember: true },
      authorizationParams: { prompt: "login" },
      stray: "dropped",
    }
    expect(validateSignIn(input)).toEqual({
      success: true,
      data: {
        providerId: "credentials",
        redirectTo: "/here",
        options: { redirectTo: "/there", username: "ada", remember: true },
        authorizationParams: { prompt: "login" },
      },
    })
    expect(validateSignIn({})).toEqual({ success: true, data: {} })
    expect(validateSignIn({ authorizationParams: "prompt=login" })).toMatchObject({ success: true })
    expect(validateSignIn({ authorizationParams: new URLSearchParams("prompt=login") })).toMatchObject({ success: true })
  })

  it("refuses wrong types with failed-action errors: formErrors, and one fieldErrors entry per field", () => {
    expect(validateSignIn({ providerId: 42, options: "x" })).toEqual({
      success: false,
      status: 400,
      error: {
        formErrors: [],
        fieldErrors: { ...noErrors, providerId: ["Expected string, received number"], options: ["Expected object, received string"] },
      },
    })
    expect(validateSignIn({ options: { redirectTo: 1 } })).toMatchObject({
      error: { fieldErrors: { ...noErrors, options: ["redirectTo: Expected string, received number"] } },
    })
    expect(validateSignIn({ authorizationParams: { prompt: { nested: "x" } } })).toMatchObject({
      error: { fieldErrors: { ...noErrors, authorizationParams: ["Expected a string, URLSearchParams or a record of strings"] } },
    })
    expect(validateSignIn({ redirectTo: ["/a"] })).toMatchObject({
      error: { fieldErrors: { ...noErrors, redirectTo: ["Expected string, received array"] } },
    })
    const notAnObject = validateSignIn("providerId=github")
    expect(notAnObject).toEqual({ success: false, status: 400, error: { formErrors: ["Expected object, received string"], fieldErrors: noErrors } })
    if (!notAnObject.success) expect(Object.keys(notAnObject.error.fieldErrors).sort()).toEqual(["authorizationParams", "options", "providerId", "redirectTo"])
  })
})

describe("validateSignOut", () => {
  it("accepts an optional string redirectTo and nothing else", () => {
    expect(validateSignOut({ redirectTo: "/", other: 1 })).toEqual({ success: true, data: { redirectTo: "/" } })
    expect(validateSignOut({})).toEqual({ success: true, data: {} })
    expect(validateSignOut({ redirectTo: 5 })).toEqual({
      success: false,
      status: 400,
      error: { formErrors: [], fieldErrors: { redirectTo: ["Expected string, received number"] } },
    })
    expect(validateSignOut(null)).toEqual({
      success: false,
      status: 400,
      error: { formErrors: ["Expected object, received null"], fieldErrors: { redirectTo: undefined } },
    })
  })
})

/** A stand-in for Qwik City's `event.cookie`, recording `set` calls. */
function recordingJar(): QwikCookie & { sets: [string, string, CookieOptions | undefined][] } {
  const sets: [string, string, CookieOptions | undefined][] = []
  const unused = () => {
    throw new Error("not used")
  }
  return {
    sets,
    set: (name: string, value: string | number | Record<string, unknown>, options?: CookieOptions) => void sets.push([name, String(value), options]),
    get: unused,
    getAll: unused,
    has: unused,
    append: unused,
    delete: unused,
    headers: unused,
  }
}

describe("cookies", () => {
  it("parseSetCookie reads what authflow writes", () => {
    const expires = new Date("2030-01-02T03:04:05.000Z")
    const header = serializeCookie(cookieNames.http.callbackUrl, "http://localhost:3000/a b", {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: true,
      expires,
      maxAge: 60,
      domain: "example.test",
    })
    expect(parseSetCookie(header)).toEqual({
      name: cookieNames.http.callbackUrl,
      value: "http://localhost:3000/a b",
      options: { path: "/", httpOnly: true, sameSite: "lax", secure: true, expires, maxAge: 60, domain: "example.test" },
    })
    expect(parseSetCookie("no-equals-sign")).toBeUndefined()
  })

  it("writeCookies URI-encodes the value (Qwik writes it as given) and passes the options Qwik knows", () => {
    const jar = recordingJar()
    writeCookies(jar, [{ name: cookieNames.http.sessionToken, value: "a|b c", options: { path: "/", httpOnly: true, sameSite: "lax", maxAge: 0, partitioned: true } }])
    expect(jar.sets).toEqual([[cookieNames.http.sessionToken, "a%7Cb%20c", { path: "/", httpOnly: true, sameSite: "lax", maxAge: 0 }]])
  })

  it("moveCookies empties the response's Set-Cookie into the jar and keeps the rest", async () => {
    const jar = recordingJar()
    const headers = new Headers({ location: "/there", "x-other": "1" })
    headers.append("set-cookie", "one=1; Path=/; HttpOnly")
    headers.append("set-cookie", "two=2%3D; Path=/; Max-Age=0")
    const moved = moveCookies(new Response("body", { status: 302, headers }), jar)
    expect(moved.status).toBe(302)
    expect(moved.headers.get("location")).toBe("/there")
    expect(moved.headers.get("x-other")).toBe("1")
    expect(moved.headers.getSetCookie()).toEqual([])
    expect(await moved.text()).toBe("body")
    expect(jar.sets).toEqual([
      ["one", "1", { path: "/", httpOnly: true }],
      ["two", "2%3D", { path: "/", maxAge: 0 }],
    ])
  })
})

describe("setQwikEnvDefaults", () => {
  const env = (values: Record<string, string>) => ({ get: (name: string) => values[name] })

  it("forces basePath /auth and skipCSRFCheck, and reads secrets, trustHost and provider credentials", () => {
    const config: AuthConfig = { basePath: "/api/auth", providers: [GitHub, Credentials({ authorize: () => null })] }
    setQwikEnvDefaults(
      env({ AUTH_URL: "https://app.example/custom", AUTH_SECRET: "s0", AUTH_SECRET_1: "s1", AUTH_GITHUB_ID: "gid", AUTH_GITHUB_SECRET: "gsecret" }),
      config,
    )
    expect(config.basePath).toBe("/auth")
    expect(config.skipCSRFCheck).toBe(skipCSRFCheck)
    expect(config.secret).toEqual(["s1", "s0"])
    expect(config.trustHost).toBe(true)
    expect(config.providers[0]).toMatchObject({ id: "github", clientId: "gid", clientSecret: "gsecret" })
    expect((config.providers[1] as ProviderConfig).type).toBe("credentials")
  })

  it("keeps a given secret, and trustHost follows AUTH_TRUST_HOST, else NODE_ENV", () => {
    const config: AuthConfig = { secret: "given", providers: [] }
    setQwikEnvDefaults(env({ AUTH_SECRET: "ignored", AUTH_TRUST_HOST: "false" }), config)
    expect(config.secret).toBe("given")
    expect(config.trustHost).toBe(false)
    const production: AuthConfig = { providers: [] }
    setQwikEnvDefaults(env({ NODE_ENV: "production" }), production)
    expect(production.trustHost).toBe(false)
    expect(production.secret).toEqual([])
  })
})
