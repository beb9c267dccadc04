import { afterEach, describe, expect, it, vi } from "vitest"
import { encode as authjsEncode } from "@auth/core/jwt"
import {
  Duo,
  SECRET,
  authflow,
  authjs,
  cookieNamed,
  credentialsConfig,
  decodeSession,
  expectSameWire,
  recorder,
  sessionCookieName,
  setCookies,
  sides,
  typesOf,
  type Side,
  type SideName,
} from "./harness.js"
import type { AuthConfig, JWT } from "../../src/types.js"
import { cookieNames } from "../helpers.js"

afterEach(() => {
  vi.useRealTimers()
})

const name = sessionCookieName()
const thirtyDays = 30 * 24 * 60 * 60

function logged(extra: (side: Side) => Partial<AuthConfig> = () => ({})) {
  const logs = { authflow: recorder(), authjs: recorder() }
  const duo = new Duo((side) => credentialsConfig(side, { logger: logs[side.name].logger, ...extra(side) }))
  return { duo, logs }
}

async function signedIn(extra: (side: Side) => Partial<AuthConfig> = () => ({})) {
  const setup = logged(extra)
  const wire = await expectSameWire(await setup.duo.post("/callback/credentials", { username: "ada" }))
  expect(wire.status).toBe(302)
  return setup
}

/** The session value a jar holds, joined from its chunks. */
function sessionValue(duo: Duo, side: SideName): string {
  const chunks = [...duo.jars[side].cookies.keys()].filter((key) => key.startsWith(name))
  chunks.sort((a, b) => Number(a.split(".").pop()) - Number(b.split(".").pop()))
  return chunks.map((key) => duo.jars[side].get(key)).join("")
}

describe("reading the session cookie across implementations", () => {
  for (const [writer, reader] of [[authjs, authflow], [authflow, authjs]] as const) {
    it(`a session written by ${writer.name} is a valid session for ${reader.name}`, async () => {
      const { duo } = await signedIn()
      const token = sessionValue(duo, writer.name)
      const response = await duo.sendTo(reader, "/session", { cookie: `${name}=${token}`, noJar: true })
      const body = (await response.json()) as { user: unknown; expires: string }
      expect(body.user).toEqual({ name: "Ada", email: "ada@example.test" })
      expect(Date.parse(body.expires) - Date.now()).toBeGreaterThan((thirtyDays - 60) * 1000)
      const rewritten = cookieNamed(response, name)!
      expect(await decodeSession(rewritten.value)).toMatchObject({ name: "Ada", email: "ada@example.test", sub: "1" })
    })
  }

  it("GET /session answers the same session on both sides", async () => {
    const { duo } = await signedIn()
    const wire = await expectSameWire(await duo.send("/session"))
    expect(wire.body).toEqual({ user: { name: "Ada", email: "ada@example.test" }, expires: "<date 43200 min>" })
    expect(wire.cookies[name]).toEqual({
      value: "<jwe>",
      attributes: { path: "/", expires: "43200 min", httponly: true, secure: true, samesite: "Lax" },
    })
  })

  it("the JWT claims at sign-in are {name, email, picture, sub} plus iat, exp, jti", async () => {
    const { duo } = await signedIn()
    for (const side of sides) {
      const payload = (await decodeSession(sessionValue(duo, side.name)))!
      expect(Object.keys(payload).sort()).toEqual(["email", "exp", "iat", "jti", "name", "sub"])
      expect(payload.exp! - payload.iat!).toBe(thirtyDays)
    }
  })
})

