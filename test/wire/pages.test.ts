import { describe, expect, it } from "vitest"
import { Duo, credentialsConfig, expectSameWire, type Side } from "./harness.js"
import type { AuthConfig, PagesOptions } from "../../src/types.js"
import { cookieNames } from "../helpers.js"

function withPages(pages: PagesOptions | undefined, extra: (side: Side) => Partial<AuthConfig> = () => ({})) {
  return new Duo((side) => credentialsConfig(side, { logger: { error() {}, warn() {}, debug() {} }, ...(pages && { pages }), ...extra(side) }))
}

describe("pages.signIn", () => {
  it("GET /signin → 302 to pages.signIn with the callback URL", async () => {
    const duo = withPages({ signIn: "/login" })
    const wire = await expectSameWire(await duo.send("/signin?callbackUrl=%2Fdashboard"))
    expect(wire).toMatchObject({ status: 302, location: "/login?callbackUrl=https%3A%2F%2Fapp.test%2Fdashboard" })
    expect(wire.cookies[cookieNames.https.callbackUrl]).toMatchObject({ value: "https://app.test/dashboard" })
  })

  it("without a callbackUrl the origin is passed", async () => {
    const duo = withPages({ signIn: "/login" })
    expect((await expectSameWire(await duo.send("/signin"))).location).toBe("/login?callbackUrl=https%3A%2F%2Fapp.test")
  })

  it("?error= is passed on after the callback URL", async () => {
    const duo = withPages({ signIn: "/login" })
    const wire = await expectSameWire(await duo.send("/signin?error=CredentialsSignin&callbackUrl=%2Fx"))
    expect(wire.location).toBe("/login?callbackUrl=https%3A%2F%2Fapp.test%2Fx&error=CredentialsSignin")
  })

  it("a page that already has a query gets & instead of ?", async () => {
    const duo = withPages({ signIn: "/login?theme=dark" })
    expect((await expectSameWire(await duo.send("/signin"))).location).toBe("/login?theme=dark&callbackUrl=https%3A%2F%2Fapp.test")
  })

  it("sign-in errors go to <origin><pages.signIn>?error=…", async () => {
    const duo = withPages({ signIn: "/login" }, () => ({}))
    const wire = await expectSameWire(await duo.post("/callback/credentials", { username: "nobody" }))
    expect(wire.location).toBe("https://app.test/login?error=CredentialsSignin&code=credentials")
    const csrf = await expectSameWire(await duo.send("/signout", { form: {} }))
    expect(csrf.location).toBe("https://app.test/login?error=MissingCSRF")
  })

  it("other errors do not use pages.signIn", async () => {
    const duo = withPages({ signIn: "/login" })
    expect((await expectSameWire(await duo.send("/signin/credentials"))).location).toBe("https://app.test/auth/error?error=Configuration")
  })

  it("the built-in page shows the message for ?error=", async () => {
    const duo = withPages(undefined)
    const pair = await duo.send("/signin?error=CredentialsSignin")
    await expectSameWire(pair)
    for (const response of [pair.authflow, pair.authjs]) {
      expect(await response.text()).toContain("Sign in failed. Check the details you provided are correct.")
    }
  })
})

describe("GET /error", () => {
  const statuses: [string, number][] = [
    ["Configuration", 500],
    ["AccessDenied", 403],
    ["Verification", 403],
    ["Default", 200],
    ["SomethingElse", 200],
    ["", 200],
  ]

  it.each(statuses)("?error=%s → %i", async (error, status) => {
    const duo = withPages(undefined)
    const wire = await expectSameWire(await duo.send(`/error?error=${error}`))
    expect(wire).toMatchObject({ status, contentType: "text/html", body: "<html>" })
  })

  it("no ?error= → 200", async () => {
    const duo = withPages(undefined)
    expect((await expectSameWire(await duo.send("/error"))).status).toBe(200)
  })

  it.each(["Configuration", "AccessDenied", "Verification", "Anything"])("with pages.error: ?error=%s → 302 to pages.error?error=…", async (error) => {
    const duo = withPages({ error: "/oops" })
    const wire = await expectSameWire(await duo.send(`/error?error=${error}`))
    expect(wire).toMatchObject({ status: 302, location: `/oops?error=${error}` })
  })

  it("pages.error with a query gets &", async () => {
    const duo = withPages({ error: "/oops?from=auth" })
    expect((await expectSameWire(await duo.send("/error?error=AccessDenied"))).location).toBe("/oops?from=auth&error=AccessDenied")
  })

  it("authflow differs: without ?error= the redirect has no error parameter (Auth.js writes error=undefined)", async () => {
    const duo = withPages({ error: "/oops" })
    const { authflow, authjs } = await duo.send("/error")
    expect(authflow.headers.get("location")).toBe("/oops")
    expect(authjs.headers.get("location")).toBe("/oops?error=undefined")
  })

  it("authflow differs: the error value is URL-encoded in the redirect (Auth.js copies it raw)", async () => {
    const duo = withPages({ error: "/oops" })
    const { authflow, authjs } = await duo.send("/error?error=Bad%20Thing%26more")
    expect(authflow.headers.get("location")).toBe("/oops?error=Bad+Thing%26more")
    expect(authjs.headers.get("location")).toBe("/oops?error=Bad Thing&more")
  })

  it("errors of kind error go to <origin><pages.error>?error=…", async () => {
    const duo = withPages({ error: "/oops" }, () => ({ callbacks: { signIn: () => false } }))
    const wire = await expectSameWire(await duo.post("/callback/credentials", { username: "ada" }))
    expect(wire.location).toBe("https://app.test/oops?error=AccessDenied")
  })
})

describe("content type of the built-in pages", () => {
  it.each(["/signin", "/signout", "/error", "/verify-request"])("authflow differs: GET %s says text/html; charset=utf-8 (Auth.js: text/html)", async (path) => {
    const duo = withPages(undefined)
    const { authflow, authjs } = await duo.send(path)
    expect(authflow.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(authjs.headers.get("content-type")).toBe("text/html")
  })
})

describe("GET /verify-request", () => {
  it("the built-in page: 200 HTML", async () => {
    const duo = withPages(undefined)
    const pair = await duo.send("/verify-request?provider=email&type=email")
    const wire = await expectSameWire(pair)
    expect(wire).toMatchObject({ status: 200, contentType: "text/html" })
    for (const response of [pair.authflow, pair.authjs]) expect(await response.text()).toContain("Check your email")
  })

  it("with pages.verifyRequest: 302 there with the original query", async () => {
    const duo = withPages({ verifyRequest: "/check-email" })
    const wire = await expectSameWire(await duo.send("/verify-request?provider=email&type=email"))
    expect(wire).toMatchObject({ status: 302, location: "/check-email?provider=email&type=email" })
  })

  it("with pages.verifyRequest and no query: 302 to the page as it is", async () => {
    const duo = withPages({ verifyRequest: "/check-email" })
    expect((await expectSameWire(await duo.send("/verify-request"))).location).toBe("/check-email")
  })
})

describe("GET /signout with pages", () => {
  it("pages.signOut → 302 there", async () => {
    const duo = withPages({ signOut: "/bye" })
    expect((await expectSameWire(await duo.send("/signout"))).location).toBe("/bye")
  })
})

describe("pages.newUser is not used by credentials sign-in", () => {
  it("credentials sign-in goes to the callback URL", async () => {
    const duo = withPages({ newUser: "/welcome" })
    expect((await expectSameWire(await duo.post("/callback/credentials", { username: "ada" }))).location).toBe("https://app.test")
  })
})
