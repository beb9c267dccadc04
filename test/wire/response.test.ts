import { describe, expect, it } from "vitest"
import {
  Duo,
  HTTPS,
  SECRET,
  authflow,
  authjs,
  credentialsConfig,
  expectSameWire,
  recorder,
  sessionCookieName,
  sides,
  typesOf,
  wire,
  type RequestInit,
  type Side,
} from "./harness.js"
import { buildRequest, cookieNames } from "../helpers.js"
import type { AuthConfig, Cookie, ResponseInternal } from "../../src/types.js"

const returnRedirect = { "X-Auth-Return-Redirect": "1" }

function quiet(side: Side, extra: Partial<AuthConfig> = {}): AuthConfig {
  return credentialsConfig(side, { logger: { error() {}, warn() {}, debug() {} }, ...extra })
}

describe("X-Auth-Return-Redirect", () => {
  it("a successful sign-in answers 200 {url}, keeping Set-Cookie and even the Location header", async () => {
    const duo = new Duo((side) => quiet(side))
    const tokens = await duo.csrf()
    const wire = await expectSameWire(
      await duo.send("/callback/credentials", (side) => ({
        headers: returnRedirect,
        form: { csrfToken: tokens[side.name], username: "ada", password: "pw", callbackUrl: "/dashboard" },
      })),
    )
    expect(wire.status).toBe(200)
    expect(wire.contentType).toBe("application/json")
    expect(wire.body).toEqual({ url: "https://app.test/dashboard" })
    expect(wire.location).toBe("https://app.test/dashboard")
    expect(Object.keys(wire.cookies).sort()).toEqual([cookieNames.https.callbackUrl, cookieNames.https.sessionToken])
  })

  it("any value of the header switches to JSON, even an empty one", async () => {
    const duo = new Duo((side) => quiet(side))
    const wire = await expectSameWire(await duo.post("/signin", {}, { headers: { "X-Auth-Return-Redirect": "" } }))
    expect(wire).toMatchObject({ status: 200, body: { url: "https://app.test/auth/signin" } })
  })

  it("an error answers 200 {url} with the error URL and no cookies", async () => {
    const duo = new Duo((side) => quiet(side))
    const tokens = await duo.csrf()
    const wire = await expectSameWire(
      await duo.send("/callback/credentials", (side) => ({
        headers: returnRedirect,
        form: { csrfToken: tokens[side.name], username: "nobody" },
      })),
    )
    expect(wire).toMatchObject({
      status: 200,
      location: null,
      body: { url: "https://app.test/auth/signin?error=CredentialsSignin&code=credentials" },
      cookies: {},
    })
  })

  it("a Configuration error in dispatch answers 200 {url: …/error?error=Configuration}", async () => {
    const duo = new Duo((side) => quiet(side))
    const wire = await expectSameWire(await duo.send("/signin/credentials", { headers: returnRedirect }))
    expect(wire.body).toEqual({ url: "https://app.test/auth/error?error=Configuration" })
  })

  it("a redirect to a relative custom page is answered as {url} too", async () => {
    const duo = new Duo((side) => quiet(side, { pages: { signIn: "/login", signOut: "/bye" } }))
    const signIn = await expectSameWire(await duo.send("/signin", { headers: returnRedirect }))
    expect(signIn).toMatchObject({ status: 200, body: { url: "/login?callbackUrl=https%3A%2F%2Fapp.test" }, location: "/login?callbackUrl=https%3A%2F%2Fapp.test" })
    const signOut = await expectSameWire(await duo.send("/signout", { headers: returnRedirect }))
    expect(signOut.body).toEqual({ url: "/bye" })
  })

  it("an answer that is not a redirect is left as it is", async () => {
    const duo = new Duo((side) => quiet(side))
    const wire = await expectSameWire(await duo.send("/session", { headers: returnRedirect }))
    expect(wire).toMatchObject({ status: 200, body: null, cacheControl: "private, no-cache, no-store" })
  })

  it("a configuration error is not turned into {url}: still 500 JSON {message}", async () => {
    const duo = new Duo((side) => quiet(side, { secret: undefined }))
    const wire = await expectSameWire(await duo.send("/signin", { method: "POST", form: {}, headers: returnRedirect }))
    expect(wire.status).toBe(500)
    expect(wire.body).toEqual({ message: "There was a problem with the server configuration. Check the server logs for more information." })
  })

  it("POST /session without CSRF is still 400 null with the header", async () => {
    const duo = new Duo((side) => quiet(side))
    const wire = await expectSameWire(await duo.send("/session", { json: { data: {} }, headers: returnRedirect }))
    expect(wire).toMatchObject({ status: 400, body: null })
  })

  it("v4's json=true body field is not honoured: still a 302", async () => {
    const duo = new Duo((side) => quiet(side))
    const wire = await expectSameWire(await duo.post("/signin", { json: "true" }))
    expect(wire.status).toBe(302)
  })
})

