import { describe, expect, it } from "vitest"
import { Duo, authflow, authjs, credentialsConfig, expectSameWire, recorder, typesOf, type RequestInit, type Side } from "./harness.js"
import type { AuthConfig } from "../../src/types.js"
import { cookieNames } from "../helpers.js"

/** A quiet credentials setup whose logger records, one recorder per side. */
function quietDuo(extra: Partial<AuthConfig> = {}, origin?: string, basePath?: string) {
  const logs = { authflow: recorder(), authjs: recorder() }
  const duo = new Duo((side: Side) => credentialsConfig(side, { logger: logs[side.name].logger, ...extra }), origin, basePath)
  return { duo, logs }
}

const configurationRedirect = "https://app.test/auth/error?error=Configuration"

describe("routing: the dispatch table, side by side", () => {
  const rows: [method: NonNullable<RequestInit["method"]>, path: string, status: number, location?: string][] = [
    ["GET", "/providers", 200],
    ["GET", "/session", 200],
    ["GET", "/csrf", 200],
    ["GET", "/signin", 200],
    ["GET", "/signout", 200],
    ["GET", "/error", 200],
    ["GET", "/verify-request", 200],
    // A valid action with a method it does not serve is not client-safe: Configuration.
    ["GET", "/signin/credentials", 302, configurationRedirect],
    ["GET", "/callback/credentials", 302, configurationRedirect],
    ["GET", "/webauthn-options/credentials", 302, configurationRedirect],
    ["POST", "/providers", 302, configurationRedirect],
    ["POST", "/csrf", 302, configurationRedirect],
    ["POST", "/error", 302, configurationRedirect],
    ["POST", "/verify-request", 302, configurationRedirect],
    ["POST", "/webauthn-options/credentials", 302, configurationRedirect],
    // CSRF-protected POSTs without a token.
    ["POST", "/signin", 302, "https://app.test/auth/signin?error=MissingCSRF"],
    ["POST", "/signin/credentials", 302, "https://app.test/auth/signin?error=MissingCSRF"],
    ["POST", "/signout", 302, "https://app.test/auth/signin?error=MissingCSRF"],
    ["POST", "/callback/credentials", 302, "https://app.test/auth/signin?error=MissingCSRF"],
    ["POST", "/session", 400],
  ]

  it.each(rows)("%s %s → %i", async (method, path, status, location) => {
    const { duo } = quietDuo()
    const wire = await expectSameWire(await duo.send(path, { method }))
    expect(wire.status).toBe(status)
    expect(wire.location).toBe(location ?? null)
  })

  it("GET /providers lists every provider with its URLs and sets no cookie", async () => {
    const { duo } = quietDuo()
    const wire = await expectSameWire(await duo.send("/providers"))
    expect(wire.cookies).toEqual({})
    expect(wire.body).toEqual({
      credentials: {
        id: "credentials",
        name: "Credentials",
        type: "credentials",
        signinUrl: "https://app.test/auth/signin/credentials",
        callbackUrl: "https://app.test/auth/callback/credentials",
      },
    })
  })

  it("GET /session and GET /csrf carry the three no-cache headers; GET /providers does not", async () => {
    const { duo } = quietDuo()
    for (const path of ["/session", "/csrf"]) {
      const wire = await expectSameWire(await duo.send(path))
      expect([wire.cacheControl, wire.expires, wire.pragma]).toEqual(["private, no-cache, no-store", "0", "no-cache"])
    }
    const providers = await expectSameWire(await duo.send("/providers"))
    expect([providers.cacheControl, providers.expires, providers.pragma]).toEqual([null, null, null])
  })

  it("POST /signin with a valid CSRF token, with or without a credentials provider segment → 302 to the sign-in page", async () => {
    const { duo } = quietDuo()
    for (const path of ["/signin", "/signin/credentials"]) {
      const wire = await expectSameWire(await duo.post(path))
      expect(wire.location).toBe("https://app.test/auth/signin")
    }
  })

  it("GET /signin/<known provider> logs UnknownAction and redirects to Configuration", async () => {
    const { duo, logs } = quietDuo()
    await expectSameWire(await duo.send("/signin/credentials"))
    expect(typesOf(logs.authflow.errors)).toEqual(["UnknownAction"])
    expect(typesOf(logs.authjs.errors)).toEqual(typesOf(logs.authflow.errors))
  })

  it.each(["/signin/nope", "/callback/nope", "/webauthn-options/nope"])("unknown provider id: GET %s → Configuration", async (path) => {
    const { duo, logs } = quietDuo()
    const wire = await expectSameWire(await duo.send(path))
    expect(wire.location).toBe(configurationRedirect)
    expect(logs.authflow.errors[0]?.message).toMatch(/Provider with id "nope" not found. Available providers: \[.*credentials.*\]/)
    expect(logs.authjs.errors[0]?.message).toMatch(/Provider with id "nope" not found/)
  })

  it("unknown provider id on POST /callback → Configuration (before any CSRF check)", async () => {
    const { duo } = quietDuo()
    const wire = await expectSameWire(await duo.post("/callback/nope", { username: "ada" }))
    expect(wire.location).toBe(configurationRedirect)
  })

  it('the provider id "undefined" means no provider', async () => {
    const { duo } = quietDuo()
    const page = await expectSameWire(await duo.send("/signin/undefined"))
    expect(page.status).toBe(200)
    expect(page.body).toBe("<html>")
    const post = await expectSameWire(await duo.post("/signin/undefined"))
    expect(post.location).toBe("https://app.test/auth/signin")
  })
})