describe("sliding expiry", () => {
  it("each GET /session re-issues the cookie and the token with a later expiry", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"))
    const { duo } = await signedIn()
    const before = { authflow: sessionValue(duo, "authflow"), authjs: sessionValue(duo, "authjs") }
    vi.setSystemTime(new Date("2030-01-02T00:00:00Z"))
    const pair = await duo.send("/session")
    await expectSameWire(pair)
    for (const side of sides) {
      const cookie = cookieNamed(pair[side.name], name)!
      expect(new Date(cookie.attributes.expires as string).toISOString()).toBe("2030-02-01T00:00:00.000Z")
      const body = (await pair[side.name].clone().json()) as { expires: string }
      expect(body.expires).toBe("2030-02-01T00:00:00.000Z")
      const [old, renewed] = [await decodeSession(before[side.name]), await decodeSession(cookie.value)]
      expect(renewed!.exp! - old!.exp!).toBe(24 * 60 * 60)
      expect(renewed!.jti).not.toBe(old!.jti)
    }
  })

  it("updateAge plays no part with JWT sessions: a request right after sign-in slides too", async () => {
    const { duo } = await signedIn(() => ({ session: { updateAge: 3600 } }))
    const wire = await expectSameWire(await duo.send("/session"))
    expect(Object.keys(wire.cookies)).toEqual([name])
  })

  it("session.maxAge sets the cookie expiry, the session expiry and the token lifetime", async () => {
    const { duo } = await signedIn(() => ({ session: { maxAge: 3600 } }))
    const wire = await expectSameWire(await duo.send("/session"))
    expect(wire.body).toMatchObject({ expires: "<date 60 min>" })
    expect(wire.cookies[name]).toMatchObject({ attributes: { expires: "60 min" } })
    for (const side of sides) {
      const payload = (await decodeSession(sessionValue(duo, side.name)))!
      expect(payload.exp! - payload.iat!).toBe(3600)
    }
  })

  it("jwt.maxAge sets the token lifetime only; the cookie keeps session.maxAge", async () => {
    const { duo } = await signedIn(() => ({ jwt: { maxAge: 120 } }))
    const wire = await expectSameWire(await duo.send("/session"))
    expect(wire.cookies[name]).toMatchObject({ attributes: { expires: "43200 min" } })
    for (const side of sides) {
      const payload = (await decodeSession(sessionValue(duo, side.name)))!
      expect(payload.exp! - payload.iat!).toBe(120)
    }
  })
})

describe("a session cookie that does not decode", () => {
  async function expectRejected(cookie: string) {
    const { duo, logs } = logged()
    const wire = await expectSameWire(await duo.send("/session", { cookie }))
    expect(wire.body).toBeNull()
    expect(wire.status).toBe(200)
    for (const side of sides) expect(typesOf(logs[side.name].errors)).toEqual(["JWTSessionError"])
    return wire
  }

  it("tampered → null, cleared, JWTSessionError logged", async () => {
    const token = await authjsEncode({ token: { name: "Ada" }, secret: SECRET, salt: name })
    const parts = token.split(".")
    parts[3] = parts[3]!.slice(0, 5) + (parts[3]![5] === "A" ? "B" : "A") + parts[3]!.slice(6)
    const wire = await expectRejected(`${name}=${parts.join(".")}`)
    expect(wire.cookies[name]).toEqual({ value: "", attributes: { "max-age": "0", path: "/", httponly: true, secure: true, samesite: "Lax" } })
  })

  it("expired → null, cleared, JWTSessionError logged", async () => {
    const token = await authjsEncode({ token: { name: "Ada" }, secret: SECRET, salt: name, maxAge: -60 })
    const wire = await expectRejected(`${name}=${token}`)
    expect(wire.cookies[name]).toMatchObject({ value: "" })
  })

  it("written with another secret → null, cleared", async () => {
    const token = await authjsEncode({ token: { name: "Ada" }, secret: "another-secret", salt: name })
    await expectRejected(`${name}=${token}`)
  })

  it("written for another cookie name (salt) → null, cleared", async () => {
    const token = await authjsEncode({ token: { name: "Ada" }, secret: SECRET, salt: cookieNames.http.sessionToken })
    await expectRejected(`${name}=${token}`)
  })

  it("not a JWE at all → null, every chunk cleared", async () => {
    const wire = await expectRejected(`${name}.0=garbage; ${name}.1=more`)
    expect(Object.keys(wire.cookies).filter((key) => key.startsWith(name)).sort()).toEqual([`${name}.0`, `${name}.1`])
  })

  it("an empty session cookie is no session: null, nothing logged", async () => {
    const { duo, logs } = logged()
    const wire = await expectSameWire(await duo.send("/session", { cookie: `${name}=` }))
    expect(wire.body).toBeNull()
    expect(logs.authflow.errors).toEqual([])
    expect(logs.authjs.errors).toEqual([])
  })
})

