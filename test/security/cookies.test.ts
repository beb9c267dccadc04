/**
 * Finding 5 of the security review (issue 9): a request cookie whose name is not an RFC 6265 token
 * (`__Secure-authjs.session-token@=x`) must not make any answer fail, and no `Set-Cookie` may ever
 * name it. Every attack goes through `Auth()`.
 */
import { describe, expect, it } from "vitest"
import Credentials from "../../src/providers/credentials.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { parseCookieHeader } from "../../src/core/cookies/parse.js"
import { chunkIndexOf, readChunkedCookie } from "../../src/core/cookies/session-store.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import type { AuthConfig } from "../../src/types.js"

const sessionCookie = cookieNames.https.sessionToken
/** Names a browser would never send but an attacker (or a sloppy subdomain) can: not RFC 6265 tokens. */
const hostileNames = [`${sessionCookie}@`, `${sessionCookie}(`, `${sessionCookie},`, `${sessionCookie} x`, `${sessionCookie}[0]`]
/** Valid tokens that start with the session cookie's name but are not its chunks (`<name>` or `<name>.<digits>`). */
const lookalikeNames = [`${sessionCookie}.evil`, `${sessionCookie}-x`, `${sessionCookie}.1e3`, `${sessionCookie}.`]
const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

async function setup(strategy: "jwt" | "database") {
  const { logger, errors } = recordingLogger()
  const adapter = MemoryAdapter()
  await adapter.createUser!({ id: "u1", name: "Ada", email: "ada@example.test", emailVerified: null })
  const config: AuthConfig = {
    secret: "cookie-secret",
    trustHost: true,
    logger,
    ...(strategy === "database" && { adapter }),
    session: { strategy },
    providers: [Credentials({ credentials: { username: {} }, authorize: () => ({ id: "u1", name: "Ada", email: "ada@example.test" }) })],
  }
  return { config, errors }
}

/** A jar that also carries the hostile cookies, and records every `Set-Cookie` name it is sent. */
class HostileJar extends CookieJar {
  readonly setNames: string[] = []
  constructor(names: readonly string[]) {
    super()
    for (const name of names) this.cookies.set(name, "x")
  }
  override take(response: Response): this {
    for (const header of response.headers.getSetCookie()) this.setNames.push(header.slice(0, header.indexOf("=")))
    return super.take(response)
  }
}

function expectNoHostileSetCookie(jar: HostileJar) {
  for (const name of jar.setNames) {
    expect(name).toMatch(token)
    expect([...hostileNames, ...lookalikeNames]).not.toContain(name)
  }
}

describe.each(["jwt", "database"] as const)("hostile cookie names (%s sessions)", (strategy) => {
  it("GET /session without a session answers null, not the Configuration error", async () => {
    const { config, errors } = await setup(strategy)
    const jar = new HostileJar([...hostileNames, ...lookalikeNames])
    const response = await send(config, jar, "/session")
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
    expect(errors.map((error) => error.name)).toEqual([])
    expectNoHostileSetCookie(jar)
  })

  it("each hostile name alone: GET /session answers null", async () => {
    for (const name of hostileNames) {
      const { config, errors } = await setup(strategy)
      const jar = new HostileJar([name])
      const response = await send(config, jar, "/session")
      expect([name, response.status, response.headers.get("location")]).toEqual([name, 200, null])
      expect(await response.json()).toBeNull()
      expect(errors).toEqual([])
      expectNoHostileSetCookie(jar)
    }
  })

  it("credentials sign-in succeeds, and the session reads back beside the hostile and lookalike cookies", async () => {
    const { config, errors } = await setup(strategy)
    const jar = new HostileJar([...hostileNames, ...lookalikeNames])
    const csrfToken = await csrfTokenFor(config, jar)
    const signIn = await send(config, jar, "/callback/credentials", { form: { csrfToken, username: "ada", callbackUrl: "/dashboard" } })
    expect(signIn.status).toBe(302)
    expect(signIn.headers.get("location")).toBe(`${origin}/dashboard`)
    expect(jar.get(sessionCookie)).toBeTruthy()

    const session = await send(config, jar, "/session")
    expect(session.status).toBe(200)
    expect(await session.json()).toMatchObject({ user: { name: "Ada", email: "ada@example.test" } })
    expect(errors).toEqual([])
    expectNoHostileSetCookie(jar)
  })

  it("sign-out answers its redirect and clears the real session cookie only", async () => {
    const { config, errors } = await setup(strategy)
    const jar = new HostileJar([])
    const csrfToken = await csrfTokenFor(config, jar)
    await send(config, jar, "/callback/credentials", { form: { csrfToken, username: "ada" } })
    for (const name of [...hostileNames, ...lookalikeNames]) jar.cookies.set(name, "x")
    jar.setNames.length = 0

    const signOut = await send(config, jar, "/signout", { form: { csrfToken, callbackUrl: "/bye" } })
    expect(signOut.status).toBe(302)
    expect(signOut.headers.get("location")).toBe(`${origin}/bye`)
    expect(jar.setNames).toContain(sessionCookie)
    expect(jar.get(sessionCookie)).toBeUndefined()
    expect(errors).toEqual([])
    expectNoHostileSetCookie(jar)
  })
})

describe("the shared mechanism", () => {
  it("parseCookieHeader drops names that are not tokens, and they do not shadow a later valid pair", () => {
    const header = hostileNames.map((name) => `${name}=x`).join("; ") + `; ${sessionCookie}=real; a"b=1; =2; c=3`
    expect({ ...parseCookieHeader(header) }).toEqual({ [sessionCookie]: "real", c: "3" })
  })

  it("only <name> and <name>.<digits> are chunks of <name>", () => {
    expect([`${sessionCookie}`, `${sessionCookie}.0`, `${sessionCookie}.12`].map((key) => chunkIndexOf(key, sessionCookie))).toEqual([-1, 0, 12])
    for (const key of lookalikeNames) expect(chunkIndexOf(key, sessionCookie)).toBeUndefined()
    const cookies = { [`${sessionCookie}.1`]: "cd", [`${sessionCookie}.0`]: "ab", ...Object.fromEntries(lookalikeNames.map((name) => [name, "zz"])) }
    expect(readChunkedCookie(cookies, sessionCookie)).toBe("abcd")
  })
})