describe("routing: 400 Bad request.", () => {
  const badPaths = [
    "",
    "/",
    "//",
    "/nope",
    "/Session",
    "/a/b/c",
    "/signin/credentials/extra",
    // A provider segment is only allowed for signin, callback and webauthn-options.
    "/session/x",
    "/csrf/credentials",
    "/providers/credentials",
    "/signout/credentials",
    "/error/Configuration",
    "/verify-request/email",
  ]

  it.each(badPaths)("GET /auth%s → 400 JSON \"Bad request.\"", async (path) => {
    const { duo, logs } = quietDuo()
    const wire = await expectSameWire(await duo.send(path))
    expect(wire).toMatchObject({ status: 400, contentType: "application/json", body: "Bad request.", cookies: {} })
    expect(typesOf(logs.authflow.errors)).toEqual(["UnknownAction"])
    expect(typesOf(logs.authjs.errors)).toEqual(["UnknownAction"])
  })

  it.each(["/session", "/signin", "/callback/credentials"])("POST with a bad extra segment: POST /auth%s/x/y → 400", async (path) => {
    const { duo } = quietDuo()
    const wire = await expectSameWire(await duo.send(`${path}/x/y`, { method: "POST", form: {} }))
    expect(wire.status).toBe(400)
  })

  it.each(["PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"] as const)("%s /auth/session → 400", async (method) => {
    const { duo } = quietDuo()
    const wire = await expectSameWire(await duo.send("/session", { method }))
    expect(wire.status).toBe(400)
    if (method !== "HEAD") expect(wire.body).toBe("Bad request.")
  })

  it.each(["/session", "/signin", "/signout", "/callback/credentials"])("a JSON body that does not parse: POST /auth%s → 400, the SyntaxError logged", async (path) => {
    const { duo, logs } = quietDuo()
    for (const body of ["{bad", ""]) {
      const send = (side: Side) =>
        side.Auth(new Request(duo.url(path), { method: "POST", headers: { "content-type": "application/json" }, body }), duo.configs[side.name])
      const pair = { authflow: (await send(authflow)) as Response, authjs: (await send(authjs)) as Response }
      const wire = await expectSameWire(pair)
      expect(wire).toMatchObject({ status: 400, body: "Bad request.", cookies: {} })
    }
    for (const side of [authflow, authjs]) expect(logs[side.name].errors.map((error) => error.name)).toEqual(["SyntaxError", "SyntaxError"])
  })

  it("a body of another content type is ignored, not refused", async () => {
    const { duo } = quietDuo()
    for (const contentType of ["text/plain", "multipart/form-data; boundary=x"]) {
      const wire = await expectSameWire(await duo.send("/signin", { method: "POST", headers: { "content-type": contentType } }))
      expect(wire.location).toBe("https://app.test/auth/signin?error=MissingCSRF")
    }
  })

  it("a bad path is answered 400 before the configuration is checked", async () => {
    const { duo, logs } = quietDuo({ trustHost: false, secret: undefined })
    const wire = await expectSameWire(await duo.send("/nope"))
    expect(wire.status).toBe(400)
    for (const side of [authflow, authjs]) expect(typesOf(logs[side.name].errors)).toEqual(["UnknownAction"])
  })

  it("a path outside basePath → 400", async () => {
    const { duo } = quietDuo()
    const wire = await expectSameWire(await duo.send("https://app.test/api/session"))
    expect(wire.status).toBe(400)
  })

  it("with basePath /api/auth, /auth/session is outside it → 400, /api/auth/session is served", async () => {
    const { duo } = quietDuo({ basePath: "/api/auth" }, undefined, "/api/auth")
    expect((await expectSameWire(await duo.send("https://app.test/auth/session"))).status).toBe(400)
    expect((await expectSameWire(await duo.send("/session"))).status).toBe(200)
    const providers = await expectSameWire(await duo.send("/providers"))
    expect(providers.body).toMatchObject({ credentials: { signinUrl: "https://app.test/api/auth/signin/credentials" } })
  })

  it("authflow differs: basePath must end at a segment boundary (Auth.js reads /authsession as /auth/session)", async () => {
    const { duo } = quietDuo()
    const { authflow, authjs } = await duo.send("https://app.test/authsession")
    expect(authflow.status).toBe(400)
    expect(await authflow.json()).toBe("Bad request.")
    expect(authjs.status).toBe(200)
  })
})

describe("routing: trailing slashes", () => {
  it.each(["/session/", "/session///", "/providers/", "/csrf//"])("GET /auth%s is served like the path without them", async (path) => {
    const { duo } = quietDuo()
    const wire = await expectSameWire(await duo.send(path))
    expect(wire.status).toBe(200)
  })

  it("GET /auth/signin/credentials/// is still GET /signin/<provider> → Configuration", async () => {
    const { duo } = quietDuo()
    const wire = await expectSameWire(await duo.send("/signin/credentials///"))
    expect(wire.location).toBe(configurationRedirect)
  })

  it("POST /auth/callback/credentials/ signs in", async () => {
    const { duo } = quietDuo()
    const wire = await expectSameWire(await duo.post("/callback/credentials/", { username: "ada", password: "pw" }))
    expect(wire.status).toBe(302)
    expect(Object.keys(wire.cookies)).toContain(cookieNames.https.sessionToken)
  })
})
