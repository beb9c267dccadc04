/**
 * `getSession` of `authflow/node` on a real `node:http` server: signed out, signed in (with the
 * re-issued cookie to forward), from a web Request and from an IncomingMessage, and configuration
 * errors thrown with their type and fix.
 */
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getSession, type SessionResult } from "../../src/frameworks/node.js"
import Credentials from "../../src/providers/credentials.js"
import { AuthError } from "../../src/errors.js"
import type { AuthConfig } from "../../src/types.js"
import { CookieJar, cookieNames, csrfTokenFor, send } from "../helpers.js"

const config: AuthConfig = {
  secret: "a-secret-for-the-node-session-tests",
  origin: "https://app.test",
  providers: [Credentials({ credentials: { username: {} }, authorize: ({ username }) => (username === "ada" ? { id: "1", name: "Ada" } : null) })],
}

let server: Server
let base = ""
let seen: (req: IncomingMessage) => Promise<SessionResult>

beforeAll(async () => {
  server = createServer(async (req, res) => {
    try {
      res.end(JSON.stringify(await seen(req)))
    } catch (error) {
      res.writeHead(500).end(JSON.stringify({ type: (error as AuthError).type, message: (error as Error).message }))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

async function signedInJar(): Promise<CookieJar> {
  const jar = new CookieJar()
  const csrfToken = await csrfTokenFor(config, jar)
  await send(config, jar, "/callback/credentials", { form: { csrfToken, username: "ada" } })
  expect(jar.cookies.has(cookieNames.https.sessionToken)).toBe(true)
  return jar
}

describe("getSession (authflow/node)", () => {
  it("signed out: a null session, and no session cookie among the cookies to forward", async () => {
    const { session, cookies } = await getSession(new Request("https://app.test/dashboard"), config)
    expect(session).toBe(null)
    // What `GET /session` sets for anyone (the CSRF and callback-URL cookies), as in Auth.js.
    expect(cookies.map((cookie) => cookie.slice(0, cookie.indexOf("=")))).toEqual([cookieNames.https.csrfToken, cookieNames.https.callbackUrl])
  })

  it("signed in, from a web Request: the session and the re-issued session cookie", async () => {
    const jar = await signedInJar()
    const { session, cookies } = await getSession(new Request("https://app.test/dashboard", { headers: { cookie: jar.header() } }), config)
    expect(session).toMatchObject({ user: { name: "Ada" }, expires: expect.any(String) })
    expect(cookies).toContainEqual(expect.stringMatching(/^__Secure-authjs\.session-token=.+; Path=\/; Expires=.+; HttpOnly; Secure; SameSite=Lax$/))
  })

  it("signed in, from a node:http IncomingMessage (a POST whose body stays unread)", async () => {
    const jar = await signedInJar()
    seen = (req) => getSession(req, config)
    const response = await fetch(`${base}/form`, { method: "POST", headers: { cookie: jar.header(), "content-type": "text/plain" }, body: "a body" })
    const { session, cookies } = (await response.json()) as SessionResult
    expect(session?.user?.name).toBe("Ada")
    expect(cookies.filter((cookie) => cookie.startsWith(`${cookieNames.https.sessionToken}=`))).toHaveLength(1)
  })

  it("no secret: throws MissingSecret saying to set AUTH_SECRET", async () => {
    const { secret: _secret, ...noSecret } = config
    const error = await getSession(new Request("https://app.test/"), { ...noSecret, logger: { error: () => {} } }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(AuthError)
    expect((error as AuthError).type).toBe("MissingSecret")
    expect((error as Error).message).toMatch(/set AUTH_SECRET/)
  })

  it("an untrusted host in production: throws UntrustedHost saying what to set", async () => {
    const { origin: _origin, ...noOrigin } = config
    const previous = process.env.NODE_ENV
    process.env.NODE_ENV = "production"
    try {
      const error = await getSession(new Request("https://evil.test/"), { ...noOrigin, trustHost: false, logger: { error: () => {} } }).catch((caught: unknown) => caught)
      expect((error as AuthError).type).toBe("UntrustedHost")
      expect((error as Error).message).toMatch(/set AUTH_URL/)
    } finally {
      process.env.NODE_ENV = previous
    }
  })
})