/** Runs `Auth` in raw mode for one side, with the same request shape. */
async function rawCall(side: Side, config: AuthConfig, url: string, init: RequestInit = {}) {
  return side.Auth(buildRequest(url, init), { ...config, raw: side.raw })
}

function cookieSummary(cookies: Cookie[] | undefined) {
  return (cookies ?? [])
    .map(({ name, value, options }) => {
      const { expires, ...rest } = options as Record<string, unknown>
      return { name, empty: value === "", expires: expires instanceof Date, options: rest }
    })
    .sort((a, b) => a.name.localeCompare(b.name))
}

describe("raw mode", () => {
  it("returns the internal shape of a JSON answer (status defaulting to 200)", async () => {
    const [ours, theirs] = (await Promise.all(
      sides.map((side) => rawCall(side, quiet(side), `${HTTPS}/auth/session`)),
    )) as ResponseInternal[]
    for (const internal of [ours!, theirs!]) expect(internal).not.toBeInstanceOf(Response)
    expect(ours!.status ?? 200).toBe(theirs!.status ?? 200)
    expect(ours!.body).toEqual(theirs!.body)
    expect(ours!.headers).toEqual(theirs!.headers)
    expect(ours!.redirect).toBeUndefined()
    expect(cookieSummary(ours!.cookies)).toEqual(cookieSummary(theirs!.cookies))
    expect(cookieSummary(ours!.cookies).map((c) => c.name)).toEqual([cookieNames.https.csrfToken, cookieNames.https.callbackUrl])
  })

  it("returns {redirect, cookies} for a successful credentials sign-in (with skipCSRFCheck, as framework actions call it)", async () => {
    const [ours, theirs] = (await Promise.all(
      sides.map((side) =>
        rawCall(side, quiet(side, { skipCSRFCheck: side.skipCSRFCheck }), `${HTTPS}/auth/callback/credentials`, {
          form: { username: "ada", callbackUrl: "/home" },
        }),
      ),
    )) as ResponseInternal[]
    expect(ours!.redirect).toBe("https://app.test/home")
    expect(theirs!.redirect).toBe(ours!.redirect)
    expect(cookieSummary(ours!.cookies)).toEqual(cookieSummary(theirs!.cookies))
    expect(cookieSummary(ours!.cookies).find((c) => c.name === sessionCookieName())).toMatchObject({ empty: false, expires: true })
  })

  it("rethrows AuthErrors when the header is absent: CredentialsSignin with its code, MissingCSRF", async () => {
    for (const side of sides) {
      const signIn = rawCall(side, quiet(side, { skipCSRFCheck: side.skipCSRFCheck }), `${HTTPS}/auth/callback/credentials`, {
        form: { username: "nobody" },
      })
      await expect(signIn).rejects.toBeInstanceOf(side.errors.CredentialsSignin)
      await expect(signIn).rejects.toMatchObject({ type: "CredentialsSignin", code: "credentials", kind: "signIn" })

      const noCsrf = rawCall(side, quiet(side), `${HTTPS}/auth/signout`, { form: {} })
      await expect(noCsrf).rejects.toMatchObject({ type: "MissingCSRF", kind: "signIn" })

      const session = rawCall(side, quiet(side), `${HTTPS}/auth/session`, { json: { data: 1 } })
      await expect(session).rejects.toMatchObject({ type: "MissingCSRF" })
    }
  })

  it("rethrows a Configuration-kind AuthError too (UnknownAction for GET /signin/<id>)", async () => {
    for (const side of sides) {
      await expect(rawCall(side, quiet(side), `${HTTPS}/auth/signin/credentials`)).rejects.toMatchObject({ type: "UnknownAction" })
    }
  })

  it("authflow differs: in raw mode a non-AuthError gives {redirect} where Auth.js answers a Response", async () => {
    // An unknown provider id is a plain Error on both sides.
    const ours = (await rawCall(authflow, quiet(authflow), `${HTTPS}/auth/signin/nope`)) as ResponseInternal
    expect(ours).toEqual({ redirect: "https://app.test/auth/error?error=Configuration" })
    const theirs = (await rawCall(authjs, quiet(authjs), `${HTTPS}/auth/signin/nope`)) as Response
    expect(theirs).toBeInstanceOf(Response)
    expect(theirs.headers.get("location")).toBe(ours.redirect)
  })

  it("authflow differs: in raw mode with the header an AuthError gives {redirect} where Auth.js answers a JSON Response", async () => {
    const init = { form: { username: "nobody" }, headers: returnRedirect }
    const ours = (await rawCall(authflow, quiet(authflow, { skipCSRFCheck: authflow.skipCSRFCheck }), `${HTTPS}/auth/callback/credentials`, init)) as ResponseInternal
    expect(ours).toEqual({ redirect: "https://app.test/auth/signin?error=CredentialsSignin&code=credentials" })
    const theirs = (await rawCall(authjs, quiet(authjs, { skipCSRFCheck: authjs.skipCSRFCheck }), `${HTTPS}/auth/callback/credentials`, init)) as Response
    expect(await theirs.json()).toEqual({ url: ours.redirect })
  })

  it("POST /session with a CSRF failure and the header: both answer a 400 null Response even in raw mode", async () => {
    for (const side of sides) {
      const response = (await rawCall(side, quiet(side), `${HTTPS}/auth/session`, { json: {}, headers: returnRedirect })) as Response
      expect(response).toBeInstanceOf(Response)
      expect(response.status).toBe(400)
      expect(await response.json()).toBeNull()
    }
  })

  it("authflow differs: in raw mode configuration errors come back in the internal shape (Auth.js answers a Response)", async () => {
    for (const side of sides) {
      const answer = await rawCall(side, quiet(side, { trustHost: false }), `${HTTPS}/auth/session`)
      if (side.name === "authjs") {
        expect(answer).toBeInstanceOf(Response)
        expect((answer as Response).status).toBe(500)
      } else {
        expect(answer).not.toBeInstanceOf(Response)
        expect(answer).toMatchObject({ status: 500, body: { message: expect.stringContaining("server configuration") } })
      }
    }
  })
})

