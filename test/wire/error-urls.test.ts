import { describe, expect, it } from "vitest"
import { Duo, credentialsConfig, expectSameWire, recorder, sides, typesOf, type Side } from "./harness.js"
import type { AuthConfig, PagesOptions } from "../../src/types.js"

type ErrorName = keyof Side["errors"] & string

/** Throws `type` (each side's own class) from authorize: AuthErrors leave the credentials flow as they are. */
function throwing(type: ErrorName, pages?: PagesOptions) {
  const logs = { authflow: recorder(), authjs: recorder() }
  const duo = new Duo((side) =>
    credentialsConfig(side, { logger: logs[side.name].logger, ...(pages && { pages }) } as Partial<AuthConfig>, () => {
      const ErrorClass = side.errors[type] as unknown as new (message?: string) => Error
      throw new ErrorClass(`thrown ${type}`)
    }),
  )
  return { duo, logs }
}

const signInKind: [ErrorName, string][] = [
  ["CredentialsSignin", "https://app.test/auth/signin?error=CredentialsSignin&code=credentials"],
  ["OAuthAccountNotLinked", "https://app.test/auth/signin?error=OAuthAccountNotLinked"],
  ["OAuthCallbackError", "https://app.test/auth/signin?error=OAuthCallbackError"],
  ["MissingCSRF", "https://app.test/auth/signin?error=MissingCSRF"],
  ["AccountNotLinked", "https://app.test/auth/signin?error=AccountNotLinked"],
]

const errorKind: [ErrorName, string][] = [
  ["AccessDenied", "https://app.test/auth/error?error=AccessDenied"],
  ["Verification", "https://app.test/auth/error?error=Verification"],
  ["WebAuthnVerificationError", "https://app.test/auth/error?error=WebAuthnVerificationError"],
]

const notClientSafe: [ErrorName, string][] = [
  ["AuthError", "https://app.test/auth/error?error=Configuration"],
  ["AdapterError", "https://app.test/auth/error?error=Configuration"],
  ["CallbackRouteError", "https://app.test/auth/error?error=Configuration"],
  ["InvalidCheck", "https://app.test/auth/error?error=Configuration"],
  ["JWTSessionError", "https://app.test/auth/error?error=Configuration"],
  ["SessionTokenError", "https://app.test/auth/error?error=Configuration"],
  ["SignOutError", "https://app.test/auth/error?error=Configuration"],
  ["UnknownAction", "https://app.test/auth/error?error=Configuration"],
  ["InvalidProvider", "https://app.test/auth/error?error=Configuration"],
  ["OAuthProfileParseError", "https://app.test/auth/error?error=Configuration"],
  // Kind signIn but not client-safe: the sign-in page with error=Configuration.
  ["OAuthSignInError", "https://app.test/auth/signin?error=Configuration"],
  ["EmailSignInError", "https://app.test/auth/signin?error=Configuration"],
]

describe("error URLs", () => {
  it.each(signInKind)("kind signIn: %s → %s", async (type, location) => {
    const { duo, logs } = throwing(type)
    const wire = await expectSameWire(await duo.post("/callback/credentials", { username: "ada" }))
    expect(wire).toMatchObject({ status: 302, location, cookies: {} })
    for (const side of sides) expect(typesOf(logs[side.name].errors)).toEqual([type])
  })

  it.each(errorKind)("kind error, client-safe: %s → %s", async (type, location) => {
    const { duo } = throwing(type)
    expect((await expectSameWire(await duo.post("/callback/credentials", { username: "ada" }))).location).toBe(location)
  })

  it.each(notClientSafe)("not client-safe: %s → %s", async (type, location) => {
    const { duo, logs } = throwing(type)
    expect((await expectSameWire(await duo.post("/callback/credentials", { username: "ada" }))).location).toBe(location)
    for (const side of sides) expect(typesOf(logs[side.name].errors)).toEqual([type])
  })

  it("with pages set, the same rule picks pages.signIn or pages.error, prefixed with the origin", async () => {
    const pages = { signIn: "/login", error: "/oops" }
    const cases: [ErrorName, string][] = [
      ["OAuthAccountNotLinked", "https://app.test/login?error=OAuthAccountNotLinked"],
      ["AccessDenied", "https://app.test/oops?error=AccessDenied"],
      ["AdapterError", "https://app.test/oops?error=Configuration"],
      ["OAuthSignInError", "https://app.test/login?error=Configuration"],
    ]
    for (const [type, location] of cases) {
      const { duo } = throwing(type, pages)
      expect((await expectSameWire(await duo.post("/callback/credentials", { username: "ada" }))).location, type).toBe(location)
    }
  })

  it("authflow differs: an absolute pages.signIn is honoured (Auth.js prefixes it with the origin)", async () => {
    const { duo } = throwing("CredentialsSignin", { signIn: "https://login.test/" })
    const { authflow, authjs } = await duo.post("/callback/credentials", { username: "ada" })
    expect(authflow.headers.get("location")).toBe("https://login.test/?error=CredentialsSignin&code=credentials")
    expect(authjs.headers.get("location")).toMatch(/^https:\/\/app\.testhttps/)
  })

  it("authflow differs: a page that has a query gets & (Auth.js appends a second ?)", async () => {
    const { duo } = throwing("AccessDenied", { error: "/oops?from=auth" })
    const { authflow, authjs } = await duo.post("/callback/credentials", { username: "ada" })
    expect(authflow.headers.get("location")).toBe("https://app.test/oops?from=auth&error=AccessDenied")
    expect(authjs.headers.get("location")).toBe("https://app.test/oops?from=auth?error=AccessDenied")
  })

  it("with X-Auth-Return-Redirect every one of them is 200 {url}", async () => {
    for (const [type, location] of [...signInKind, ...errorKind, ...notClientSafe]) {
      const { duo } = throwing(type)
      const wire = await expectSameWire(await duo.post("/callback/credentials", { username: "ada" }, { headers: { "X-Auth-Return-Redirect": "1" } }))
      expect(wire.body, type).toEqual({ url: location })
    }
  })

  it("over http and under another basePath the URL follows the request origin and basePath", async () => {
    const logs = { authflow: recorder(), authjs: recorder() }
    const duo = new Duo((side) => credentialsConfig(side, { basePath: "/api/auth", logger: logs[side.name].logger }, () => null), "http://localhost:3000", "/api/auth")
    const wire = await expectSameWire(await duo.post("/callback/credentials", { username: "x" }))
    expect(wire.location).toBe("http://localhost:3000/api/auth/signin?error=CredentialsSignin&code=credentials")
  })
})
