/**
 * Issue 20, item 3: a sibling subdomain can plant `<session>.0`, `.1`, `.00`, … (a `Domain=` cookie
 * that a host-only clear does not remove) beside a valid session. The session must still read, the
 * planted cookies must be cleared without clearing the valid one, and a planted chunk that survives
 * must not make later sign-ins read as signed out. Every attack goes through `Auth()`.
 */
import { describe, expect, it } from "vitest"
import Credentials from "../../src/providers/credentials.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { CHUNK_SIZE } from "../../src/core/cookies/session-store.js"
import { getToken } from "../../src/jwt.js"
import { CookieJar, cookieNames, csrfTokenFor, recordingLogger, send } from "../helpers.js"
import { Duo, authflow, authjs, credentialsConfig } from "../wire/harness.js"
import type { AuthConfig, JWT } from "../../src/types.js"

const name = cookieNames.https.sessionToken
const secret = "session-chunks-test-secret-0123456789abcdef"

/** A browser whose jar also holds cookies a sibling subdomain planted: they survive every host-only clear. */
class PlantedJar extends CookieJar {
  /** The `Set-Cookie` headers of the last response, by cookie name. */
  lastSet = new Map<string, string>()
  constructor(readonly planted: Record<string, string> = {}) {
    super()
    this.replant()
  }
  replant(): void {
    for (const [key, value] of Object.entries(this.planted)) this.cookies.set(key, value)
  }
  override take(response: Response): this {
    this.lastSet = new Map(response.headers.getSetCookie().map((header) => [header.slice(0, header.indexOf("=")), header]))
    super.take(response)
    this.replant()
    return this
  }
  /** Whether the last response cleared `cookie` (empty value, `Max-Age=0`). */
  cleared(cookie: string): boolean {
    const header = this.lastSet.get(cookie)
    return header !== undefined && header.startsWith(`${cookie}=;`) && /;\s*max-age=0/i.test(header)
  }
  /** Whether the last response set `cookie` to a non-empty value. */
  wrote(cookie: string): boolean {
    const header = this.lastSet.get(cookie)
    return header !== undefined && !header.startsWith(`${cookie}=;`) && !/;\s*max-age=0/i.test(header)
  }
}

/** A large claim at sign-in, so that the JWT session is written in chunks. */
const blob = Array.from({ length: 6000 }, (_, i) => String.fromCharCode(97 + ((i * 7) % 26))).join("")

async function setup(strategy: "jwt" | "database", { big = false } = {}) {
  const recorded = recordingLogger()
  const adapter = MemoryAdapter()
  await adapter.createUser!({ id: "u1", name: "Ada", email: "ada@example.test", emailVerified: null })
  const config: AuthConfig = {
    secret,
    trustHost: true,
    logger: recorded.logger,
    ...(strategy === "database" && { adapter }),
    session: { strategy },
    providers: [Credentials({ credentials: { username: {} }, authorize: () => ({ id: "u1", name: "Ada", email: "ada@example.test" }) })],
    ...(big && { callbacks: { jwt: ({ token, trigger }: { token: JWT; trigger?: string }) => (trigger === "signIn" ? { ...token, blob } : token) } }),
  }
  return { config, ...recorded }
}

async function signIn(config: AuthConfig, jar: CookieJar): Promise<void> {
  const csrfToken = await csrfTokenFor(config, jar)
  const response = await send(config, jar, "/callback/credentials", { form: { csrfToken, username: "ada" } })
  expect(response.status).toBe(302)
}

async function sessionOf(config: AuthConfig, jar: CookieJar): Promise<unknown> {
  const response = await send(config, jar, "/session")
  expect(response.status).toBe(200)
  return response.json()
}

const plantings: Record<string, Record<string, string>> = {
  ".0": { [`${name}.0`]: "planted" },
  ".1": { [`${name}.1`]: "planted" },
  ".00": { [`${name}.00`]: "planted" },
  ".0 and .1": { [`${name}.0`]: "planted-a", [`${name}.1`]: "planted-b" },
}

describe.each(["jwt", "database"] as const)("planted session chunks beside a valid whole cookie (%s sessions)", (strategy) => {
  for (const [label, planted] of Object.entries(plantings)) {
    it(`${label}: the session still reads, the planted cookies are cleared, the valid one is not`, async () => {
      const { config, errors } = await setup(strategy)
      const jar = new PlantedJar()
      await signIn(config, jar)
      const valid = jar.get(name)
      expect(valid).toBeTruthy()
      Object.assign(jar.planted, planted)
      jar.replant()

      expect(await sessionOf(config, jar)).toMatchObject({ user: { name: "Ada", email: "ada@example.test" } })
      for (const key of Object.keys(planted)) expect(jar.cleared(key), key).toBe(true)
      expect(jar.cleared(name)).toBe(false)
      expect(jar.wrote(name)).toBe(true)
      // And again, with the planted cookies still there (a host-only clear does not remove them).
      expect(await sessionOf(config, jar)).toMatchObject({ user: { name: "Ada" } })
      expect(errors).toEqual([])
    })
  }

  it("a planted .0 that survives every clear: a new sign-in still reads as signed in, and so does sign-out then sign-in", async () => {
    const { config } = await setup(strategy)
    const jar = new PlantedJar({ [`${name}.0`]: "planted", [`${name}.1`]: "planted" })
    expect(await sessionOf(config, jar)).toBeNull()
    await signIn(config, jar)
    expect(await sessionOf(config, jar)).toMatchObject({ user: { name: "Ada" } })
    expect(await sessionOf(config, jar)).toMatchObject({ user: { name: "Ada" } })

    const csrfToken = await csrfTokenFor(config, jar)
    await send(config, jar, "/signout", { form: { csrfToken } })
    expect(jar.get(name)).toBeUndefined()
    expect(await sessionOf(config, jar)).toBeNull()
    await signIn(config, jar)
    expect(await sessionOf(config, jar)).toMatchObject({ user: { name: "Ada" } })
  })
})

