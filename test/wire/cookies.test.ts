import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { Duo, HTTP, HTTPS, SECRET, authflow, authjs, cookieNamed, credentialsConfig, expectSameWire, recorder, setCookies, sides, type Side } from "./harness.js"
import type { AuthConfig } from "../../src/types.js"
import { CookieJar, buildRequest } from "../helpers.js"

function quiet(side: Side, extra: Partial<AuthConfig> = {}): AuthConfig {
  return credentialsConfig(side, { logger: { error() {}, warn() {}, debug() {} }, ...extra })
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

describe("cookie names and attributes by scheme", () => {
  it("over http: plain names, no Secure", async () => {
    const duo = new Duo((side) => quiet(side), HTTP)
    const page = await expectSameWire(await duo.send("/signin"))
    expect(page.cookies).toEqual({
      "authjs.csrf-token": { value: "<csrf-token>|<sha256>", attributes: { path: "/", httponly: true, samesite: "Lax" } },
      "authjs.callback-url": { value: "http://app.test", attributes: { path: "/", httponly: true, samesite: "Lax" } },
    })
    const signIn = await expectSameWire(await duo.post("/callback/credentials", { username: "ada" }))
    expect(Object.keys(signIn.cookies)).toEqual(["authjs.session-token"])
    expect(signIn.cookies["authjs.session-token"]).toEqual({
      value: "<jwe>",
      attributes: { path: "/", expires: "43200 min", httponly: true, samesite: "Lax" },
    })
  })

  it("over https: __Secure- names, __Host- for CSRF, Secure set", async () => {
    const duo = new Duo((side) => quiet(side), HTTPS)
    const page = await expectSameWire(await duo.send("/signin"))
    expect(Object.keys(page.cookies).sort()).toEqual(["__Host-authjs.csrf-token", "__Secure-authjs.callback-url"])
    for (const cookie of Object.values(page.cookies)) expect(cookie).toMatchObject({ attributes: { secure: true } })
    const signIn = await expectSameWire(await duo.post("/callback/credentials", { username: "ada" }))
    expect(signIn.cookies["__Secure-authjs.session-token"]).toMatchObject({ attributes: { secure: true, httponly: true, samesite: "Lax" } })
  })

  it("useSecureCookies: true over http gives the prefixed, Secure cookies", async () => {
    const duo = new Duo((side) => quiet(side, { useSecureCookies: true }), HTTP)
    const page = await expectSameWire(await duo.send("/csrf"))
    expect(page.cookies["__Host-authjs.csrf-token"]).toMatchObject({ attributes: { secure: true } })
    expect(page.cookies["__Secure-authjs.callback-url"]).toMatchObject({ value: "http://app.test" })
  })

  it("useSecureCookies: false over https gives plain names without Secure", async () => {
    const duo = new Duo((side) => quiet(side, { useSecureCookies: false }), HTTPS)
    const page = await expectSameWire(await duo.send("/csrf"))
    expect(Object.keys(page.cookies).sort()).toEqual(["authjs.callback-url", "authjs.csrf-token"])
    expect(page.cookies["authjs.csrf-token"]).toEqual({ value: "<csrf-token>|<sha256>", attributes: { path: "/", httponly: true, samesite: "Lax" } })
  })

  it("the session of a useSecureCookies: false deployment is read under the plain name (and salt)", async () => {
    const duo = new Duo((side) => quiet(side, { useSecureCookies: false }), HTTPS)
    await duo.post("/callback/credentials", { username: "ada" })
    const session = await expectSameWire(await duo.send("/session"))
    expect(session.body).toMatchObject({ user: { name: "Ada" } })
    expect(Object.keys(session.cookies)).toEqual(["authjs.session-token"])
  })
})

describe("the cookies option", () => {
  it("overrides one option of one cookie and keeps the others", async () => {
    const cookies = { sessionToken: { options: { domain: "app.test" } }, csrfToken: { options: { sameSite: "strict" as const } } }
    const duo = new Duo((side) => quiet(side, { cookies: cookies as AuthConfig["cookies"] }))
    const page = await expectSameWire(await duo.send("/csrf"))
    expect(page.cookies["__Host-authjs.csrf-token"]).toEqual({
      value: "<csrf-token>|<sha256>",
      attributes: { path: "/", httponly: true, secure: true, samesite: "Strict" },
    })
    const signIn = await expectSameWire(await duo.post("/callback/credentials", { username: "ada" }))
    expect(signIn.cookies["__Secure-authjs.session-token"]).toEqual({
      value: "<jwe>",
      attributes: { domain: "app.test", path: "/", expires: "43200 min", httponly: true, secure: true, samesite: "Lax" },
    })
  })

  it("renames a cookie and keeps its default options; the session is read and written under the new name", async () => {
    const cookies = { sessionToken: { name: "app.session" }, callbackUrl: { name: "app.callback" }, csrfToken: { name: "app.csrf" } }
    const duo = new Duo((side) => quiet(side, { cookies: cookies as AuthConfig["cookies"] }))
    const page = await expectSameWire(await duo.send("/csrf"))
    expect(Object.keys(page.cookies).sort()).toEqual(["app.callback", "app.csrf"])
    expect(page.cookies["app.csrf"]).toMatchObject({ attributes: { path: "/", httponly: true, secure: true, samesite: "Lax" } })
    const signIn = await expectSameWire(await duo.post("/callback/credentials", { username: "ada" }))
    expect(Object.keys(signIn.cookies)).toEqual(["app.session"])
    const session = await expectSameWire(await duo.send("/session"))
    expect(session.body).toMatchObject({ user: { name: "Ada" } })
  })

  it("a renamed session cookie is also the JWE salt: a token written by one side reads on the other", async () => {
    const cookies = { sessionToken: { name: "app.session" } } as AuthConfig["cookies"]
    const duo = new Duo((side) => quiet(side, { cookies }))
    await duo.sendTo(authjs, "/callback/credentials", { form: { csrfToken: await csrfOf(duo, authjs), username: "ada" } })
    const token = duo.jars.authjs.get("app.session")!
    const response = await duo.sendTo(authflow, "/session", { cookie: `app.session=${token}`, noJar: true })
    expect(await response.json()).toMatchObject({ user: { name: "Ada", email: "ada@example.test" } })
  })

  it("the renamed callback-url cookie is the one the config assertion checks", async () => {
    const cookies = { callbackUrl: { name: "app.callback" } } as AuthConfig["cookies"]
    const duo = new Duo((side) => quiet(side, { cookies }))
    // Both refuse it (authflow differs in answering 400 where Auth.js answers 500: see config.test.ts).
    const bad = await duo.send("/session", { cookie: "app.callback=javascript:alert(1)" })
    expect([bad.authflow.status, bad.authjs.status]).toEqual([400, 500])
    const ignored = await expectSameWire(await duo.send("/session", { cookie: "__Secure-authjs.callback-url=javascript:alert(1)" }))
    expect(ignored.status).toBe(200)
  })
})

async function csrfOf(duo: Duo, side: Side): Promise<string> {
  const response = await duo.sendTo(side, "/csrf")
  return ((await response.json()) as { csrfToken: string }).csrfToken
}

describe("the callback-url cookie", () => {
  it("the first visit stores the origin; the next visit does not set it again", async () => {
    const duo = new Duo((side) => quiet(side))
    const first = await expectSameWire(await duo.send("/session"))
    expect(first.cookies["__Secure-authjs.callback-url"]).toMatchObject({ value: "https://app.test" })
    for (const path of ["/session", "/csrf", "/signin"]) {
      const next = await expectSameWire(await duo.send(path))
      expect(Object.keys(next.cookies)).not.toContain("__Secure-authjs.callback-url")
    }
  })

  it("?callbackUrl=/path stores the absolute URL; it is then used without the parameter", async () => {
    const duo = new Duo((side) => quiet(side))
    const first = await expectSameWire(await duo.send("/signin?callbackUrl=%2Fdashboard%3Ftab%3D1"))
    expect(first.cookies["__Secure-authjs.callback-url"]).toMatchObject({ value: "https://app.test/dashboard?tab=1" })
    const signIn = await expectSameWire(await duo.post("/callback/credentials", { username: "ada" }))
    expect(signIn.location).toBe("https://app.test/dashboard?tab=1")
    expect(Object.keys(signIn.cookies)).not.toContain("__Secure-authjs.callback-url")
  })

  it("a body callbackUrl wins over the query one", async () => {
    const duo = new Duo((side) => quiet(side))
    const wire = await expectSameWire(await duo.post("/callback/credentials?callbackUrl=%2Fquery", { username: "ada", callbackUrl: "/body" }))
    expect(wire.location).toBe("https://app.test/body")
    expect(wire.cookies["__Secure-authjs.callback-url"]).toMatchObject({ value: "https://app.test/body" })
  })

  it("an off-site callbackUrl is replaced by the origin", async () => {
    const duo = new Duo((side) => quiet(side))
    const wire = await expectSameWire(await duo.send("/signin?callbackUrl=https%3A%2F%2Fevil.test%2Fsteal"))
    expect(wire.cookies["__Secure-authjs.callback-url"]).toMatchObject({ value: "https://app.test" })
  })

  it("an off-site value in the cookie is replaced by the origin", async () => {
    const duo = new Duo((side) => quiet(side))
    const wire = await expectSameWire(await duo.send("/session", { cookie: "__Secure-authjs.callback-url=https%3A%2F%2Fevil.test" }))
    expect(wire.cookies["__Secure-authjs.callback-url"]).toMatchObject({ value: "https://app.test" })
  })

  it("GET /providers sets no cookie even with a callbackUrl", async () => {
    const duo = new Duo((side) => quiet(side))
    const wire = await expectSameWire(await duo.send("/providers?callbackUrl=%2Fx"))
    expect(wire.cookies).toEqual({})
  })

  it("a custom redirect callback decides the stored value", async () => {
    const duo = new Duo((side) => quiet(side, { callbacks: { redirect: ({ url, baseUrl }) => `${baseUrl}/via?to=${encodeURIComponent(url)}` } }))
    const wire = await expectSameWire(await duo.send("/signin?callbackUrl=%2Fx"))
    expect(wire.cookies["__Secure-authjs.callback-url"]).toMatchObject({ value: "https://app.test/via?to=%2Fx" })
  })

  it("authflow differs: the default redirect normalises a same-origin URL (Auth.js keeps it as given)", async () => {
    const duo = new Duo((side) => quiet(side))
    const { authflow: ours, authjs: theirs } = await duo.send("/signin?callbackUrl=%2Fa%2F..%2Fb")
    expect(cookieNamed(ours, "__Secure-authjs.callback-url")?.value).toBe("https://app.test/b")
    expect(cookieNamed(theirs, "__Secure-authjs.callback-url")?.value).toBe("https://app.test/a/../b")
  })
})

describe("the CSRF cookie", () => {
  it("is token|sha256(token + secret) and the token is what GET /csrf answers", async () => {
    const duo = new Duo((side) => quiet(side))
    const pair = await duo.send("/csrf")
    for (const side of sides) {
      const response = pair[side.name]
      const { csrfToken } = (await response.clone().json()) as { csrfToken: string }
      const value = cookieNamed(response, "__Host-authjs.csrf-token")!.value
      expect(value).toBe(`${csrfToken}|${sha256(csrfToken + SECRET)}`)
    }
    expect(pair.authflow.headers.getSetCookie().find((h) => h.startsWith("__Host-"))).toMatch(/^__Host-authjs\.csrf-token=[0-9a-f]{64}%7C[0-9a-f]{64};/)
  })

  it("with a secret array the hash uses the secrets comma-joined", async () => {
    const secret = ["new-secret", "old-secret"]
    const duo = new Duo((side) => quiet(side, { secret }))
    const pair = await duo.send("/csrf")
    for (const side of sides) {
      const response = pair[side.name]
      const { csrfToken } = (await response.clone().json()) as { csrfToken: string }
      expect(cookieNamed(response, "__Host-authjs.csrf-token")!.value).toBe(`${csrfToken}|${sha256(`${csrfToken}new-secret,old-secret`)}`)
    }
  })

  it("a valid cookie is reused: same token, no new cookie", async () => {
    const duo = new Duo((side) => quiet(side))
    const first = await duo.csrf()
    const again = await expectSameWire(await duo.send("/csrf"))
    expect(again.cookies).toEqual({})
    const second = await duo.csrf()
    expect(second).toEqual(first)
  })

  it("a cookie with a wrong hash is replaced by a new token", async () => {
    const duo = new Duo((side) => quiet(side))
    const forged = `${"a".repeat(64)}|${"b".repeat(64)}`
    const wire = await expectSameWire(await duo.send("/csrf", { cookie: `__Host-authjs.csrf-token=${encodeURIComponent(forged)}` }))
    expect(wire.cookies["__Host-authjs.csrf-token"]).toMatchObject({ value: "<csrf-token>|<sha256>" })
    expect(wire.body).toEqual({ csrfToken: "<hex64>" })
  })

  it("a cookie minted by one side is accepted by the other (same secret)", async () => {
    for (const [minter, checker] of [[authflow, authjs], [authjs, authflow]] as const) {
      const jar = new CookieJar()
      const config = (side: Side) => quiet(side)
      const csrf = (await minter.Auth(new Request(`${HTTPS}/auth/csrf`), config(minter))) as Response
      jar.take(csrf)
      const { csrfToken } = (await csrf.json()) as { csrfToken: string }
      const response = (await checker.Auth(buildRequest(`${HTTPS}/auth/signin`, { form: { csrfToken } }, jar), config(checker))) as Response
      expect(response.headers.get("location"), `${minter.name} → ${checker.name}`).toBe("https://app.test/auth/signin")
      expect(setCookies(response).map((c) => c.name)).not.toContain("__Host-authjs.csrf-token")
    }
  })

  it("a token that does not match the cookie fails the check", async () => {
    const duo = new Duo((side) => quiet(side))
    await duo.csrf()
    const wire = await expectSameWire(await duo.send("/signin", { form: { csrfToken: "0".repeat(64) } }))
    expect(wire.location).toBe("https://app.test/auth/signin?error=MissingCSRF")
  })

  it("the token in a JSON body counts as well", async () => {
    const duo = new Duo((side) => quiet(side))
    const tokens = await duo.csrf()
    const wire = await expectSameWire(await duo.send("/signin", (side) => ({ json: { csrfToken: tokens[side.name] } })))
    expect(wire.location).toBe("https://app.test/auth/signin")
  })

  it("a token in the query does not count", async () => {
    const duo = new Duo((side) => quiet(side))
    const tokens = await duo.csrf()
    const post = (side: Side) => duo.sendTo(side, `/signin?csrfToken=${tokens[side.name]}`, { form: {} })
    const wire = await expectSameWire({ authflow: await post(authflow), authjs: await post(authjs) })
    expect(wire.location).toBe("https://app.test/auth/signin?error=MissingCSRF")
  })
})

describe("logging of cookie-related warnings", () => {
  it("no warnings for an ordinary configuration", async () => {
    const logs = { authflow: recorder(), authjs: recorder() }
    const duo = new Duo((side) => credentialsConfig(side, { logger: logs[side.name].logger }))
    await duo.send("/csrf")
    expect(logs.authflow.warnings).toEqual([])
    expect(logs.authjs.warnings).toEqual([])
  })
})