describe("chunking", () => {
  const big = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + ((i * 7) % 26))).join("")

  /** A jwt callback that adds a large claim at sign-in and drops it on update. */
  const bigClaim = (size: number) => () => ({
    callbacks: {
      jwt: ({ token, trigger }: { token: JWT; trigger?: string }) => {
        if (trigger === "signIn") return { ...token, blob: big(size) }
        if (trigger === "update") {
          const { blob, ...rest } = token
          void blob
          return rest
        }
        return token
      },
    },
  })

  it("a token longer than 3936 characters is written as .0, .1, … of 3936 characters each", async () => {
    const { duo } = logged(bigClaim(6000) as never)
    const wire = await expectSameWire(await duo.post("/callback/credentials", { username: "ada" }))
    const length = sessionValue(duo, "authflow").length
    const count = Math.ceil(length / 3936)
    expect(count).toBeGreaterThanOrEqual(2)
    expect(Object.keys(wire.cookies).sort()).toEqual(Array.from({ length: count }, (_, i) => `${name}.${i}`))
    expect(wire.cookies[`${name}.0`]).toMatchObject({ value: "<chunk>", attributes: { expires: "43200 min", secure: true } })
    for (const side of sides) {
      const cookies = duo.jars[side.name]
      expect(cookies.get(`${name}.0`)!.length).toBe(3936)
      expect(cookies.cookies.has(name)).toBe(false)
      const payload = await decodeSession(sessionValue(duo, side.name))
      expect(payload!.blob).toBe(big(6000))
    }
  })

  it("a chunked session reads back, and chunks written by one side read on the other", async () => {
    const { duo } = logged(bigClaim(6000) as never)
    await duo.post("/callback/credentials", { username: "ada" })
    const wire = await expectSameWire(await duo.send("/session"))
    expect(wire.body).toMatchObject({ user: { name: "Ada" } })
    const theirs = [...duo.jars.authjs.cookies].filter(([key]) => key.startsWith(name))
    const response = await duo.sendTo(authflow, "/session", { noJar: true, cookie: theirs.map(([k, v]) => `${k}=${v}`).join("; ") })
    expect(await response.json()).toMatchObject({ user: { name: "Ada" } })
  })

  it("shrinking below the limit writes the plain cookie and clears the stale chunks", async () => {
    const { duo } = logged(bigClaim(6000) as never)
    await duo.post("/callback/credentials", { username: "ada" })
    const tokens = await duo.csrf()
    const wire = await expectSameWire(await duo.send("/session", (side) => ({ json: { csrfToken: tokens[side.name], data: {} } })))
    const chunkNames = Object.keys(wire.cookies).filter((key) => key !== name)
    expect(chunkNames.length).toBeGreaterThanOrEqual(2)
    for (const chunk of chunkNames) expect(wire.cookies[chunk]).toMatchObject({ value: "", attributes: { "max-age": "0" } })
    expect(wire.cookies[name]).toMatchObject({ value: "<jwe>" })
    for (const side of sides) expect([...duo.jars[side.name].cookies.keys()].filter((key) => key.startsWith(name))).toEqual([name])
  })

  it("growing above the limit clears the plain cookie", async () => {
    const { duo } = logged(() => ({
      callbacks: { jwt: ({ token, trigger }: { token: JWT; trigger?: string }) => (trigger === "update" ? { ...token, blob: big(5000) } : token) },
    }) as never)
    await duo.post("/callback/credentials", { username: "ada" })
    const tokens = await duo.csrf()
    const wire = await expectSameWire(await duo.send("/session", (side) => ({ json: { csrfToken: tokens[side.name], data: {} } })))
    expect(wire.cookies[name]).toMatchObject({ value: "", attributes: { "max-age": "0" } })
    expect(wire.cookies[`${name}.0`]).toMatchObject({ value: "<chunk>" })
    expect(wire.cookies[`${name}.1`]).toMatchObject({ value: "<chunk>" })
  })

  it("a token of exactly 3936 characters stays unchunked; one more character chunks it", async () => {
    for (const [length, names] of [[3936, [name]], [3937, [`${name}.0`, `${name}.1`]]] as const) {
      const encode = () => "x".repeat(length)
      const duo = new Duo((side) => credentialsConfig(side, { jwt: { encode, decode: () => ({ name: "Ada" }) } }))
      const wire = await expectSameWire(await duo.post("/callback/credentials", { username: "ada" }))
      expect(Object.keys(wire.cookies).sort()).toEqual([...names])
    }
  })
})

