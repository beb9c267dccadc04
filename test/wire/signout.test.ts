import { describe, expect, it } from "vitest"
import { Duo, credentialsConfig, expectSameWire, recorder, sessionCookieName, sides, typesOf, type Side, type SideName } from "./harness.js"
import type { AuthConfig, JWT } from "../../src/types.js"
import { cookieNames } from "../helpers.js"

const name = sessionCookieName()

function setup(extra: (side: Side) => Partial<AuthConfig> = () => ({})) {
  const logs = { authflow: recorder(), authjs: recorder() }
  const duo = new Duo((side) => credentialsConfig(side, { logger: logs[side.name].logger, ...extra(side) }))
  return { duo, logs }
}

async function signedIn(extra: (side: Side) => Partial<AuthConfig> = () => ({})) {
  const context = setup(extra)
  await context.duo.post("/callback/credentials", { username: "ada" })
  for (const side of sides) expect([...context.duo.jars[side.name].cookies.keys()].some((key) => key.startsWith(name))).toBe(true)
  return context
}

describe("GET /signout", () => {
  it("answers the confirmation page with the init cookies", async () => {
    const { duo } = setup()
    const wire = await expectSameWire(await duo.send("/signout"))
    expect(wire).toMatchObject({ status: 200, contentType: "text/html", body: "<html>" })
    expect(Object.keys(wire.cookies).sort()).toEqual([cookieNames.https.csrfToken, cookieNames.https.callbackUrl])
  })

  it("the page's form posts back to the current URL with the CSRF token", async () => {
    const { duo } = setup()
    const tokens = await duo.csrf()
    const pair = await duo.send("/signout")
    for (const side of sides) {
      const html = await pair[side.name].text()
      expect(html).toContain('action="https://app.test/auth/signout"')
      expect(html).toContain(`value="${tokens[side.name]}"`)
    }
  })

  it("with pages.signOut: 302 there, without any query", async () => {
    const { duo } = setup(() => ({ pages: { signOut: "/goodbye" } }))
    const wire = await expectSameWire(await duo.send("/signout?callbackUrl=%2Fafter"))
    expect(wire).toMatchObject({ status: 302, location: "/goodbye" })
    expect(wire.cookies[cookieNames.https.callbackUrl]).toMatchObject({ value: "https://app.test/after" })
  })
})

describe("POST /signout", () => {
  it("clears the session and redirects to the callback URL; events.signOut gets the decoded token", async () => {
    const seen: Record<SideName, unknown[]> = { authflow: [], authjs: [] }
    const { duo } = await signedIn((side) => ({ events: { signOut: (message) => void seen[side.name].push(message) } }))
    const wire = await expectSameWire(await duo.post("/signout", { callbackUrl: "/bye" }))
    expect(wire).toMatchObject({ status: 302, location: "https://app.test/bye" })
    expect(wire.cookies[name]).toEqual({ value: "", attributes: { "max-age": "0", path: "/", httponly: true, secure: true, samesite: "Lax" } })
    for (const side of sides) {
      expect(seen[side.name]).toHaveLength(1)
      const { token } = seen[side.name][0] as { token: JWT }
      expect(token).toMatchObject({ name: "Ada", email: "ada@example.test", sub: "1", iat: expect.any(Number), exp: expect.any(Number), jti: expect.any(String) })
      expect([...duo.jars[side.name].cookies.keys()].filter((key) => key.startsWith(name))).toEqual([])
    }
    const after = await expectSameWire(await duo.send("/session"))
    expect(after.body).toBeNull()
  })

  it("clears every chunk of a chunked session", async () => {
    const big = "x".repeat(6000)
    const { duo } = await signedIn(() => ({ callbacks: { jwt: ({ token }) => ({ ...token, big }) } }))
    const wire = await expectSameWire(await duo.post("/signout"))
    const cleared = Object.keys(wire.cookies).filter((key) => key.startsWith(name))
    expect(cleared.length).toBeGreaterThanOrEqual(2)
    expect(cleared.every((key) => /\.\d+$/.test(key))).toBe(true)
    for (const key of cleared) expect(wire.cookies[key]).toMatchObject({ value: "", attributes: { "max-age": "0" } })
  })

  it("without a session: just the redirect, no session cookie touched, no event", async () => {
    const seen: unknown[] = []
    const { duo } = setup(() => ({ events: { signOut: (message) => void seen.push(message) } }))
    const wire = await expectSameWire(await duo.post("/signout"))
    expect(wire).toMatchObject({ status: 302, location: "https://app.test" })
    expect(Object.keys(wire.cookies).filter((key) => key.startsWith(name))).toEqual([])
    expect(seen).toEqual([])
  })

  it("an undecodable session: SignOutError logged, no event, the cookie cleared anyway", async () => {
    const seen: unknown[] = []
    const { duo, logs } = setup(() => ({ events: { signOut: (message) => void seen.push(message) } }))
    const wire = await expectSameWire(await duo.post("/signout", {}, { cookie: `${name}=not-a-jwe` }))
    expect(wire.location).toBe("https://app.test")
    expect(wire.cookies[name]).toMatchObject({ value: "" })
    for (const side of sides) expect(typesOf(logs[side.name].errors)).toEqual(["SignOutError"])
    expect(seen).toEqual([])
  })

  it("an events.signOut that throws is logged as EventError; sign-out completes", async () => {
    const { duo, logs } = await signedIn(() => ({
      events: {
        signOut: () => {
          throw new Error("audit down")
        },
      },
    }))
    const wire = await expectSameWire(await duo.post("/signout"))
    expect(wire.cookies[name]).toMatchObject({ value: "" })
    for (const side of sides) expect(typesOf(logs[side.name].errors)).toEqual(["EventError"])
  })

  it("without CSRF: /signin?error=MissingCSRF and the session stays", async () => {
    const { duo } = await signedIn()
    const wire = await expectSameWire(await duo.send("/signout", { form: { callbackUrl: "/bye" } }))
    expect(wire.location).toBe("https://app.test/auth/signin?error=MissingCSRF")
    expect(wire.cookies).toEqual({})
    expect((await expectSameWire(await duo.send("/session"))).body).toMatchObject({ user: { name: "Ada" } })
  })

  it("an off-site callbackUrl → the origin", async () => {
    const { duo } = await signedIn()
    const wire = await expectSameWire(await duo.post("/signout", { callbackUrl: "https://evil.test/" }))
    expect(wire.location).toBe("https://app.test")
  })

  it("with X-Auth-Return-Redirect: 200 {url} and the clearing cookies kept", async () => {
    const { duo } = await signedIn()
    const wire = await expectSameWire(await duo.post("/signout", { callbackUrl: "/bye" }, { headers: { "X-Auth-Return-Redirect": "1" } }))
    expect(wire).toMatchObject({ status: 200, body: { url: "https://app.test/bye" } })
    expect(wire.cookies[name]).toMatchObject({ value: "" })
  })
})