describe("sign-out beside planted chunks", () => {
  it("events.signOut still gets the session's token, and every chunk cookie is cleared", async () => {
    const { config } = await setup("jwt")
    const signedOut: unknown[] = []
    config.events = { signOut: (message) => void signedOut.push("token" in message ? message.token : undefined) }
    const jar = new PlantedJar()
    await signIn(config, jar)
    jar.planted[`${name}.0`] = "planted"
    jar.replant()
    const csrfToken = await csrfTokenFor(config, jar)
    await send(config, jar, "/signout", { form: { csrfToken } })
    expect(signedOut).toEqual([expect.objectContaining({ name: "Ada", email: "ada@example.test" })])
    expect(jar.cleared(name) && jar.cleared(`${name}.0`)).toBe(true)
  })
})

describe("planted chunks beside a valid chunked session", () => {
  // ".next" is the chunk right after the last valid one: it extends the contiguous run from .0.
  for (const extra of [".7", ".next", ".00"]) {
    it(`a planted ${extra} does not end it: it reads, the chunks are re-written, ${extra} is cleared`, async () => {
      const { config, errors } = await setup("jwt", { big: true })
      const jar = new PlantedJar()
      await signIn(config, jar)
      const count = [...jar.cookies.keys()].filter((key) => key.startsWith(`${name}.`)).length
      expect(count).toBeGreaterThanOrEqual(2)
      expect(count).toBeLessThan(7)
      const planted = extra === ".next" ? `${name}.${count}` : `${name}${extra}`
      jar.planted[planted] = "planted"
      jar.replant()

      expect(await sessionOf(config, jar)).toMatchObject({ user: { name: "Ada" } })
      expect(jar.cleared(planted)).toBe(true)
      for (let i = 0; i < count; i++) expect(jar.wrote(`${name}.${i}`), String(i)).toBe(true)
      expect(await sessionOf(config, jar)).toMatchObject({ user: { name: "Ada" } })
      expect(errors).toEqual([])
    })
  }

  it("a planted .5 that survives, then a chunked sign-in: still signed in", async () => {
    const { config } = await setup("jwt", { big: true })
    const jar = new PlantedJar({ [`${name}.5`]: "planted" })
    await signIn(config, jar)
    expect(await sessionOf(config, jar)).toMatchObject({ user: { name: "Ada" } })
  })
})

describe("chunked sessions written by @auth/core", () => {
  it("read in authflow as they are, and beside a planted .7 or a planted chunk right after the last", async () => {
    const duo = new Duo((side) =>
      credentialsConfig(side, { callbacks: { jwt: ({ token, trigger }: { token: JWT; trigger?: string }) => (trigger === "signIn" ? { ...token, blob } : token) } } as never),
    )
    await duo.sendTo(authjs, "/callback/credentials", { form: { csrfToken: (await duo.csrf()).authjs, username: "ada" } })
    const theirs = [...duo.jars.authjs.cookies].filter(([key]) => key.startsWith(name))
    expect(theirs.length).toBeGreaterThanOrEqual(2)
    expect(theirs.map(([key]) => key).sort()).toEqual(theirs.map((_, i) => `${name}.${i}`))
    const chunks = theirs.map(([key, value]) => `${key}=${value}`).join("; ")
    for (const planted of ["", `; ${name}.7=planted`, `; ${name}.${theirs.length}=planted`]) {
      const response = await duo.sendTo(authflow, "/session", { noJar: true, cookie: chunks + planted })
      expect(await response.json(), planted).toMatchObject({ user: { name: "Ada" } })
    }
  })
})

describe("getToken", () => {
  it("reads a valid whole cookie beside planted chunks, and a valid chunked one beside a planted extra chunk", async () => {
    const { config } = await setup("jwt")
    const jar = new PlantedJar()
    await signIn(config, jar)
    const whole = jar.cookies.get(name)!
    const request = (cookie: string) => new Request("https://app.test/api", { headers: { cookie } })
    for (const planted of [`${name}.0=x`, `${name}.1=x`, `${name}.00=x`, `${name}.0=x; ${name}.1=y`]) {
      expect(await getToken({ req: request(`${name}=${whole}; ${planted}`), secret, secureCookie: true }), planted).toMatchObject({ name: "Ada" })
    }

    const big = await setup("jwt", { big: true })
    const bigJar = new PlantedJar()
    await signIn(big.config, bigJar)
    const chunks = [...bigJar.cookies].filter(([key]) => key.startsWith(name))
    expect(chunks.length).toBeGreaterThanOrEqual(2)
    expect(chunks.every(([, value]) => value.length <= CHUNK_SIZE)).toBe(true)
    const header = chunks.map(([key, value]) => `${key}=${value}`).join("; ")
    for (const planted of ["", `; ${name}.7=x`, `; ${name}.${chunks.length}=x`]) {
      expect(await getToken({ req: request(header + planted), secret, secureCookie: true }), planted).toMatchObject({ name: "Ada", blob })
    }
  })
})