describe("POST /session (update)", () => {
  it("the jwt callback gets trigger update and the client's data; the answer has no no-cache headers", async () => {
    const calls: Record<SideName, unknown[]> = { authflow: [], authjs: [] }
    const { duo } = await signedIn((side) => ({
      callbacks: {
        jwt: ({ token, trigger, session }) => {
          calls[side.name].push({ trigger, session })
          return trigger === "update" ? { ...token, name: (session as { name: string }).name } : token
        },
      },
    }))
    const tokens = await duo.csrf()
    const wire = await expectSameWire(
      await duo.send("/session", (side) => ({ json: { csrfToken: tokens[side.name], data: { name: "Ada L." } } })),
    )
    expect(wire).toMatchObject({ status: 200, cacheControl: null, expires: null, pragma: null, contentType: "application/json" })
    expect(wire.body).toEqual({ user: { name: "Ada L.", email: "ada@example.test" }, expires: "<date 43200 min>" })
    expect(calls.authflow.at(-1)).toEqual({ trigger: "update", session: { name: "Ada L." } })
    expect(calls.authjs.at(-1)).toEqual(calls.authflow.at(-1))
    const after = await expectSameWire(await duo.send("/session"))
    expect(after.body).toMatchObject({ user: { name: "Ada L." } })
  })

  it("a GET call of the jwt callback has no trigger and no session data", async () => {
    const calls: Record<SideName, unknown[]> = { authflow: [], authjs: [] }
    const { duo } = await signedIn((side) => ({
      callbacks: { jwt: ({ token, trigger, session }) => (calls[side.name].push({ trigger, session }), token) },
    }))
    await duo.send("/session")
    expect(calls.authflow.at(-1)).toEqual({ trigger: undefined, session: undefined })
    expect(calls.authjs.at(-1)).toEqual(calls.authflow.at(-1))
  })

  it("a form-encoded update works like JSON", async () => {
    const { duo } = await signedIn()
    const wire = await expectSameWire(await duo.post("/session", { data: "x" }))
    expect(wire.body).toMatchObject({ user: { name: "Ada" } })
  })

  it("without a CSRF token → 400 null, nothing set, the session untouched", async () => {
    const { duo, logs } = await signedIn()
    const wire = await expectSameWire(await duo.send("/session", { json: { data: { name: "Eve" } } }))
    expect(wire).toMatchObject({ status: 400, body: null, cookies: {} })
    for (const side of sides) expect(typesOf(logs[side.name].errors)).toEqual(["MissingCSRF"])
    expect((await expectSameWire(await duo.send("/session"))).body).toMatchObject({ user: { name: "Ada" } })
  })

  it("without a session → 200 null", async () => {
    const { duo } = logged()
    const wire = await expectSameWire(await duo.post("/session", {}))
    expect(wire).toMatchObject({ status: 200, body: null })
  })
})

describe("callbacks and events around the session", () => {
  it("a jwt callback returning null on GET clears the cookie and answers null", async () => {
    const { duo } = await signedIn(() => ({ callbacks: { jwt: ({ token, trigger }) => (trigger === "signIn" ? token : null) } }))
    const wire = await expectSameWire(await duo.send("/session"))
    expect(wire.body).toBeNull()
    expect(wire.cookies[name]).toMatchObject({ value: "", attributes: { "max-age": "0" } })
  })

  it("a jwt callback returning null at sign-in writes no session", async () => {
    const { duo } = logged(() => ({ callbacks: { jwt: () => null } }))
    const wire = await expectSameWire(await duo.post("/callback/credentials", { username: "ada" }))
    expect(wire.status).toBe(302)
    expect(Object.keys(wire.cookies)).not.toContain(name)
  })

  it("a jwt callback that throws on GET → null, cleared, JWTSessionError", async () => {
    const { duo, logs } = await signedIn(() => ({
      callbacks: {
        jwt: ({ token, trigger }) => {
          if (trigger !== "signIn") throw new Error("revoked")
          return token
        },
      },
    }))
    const wire = await expectSameWire(await duo.send("/session"))
    expect(wire.body).toBeNull()
    expect(wire.cookies[name]).toMatchObject({ value: "" })
    for (const side of sides) expect(typesOf(logs[side.name].errors)).toEqual(["JWTSessionError"])
  })

  it("the session callback shapes the answer and receives {session, token}", async () => {
    const { duo } = await signedIn(() => ({
      callbacks: { session: ({ session, token }) => ({ ...session, userId: token.sub, keys: Object.keys({ session, token }).sort() }) },
    }))
    const wire = await expectSameWire(await duo.send("/session"))
    expect(wire.body).toMatchObject({ userId: "1", keys: ["session", "token"], user: { name: "Ada" } })
  })

  it("events.session receives {session, token} after the answer is built", async () => {
    const seen: Record<SideName, unknown[]> = { authflow: [], authjs: [] }
    const { duo } = await signedIn((side) => ({ events: { session: (message) => void seen[side.name].push(message) } }))
    await expectSameWire(await duo.send("/session"))
    for (const side of sides) {
      expect(seen[side.name]).toHaveLength(1)
      expect(seen[side.name][0]).toMatchObject({ session: { user: { name: "Ada" } }, token: { sub: "1", name: "Ada" } })
    }
  })
})

