import { describe, expect, it, vi } from "vitest"
import * as authjs from "@auth/core/jwt"
import { encode, getToken } from "../../../src/jwt.js"
import { MissingSecret } from "../../../src/core/errors.js"
import { CHUNK_SIZE } from "../../../src/core/cookies/session-store.js"
import { SALT, SECRET, SECURE_SALT } from "./helpers.js"

const url = "https://app.example.com/api/me"
const make = (salt = SALT, token: Record<string, unknown> = { sub: "user-1" }) => encode({ token, secret: SECRET, salt })
const withCookie = (cookie: string) => new Request(url, { headers: { cookie } })
/** The session cookie's names, which are also the salts: `authjs.session-token` and its `__Secure-` form. */
const [plainName, secureName] = [SALT, SECURE_SALT]

describe("getToken", () => {
  it("reads the plain session cookie", async () => {
    const jwe = await make()
    const token = await getToken({ req: withCookie(`other=1; ${plainName}=${jwe}; x=y`), secret: SECRET })
    expect(token).toMatchObject({ sub: "user-1" })
    expect(typeof token!.exp).toBe("number")
  })

  it("joins a chunked cookie (.0, .1) in index order", async () => {
    const jwe = await make(SALT, { sub: "big", blob: "x".repeat(5000) })
    expect(jwe.length).toBeGreaterThan(CHUNK_SIZE)
    const first = jwe.slice(0, CHUNK_SIZE)
    const second = jwe.slice(CHUNK_SIZE)
    const req = withCookie(`${plainName}.1=${second}; ${plainName}.0=${first}`)
    const token = await getToken({ req, secret: SECRET })
    expect(token).toMatchObject({ sub: "big" })
    expect(token!.blob).toHaveLength(5000)
    expect(await getToken({ req, secret: SECRET, raw: true })).toBe(jwe)
  })

  it("secureCookie reads the __Secure- cookie and uses its name as salt", async () => {
    const secure = await make(SECURE_SALT, { sub: "secure" })
    const plain = await make(SALT, { sub: "plain" })
    const req = withCookie(`${plainName}=${plain}; ${secureName}=${secure}`)
    expect(await getToken({ req, secret: SECRET, secureCookie: true })).toMatchObject({ sub: "secure" })
    expect(await getToken({ req, secret: SECRET })).toMatchObject({ sub: "plain" })
    expect(await getToken({ req: withCookie(`${plainName}=${plain}`), secret: SECRET, secureCookie: true })).toBeNull()
  })

  it("cookieName picks another cookie and becomes the default salt; salt can be given apart", async () => {
    const jwe = await make("my.session", { sub: "custom" })
    const req = withCookie(`my.session=${jwe}`)
    expect(await getToken({ req, secret: SECRET, cookieName: "my.session" })).toMatchObject({ sub: "custom" })
    expect(await getToken({ req, secret: SECRET, cookieName: "my.session", salt: SALT })).toBeNull()
    const salted = await make(SALT, { sub: "salted" })
    expect(await getToken({ req: withCookie(`my.session=${salted}`), secret: SECRET, cookieName: "my.session", salt: SALT })).toMatchObject({ sub: "salted" })
  })

  it("falls back to an Authorization: Bearer header, percent-decoded", async () => {
    const jwe = await make(SALT, { sub: "bearer" })
    const req = new Request(url, { headers: { authorization: `Bearer ${encodeURIComponent(jwe)}` } })
    expect(await getToken({ req, secret: SECRET })).toMatchObject({ sub: "bearer" })
    const cookieWins = new Request(url, { headers: { authorization: `Bearer ${jwe}`, cookie: `${plainName}=${await make(SALT, { sub: "cookie" })}` } })
    expect(await getToken({ req: cookieWins, secret: SECRET })).toMatchObject({ sub: "cookie" })
  })

  it("ignores other authorization schemes", async () => {
    const jwe = await make()
    const req = new Request(url, { headers: { authorization: `Basic ${jwe}` } })
    expect(await getToken({ req, secret: SECRET, raw: true })).toBeNull()
  })

  it("a malformed percent-encoded bearer gives null, raw or not", async () => {
    const req = new Request(url, { headers: { authorization: "Bearer abc%E0%A4%A" } })
    expect(await getToken({ req, secret: SECRET })).toBeNull()
    expect(await getToken({ req, secret: SECRET, raw: true })).toBeNull()
    expect(await authjs.getToken({ req, secret: SECRET })).toBeNull()
  })

  it("raw returns the token string without needing a secret", async () => {
    const jwe = await make()
    expect(await getToken({ req: withCookie(`${plainName}=${jwe}`), raw: true })).toBe(jwe)
  })

  it("no token gives null, even without a secret", async () => {
    expect(await getToken({ req: new Request(url), secret: SECRET })).toBeNull()
    expect(await getToken({ req: new Request(url) })).toBeNull()
    expect(await getToken({ req: withCookie(`${plainName}=`), secret: SECRET })).toBeNull()
  })

  it("a token without a secret throws MissingSecret", async () => {
    const req = withCookie(`${plainName}=${await make()}`)
    const error = await getToken({ req }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MissingSecret)
    expect((error as MissingSecret).type).toBe("MissingSecret")
  })

  it("a missing req throws", async () => {
    await expect(getToken({ secret: SECRET } as unknown as Parameters<typeof getToken>[0])).rejects.toThrow(/req/)
  })

  it("a token that does not decode gives null and is reported to logger.debug", async () => {
    const debug = vi.fn()
    const req = withCookie(`${plainName}=${await make()}`)
    expect(await getToken({ req, secret: "wrong", logger: { debug } })).toBeNull()
    expect(debug).toHaveBeenCalledTimes(1)
    expect(await getToken({ req: withCookie(`${plainName}=not-a-jwe`), secret: SECRET })).toBeNull()
  })

  it("accepts {headers} as a Headers object or a plain record", async () => {
    const jwe = await make()
    const cookie = `${plainName}=${jwe}`
    expect(await getToken({ req: { headers: new Headers({ cookie }) }, secret: SECRET })).toMatchObject({ sub: "user-1" })
    expect(await getToken({ req: { headers: { Cookie: cookie } }, secret: SECRET })).toMatchObject({ sub: "user-1" })
    expect(await getToken({ req: { headers: { authorization: `Bearer ${jwe}` } }, secret: SECRET })).toMatchObject({ sub: "user-1" })
  })

  it("passes token, secret and salt to a custom decode", async () => {
    const decode = vi.fn(async () => ({ sub: "custom" }))
    const req = withCookie(`${secureName}=opaque`)
    expect(await getToken({ req, secret: ["a", "b"], secureCookie: true, decode })).toEqual({ sub: "custom" })
    expect(decode).toHaveBeenCalledWith({ token: "opaque", secret: ["a", "b"], salt: SECURE_SALT })
  })

  it("answers like @auth/core's getToken", async () => {
    const jwe = await make()
    const requests = [
      withCookie(`${plainName}=${jwe}`),
      withCookie(`${plainName}.0=${jwe.slice(0, 100)}; ${plainName}.1=${jwe.slice(100)}`),
      new Request(url, { headers: { authorization: `Bearer ${jwe}` } }),
      withCookie(`${plainName}=${jwe.slice(0, -2)}`),
      new Request(url),
    ]
    for (const req of requests) {
      expect(await getToken({ req, secret: SECRET })).toEqual(await authjs.getToken({ req, secret: SECRET }))
      expect(await getToken({ req, secret: SECRET, raw: true })).toEqual(await authjs.getToken({ req, secret: SECRET, raw: true }))
    }
  })
})