describe("skipCSRFCheck", () => {
  function skipping() {
    const logs = { authflow: recorder(), authjs: recorder() }
    const duo = new Duo((side) => credentialsConfig(side, { skipCSRFCheck: side.skipCSRFCheck, logger: logs[side.name].logger }))
    return { duo, logs }
  }

  it("GET /csrf → 404 with an empty body, the CSRF cookie cleared, warning csrf-disabled", async () => {
    const { duo, logs } = skipping()
    const wire = await expectSameWire(await duo.send("/csrf", { cookie: `${cookieNames.https.csrfToken}=old` }))
    expect(wire.status).toBe(404)
    expect(wire.body).toBe("")
    expect(wire.cookies[cookieNames.https.csrfToken]).toEqual({
      value: "",
      attributes: { "max-age": "0", path: "/", httponly: true, secure: true, samesite: "Lax" },
    })
    expect(logs.authflow.warnings).toEqual(["csrf-disabled"])
    expect(logs.authjs.warnings).toEqual(["csrf-disabled"])
  })

  it("no CSRF cookie is minted on other requests", async () => {
    const { duo } = skipping()
    for (const path of ["/session", "/signin", "/signout"]) {
      const wire = await expectSameWire(await duo.send(path))
      expect(Object.keys(wire.cookies)).not.toContain(cookieNames.https.csrfToken)
    }
  })

  it("POSTs are accepted without a token: credentials sign-in, session update, sign-out", async () => {
    const { duo } = skipping()
    const signIn = await expectSameWire(await duo.send("/callback/credentials", { form: { username: "ada" } }))
    expect(signIn.location).toBe("https://app.test")
    expect(signIn.cookies[sessionCookieName()]).toMatchObject({ value: "<jwe>" })

    const update = await expectSameWire(await duo.send("/session", { json: { data: { name: "x" } } }))
    expect(update.status).toBe(200)
    expect(update.body).toMatchObject({ user: { name: "Ada", email: "ada@example.test" } })

    const signOut = await expectSameWire(await duo.send("/signout", { form: {} }))
    expect(signOut.cookies[sessionCookieName()]).toMatchObject({ value: "" })
  })
})

describe("what the logger sees on the error path", () => {
  it("the full error reaches logger.error before the redirect", async () => {
    const logs = { authflow: recorder(), authjs: recorder() }
    const duo = new Duo((side) => credentialsConfig(side, { logger: logs[side.name].logger }, () => Promise.reject(new TypeError("boom"))))
    await expectSameWire(await duo.post("/callback/credentials", { username: "ada" }))
    for (const side of sides) {
      expect(typesOf(logs[side.name].errors)).toEqual(["CallbackRouteError"])
      const cause = logs[side.name].errors[0]!.cause as { err?: Error; provider?: string }
      expect(cause.err).toBeInstanceOf(TypeError)
      expect(cause.err!.message).toBe("boom")
      expect(cause.provider).toBe("credentials")
    }
  })

  it("uses the secret only server-side: nothing of it is in any answer", async () => {
    const duo = new Duo((side) => quiet(side))
    const answers = [await duo.send("/csrf"), await duo.send("/session"), await duo.post("/callback/credentials", { username: "ada" })]
    for (const pair of answers) {
      for (const response of [pair.authflow, pair.authjs]) {
        const view = JSON.stringify(await wire(response)) + (await response.clone().text())
        expect(view).not.toContain(SECRET)
      }
    }
  })
})