describe("custom jwt.encode / jwt.decode", () => {
  const encoded = (seen: unknown[]) => ({
    jwt: {
      encode: (params: { token?: JWT; salt: string; secret: string | string[]; maxAge?: number }) => {
        seen.push({ salt: params.salt, secret: params.secret, maxAge: params.maxAge })
        const { name, email, sub, role } = params.token ?? {}
        return Buffer.from(JSON.stringify({ name, email, sub, role })).toString("base64url")
      },
      decode: (params: { token?: string; salt: string; secret: string | string[] }) => {
        seen.push({ decode: params.token?.slice(0, 4), salt: params.salt, secret: params.secret })
        return params.token ? (JSON.parse(Buffer.from(params.token, "base64url").toString()) as JWT) : null
      },
    },
    callbacks: { jwt: ({ token }: { token: JWT }) => ({ ...token, role: "admin" }) },
  })

  it("are used to write and read the session cookie, with the cookie name as salt", async () => {
    const seen: Record<SideName, unknown[]> = { authflow: [], authjs: [] }
    const { duo } = logged((side) => encoded(seen[side.name]) as never)
    const signIn = await duo.post("/callback/credentials", { username: "ada" })
    const ours = cookieNamed(signIn.authflow, name)!.value
    expect(ours).toBe(cookieNamed(signIn.authjs, name)!.value)
    expect(JSON.parse(Buffer.from(ours, "base64url").toString())).toEqual({ name: "Ada", email: "ada@example.test", sub: "1", role: "admin" })
    const session = await expectSameWire(await duo.send("/session"))
    expect(session.body).toMatchObject({ user: { name: "Ada", email: "ada@example.test" } })
    expect(seen.authflow).toEqual([
      { salt: name, secret: SECRET, maxAge: thirtyDays },
      { decode: ours.slice(0, 4), salt: name, secret: SECRET },
      { salt: name, secret: SECRET, maxAge: thirtyDays },
    ])
    expect(seen.authjs).toEqual(seen.authflow)
  })

  it("a decode that returns null is an invalid session: null, cleared, JWTSessionError", async () => {
    const logs = { authflow: recorder(), authjs: recorder() }
    const duo = new Duo((side) => credentialsConfig(side, { logger: logs[side.name].logger, jwt: { decode: () => null } }))
    const wire = await expectSameWire(await duo.send("/session", { cookie: `${name}=anything` }))
    expect(wire.body).toBeNull()
    expect(wire.cookies[name]).toMatchObject({ value: "" })
    for (const side of sides) expect(typesOf(logs[side.name].errors)).toEqual(["JWTSessionError"])
  })
})

describe("secret rotation", () => {
  it("a session written with the old secret is read with [new, old] and rewritten with the new one", async () => {
    const old = await authjsEncode({ token: { name: "Ada", email: "ada@example.test", sub: "1" }, secret: "old-secret", salt: name })
    const { duo } = logged(() => ({ secret: ["new-secret", "old-secret"] }))
    const pair = await duo.send("/session", { cookie: `${name}=${old}` })
    const wire = await expectSameWire(pair)
    expect(wire.body).toMatchObject({ user: { name: "Ada" } })
    for (const side of sides) {
      const rewritten = cookieNamed(pair[side.name], name)!.value
      expect(await decodeSession(rewritten, true, "new-secret")).toMatchObject({ name: "Ada" })
      await expect(decodeSession(rewritten, true, "old-secret")).rejects.toThrow()
    }
  })

  it("a session written with a secret no longer in the list is refused", async () => {
    const stale = await authjsEncode({ token: { name: "Ada" }, secret: "retired", salt: name })
    const { duo } = logged(() => ({ secret: ["new-secret", "old-secret"] }))
    const wire = await expectSameWire(await duo.send("/session", { cookie: `${name}=${stale}` }))
    expect(wire.body).toBeNull()
  })

  it("sign-in with [new, old] writes a token only the new secret opens", async () => {
    const { duo } = await signedIn(() => ({ secret: ["new-secret", "old-secret"] }))
    for (const side of sides) {
      expect(await decodeSession(sessionValue(duo, side.name), true, "new-secret")).toMatchObject({ sub: "1" })
    }
  })
})

describe("the session cookie is written only where Auth.js writes it", () => {
  it("no session: GET /session sets only the init cookies", async () => {
    const { duo } = logged()
    const pair = await duo.send("/session")
    await expectSameWire(pair)
    for (const side of sides) expect(setCookies(pair[side.name]).map((c) => c.name).filter((n) => n.startsWith(name))).toEqual([])
  })
})
