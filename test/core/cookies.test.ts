/**
 * The cookie primitives called directly: reading a `Cookie` header, writing a `Set-Cookie`, the
 * session cookie's chunks, and the default cookie names and options. test/security/cookies.test.ts
 * and test/wire/cookies.test.ts check the same rules through `Auth()` and against Auth.js.
 */
import { describe, expect, it } from "vitest"
import { parseCookieHeader } from "../../src/core/cookies/parse.js"
import { serializeCookie } from "../../src/core/cookies/serialize.js"
import { CHUNK_SIZE, SessionStore, chunkIndexOf, readChunkedCookie, sessionCookieCandidates } from "../../src/core/cookies/session-store.js"
import { defaultCookies, resolveCookies } from "../../src/core/cookies/defaults.js"
import { isCookieName } from "../../src/core/cookies/name.js"

describe("parseCookieHeader", () => {
  it("reads nothing from an absent or empty header", () => {
    for (const header of [null, undefined, ""]) expect(parseCookieHeader(header)).toEqual({})
  })

  it("reads name=value pairs, trimming the blanks around names and values", () => {
    expect(parseCookieHeader("a=1; b=2;c=3")).toEqual({ a: "1", b: "2", c: "3" })
    expect(parseCookieHeader("  a =  1 ;  b=2  ")).toEqual({ a: "1", b: "2" })
    expect(parseCookieHeader("a=b=c; d=")).toEqual({ a: "b=c", d: "" })
  })

  it("keeps the first occurrence of a name", () => {
    expect(parseCookieHeader("a=1; a=2; b=3; b=4")).toEqual({ a: "1", b: "3" })
  })

  it("skips a pair without `=` and never borrows the next pair's `=`", () => {
    expect(parseCookieHeader("flag; a=1")).toEqual({ a: "1" })
    expect(parseCookieHeader("a;b=1")).toEqual({ b: "1" })
    expect(parseCookieHeader("a=1;;;b=2;")).toEqual({ a: "1", b: "2" })
    expect(parseCookieHeader("flag")).toEqual({})
    expect(parseCookieHeader("flag;")).toEqual({})
  })

  it("drops names that are not cookie tokens", () => {
    expect(parseCookieHeader("a@=1; b=2; c d=3; (e)=4; =5")).toEqual({ b: "2" })
  })

  it("unquotes a quoted value, and only a fully quoted one", () => {
    expect(parseCookieHeader('a="x y"; b="x; c=x"; d=""')).toEqual({ a: "x y", b: '"x', c: 'x"', d: "" })
  })

  it("percent-decodes values, leaving a malformed encoding as it is", () => {
    expect(parseCookieHeader("a=%7C; b=%E0%A4%A; c=x+y; d=%25")).toEqual({ a: "|", b: "%E0%A4%A", c: "x+y", d: "%" })
    expect(parseCookieHeader("a=x%41; b=xy%41")).toEqual({ a: "xA", b: "xyA" })
  })

  it("keeps `__proto__` and `constructor` as plain cookies of a prototype-less record", () => {
    const cookies = parseCookieHeader("__proto__=x; constructor=y; toString=z")
    expect(Object.getPrototypeOf(cookies)).toBeNull()
    expect(Object.entries(cookies)).toEqual([["__proto__", "x"], ["constructor", "y"], ["toString", "z"]])
    expect(Object.keys(cookies)).toEqual(["__proto__", "constructor", "toString"])
  })
})

describe("isCookieName", () => {
  it("accepts RFC 7230 tokens and nothing else", () => {
    for (const name of ["a", "__Secure-authjs.session-token", "!#$%&'*+-.^_`|~09AZaz"]) expect(isCookieName(name), name).toBe(true)
    for (const name of ["", "a b", "a@", "a(", "a)", "a,", "a;", "a:", "a\\", 'a"', "a/", "a[", "a]", "a?", "a=", "a{", "a}", "a\t", "a\u0000", "é", "a\nb"]) {
      expect(isCookieName(name), JSON.stringify(name)).toBe(false)
    }
  })
})

describe("serializeCookie", () => {
  it("writes the attributes in Auth.js's order", () => {
    const expires = new Date(Date.UTC(2030, 0, 2, 3, 4, 5))
    expect(
      serializeCookie("a", "v", { maxAge: 60, domain: "app.example", path: "/", expires, httpOnly: true, secure: true, partitioned: true, priority: "high", sameSite: "lax" }),
    ).toBe("a=v; Max-Age=60; Domain=app.example; Path=/; Expires=Wed, 02 Jan 2030 03:04:05 GMT; HttpOnly; Secure; Partitioned; Priority=High; SameSite=Lax")
  })

  it("writes no attribute that is not asked for", () => {
    expect(serializeCookie("a", "v")).toBe("a=v")
    expect(serializeCookie("a", "v", { httpOnly: false, secure: false, partitioned: false, sameSite: false, domain: "", path: "" })).toBe("a=v")
  })

  it("writes Max-Age=0 and floors a fractional Max-Age", () => {
    expect(serializeCookie("a", "", { maxAge: 0 })).toBe("a=; Max-Age=0")
    expect(serializeCookie("a", "v", { maxAge: 1.9 })).toBe("a=v; Max-Age=1")
  })

  it("refuses a Max-Age that is not a finite number", () => {
    for (const maxAge of [Infinity, -Infinity, Number.NaN]) {
      expect(() => serializeCookie("a", "v", { maxAge }), String(maxAge)).toThrow(new TypeError(`Invalid cookie maxAge: ${maxAge}`))
    }
  })

  it("refuses a name that is not a cookie token, every time it is asked", () => {
    expect(() => serializeCookie("a b", "v")).toThrow(new TypeError("Invalid cookie name: a b"))
    expect(() => serializeCookie("a b", "v")).toThrow(TypeError)
    expect(() => serializeCookie("", "v")).toThrow(TypeError)
    expect(serializeCookie("ok", "v")).toBe("ok=v")
    expect(serializeCookie("ok", "w")).toBe("ok=w")
  })

  it("percent-encodes a value unless encodeURIComponent would leave it as it is", () => {
    expect(serializeCookie("a", "a|b c;d")).toBe("a=a%7Cb%20c%3Bd")
    expect(serializeCookie("a", "Az09-_.!~*'()")).toBe("a=Az09-_.!~*'()")
    expect(serializeCookie("a", "x=y")).toBe("a=x%3Dy")
  })

  it("capitalises SameSite and Priority values; SameSite true is Strict", () => {
    expect(serializeCookie("a", "v", { sameSite: true })).toBe("a=v; SameSite=Strict")
    expect(serializeCookie("a", "v", { sameSite: "strict" })).toBe("a=v; SameSite=Strict")
    expect(serializeCookie("a", "v", { sameSite: "none", secure: true })).toBe("a=v; Secure; SameSite=None")
    expect(serializeCookie("a", "v", { priority: "low" })).toBe("a=v; Priority=Low")
    expect(serializeCookie("a", "v", { priority: "medium" })).toBe("a=v; Priority=Medium")
  })
})

describe("session cookie chunks", () => {
  const name = "authjs.session-token"

  it("chunkIndexOf: the cookie itself, or `<name>.<digits>`, nothing else", () => {
    expect(chunkIndexOf(name, name)).toBe(-1)
    expect(chunkIndexOf(`${name}.0`, name)).toBe(0)
    expect(chunkIndexOf(`${name}.2`, name)).toBe(2)
    expect(chunkIndexOf(`${name}.10`, name)).toBe(10)
    expect(chunkIndexOf(`${name}.09`, name)).toBe(9)
    expect(chunkIndexOf(`${name.slice(0, -1)}X.1`, name)).toBeUndefined()
    expect(chunkIndexOf("other.1", "other-name")).toBeUndefined()
    for (const key of [`${name}.`, `${name}.x`, `${name}.1x`, `${name}.x1`, `${name}./`, `${name}.:`, `${name}.1/`, `${name}.1:`, `${name}-1`, `${name}x1`, `${name}..1`, `${name}.-1`, `${name}.1e3`, "other", `x${name}`, name.slice(0, -1)]) {
      expect(chunkIndexOf(key, name), key).toBeUndefined()
    }
  })

  it("readChunkedCookie: the whole cookie, else the chunks from .0 joined in order up to the first gap", () => {
    expect(readChunkedCookie({ [name]: "whole" }, name)).toBe("whole")
    expect(readChunkedCookie({ [`${name}.2`]: "c", [`${name}.0`]: "a", [`${name}.1`]: "b" }, name)).toBe("abc")
    expect(readChunkedCookie({ [`${name}.10`]: "k", [`${name}.2`]: "c", [`${name}.0`]: "a", [`${name}.1`]: "b" }, name)).toBe("abc")
    expect(readChunkedCookie({ [`${name}.0`]: "a", [`${name}.1`]: "", [`${name}.2`]: "c" }, name)).toBe("a")
    expect(readChunkedCookie({ [`${name}.1`]: "b", [name]: "a" }, name)).toBe("a")
    expect(readChunkedCookie({ [`${name}.0`]: "b", [name]: "a" }, name)).toBe("a")
    expect(readChunkedCookie({ [`${name}.evil`]: "x", [`${name}.0`]: "a", other: "y" }, name)).toBe("a")
    // Only canonical chunk names are read: `.00` and `.01` are never part of the value.
    expect(readChunkedCookie({ [`${name}.00`]: "z", [`${name}.0`]: "a", [`${name}.01`]: "y", [`${name}.1`]: "b" }, name)).toBe("ab")
    expect(readChunkedCookie({ [`${name}.00`]: "z", [`${name}.1`]: "b" }, name)).toBeUndefined()
  })

  it("sessionCookieCandidates: the whole cookie, then the run from .0, then the run shorter by one chunk at a time", () => {
    expect(sessionCookieCandidates({}, name)).toEqual([])
    expect(sessionCookieCandidates({ [name]: "w" }, name)).toEqual(["w"])
    expect(sessionCookieCandidates({ [name]: "w", [`${name}.0`]: "a", [`${name}.1`]: "bb", [`${name}.2`]: "c", [`${name}.4`]: "e", [`${name}.00`]: "z" }, name)).toEqual([
      "w",
      "abbc",
      "abb",
      "a",
    ])
    expect(sessionCookieCandidates({ [name]: "w", [`${name}.0`]: "a", [`${name}.1`]: "b" }, name, false)).toEqual(["w", "ab"])
    expect(sessionCookieCandidates({ [name]: "", [`${name}.1`]: "b", [`${name}.00`]: "z" }, name)).toEqual([])
  })

  it("readChunkedCookie is undefined without a non-empty part", () => {
    expect(readChunkedCookie({}, name)).toBeUndefined()
    expect(readChunkedCookie({ [name]: "" }, name)).toBeUndefined()
    expect(readChunkedCookie({ [name]: "", [`${name}.0`]: "" }, name)).toBeUndefined()
    expect(readChunkedCookie({ [`${name}.evil`]: "x" }, name)).toBeUndefined()
  })
})

describe("SessionStore", () => {
  const option = { name: "authjs.session-token", options: { httpOnly: true, path: "/", sameSite: "lax" as const, secure: false } }
  const cleared = (cookie: string) => ({ name: cookie, value: "", options: { ...option.options, maxAge: 0 } })

  it("reads the session from its own cookies only", () => {
    expect(new SessionStore(option, {}).value).toBeUndefined()
    expect(new SessionStore(option, { other: "x", [`${option.name}.evil`]: "y" }).value).toBeUndefined()
    expect(new SessionStore(option, { [option.name]: "v" }).value).toBe("v")
    expect(new SessionStore(option, { [`${option.name}.0`]: "a", [`${option.name}.1`]: "b" }).value).toBe("ab")
  })

  it("candidates: the whole cookie alone in the common case, else every value to try in order", () => {
    expect(new SessionStore(option, {}).candidates()).toEqual([])
    expect(new SessionStore(option, { [option.name]: "v", other: "x" }).candidates()).toEqual(["v"])
    expect(new SessionStore(option, { [option.name]: "" }).candidates()).toEqual([])
    const planted = new SessionStore(option, { [option.name]: "v", [`${option.name}.0`]: "a", [`${option.name}.1`]: "b" })
    expect(planted.value).toBe("v")
    expect(planted.candidates()).toEqual(["v", "ab", "a"])
    expect(planted.candidates(false)).toEqual(["v", "ab"])
  })

  it("a write after a read clears every planted chunk (.00 and a stray .7 too) and keeps the rewritten cookie", () => {
    const store = new SessionStore(option, { [option.name]: "v", [`${option.name}.00`]: "z", [`${option.name}.7`]: "x" })
    expect(store.write("w")).toEqual([cleared(`${option.name}.00`), cleared(`${option.name}.7`), { name: option.name, value: "w", options: option.options }])
  })

  it("writes a small value as one cookie, with the extra options", () => {
    const expires = new Date(Date.UTC(2030, 0, 1))
    expect(new SessionStore(option, {}).write("v", { expires })).toEqual([{ name: option.name, value: "v", options: { ...option.options, expires } }])
    expect(new SessionStore(option, { [option.name]: "old" }).write("v")).toEqual([{ name: option.name, value: "v", options: option.options }])
  })

  it("a small value replacing chunks clears every chunk", () => {
    const store = new SessionStore(option, { [`${option.name}.0`]: "a", [`${option.name}.1`]: "b", [`${option.name}.evil`]: "x" })
    expect(store.write("v")).toEqual([cleared(`${option.name}.0`), cleared(`${option.name}.1`), { name: option.name, value: "v", options: option.options }])
  })

  it("a small value beside a stray chunk clears the chunk and keeps the cookie", () => {
    const store = new SessionStore(option, { [option.name]: "a", [`${option.name}.3`]: "b" })
    expect(store.write("v")).toEqual([cleared(`${option.name}.3`), { name: option.name, value: "v", options: option.options }])
  })

  it("splits a large value into chunks of CHUNK_SIZE and clears the stale ones", () => {
    const value = "x".repeat(CHUNK_SIZE) + "y".repeat(CHUNK_SIZE) + "z"
    const store = new SessionStore(option, { [option.name]: "old", [`${option.name}.0`]: "a", [`${option.name}.3`]: "d" })
    const written = store.write(value)
    expect(written.map((cookie) => [cookie.name, cookie.value.length, cookie.options.maxAge])).toEqual([
      [option.name, 0, 0],
      [`${option.name}.3`, 0, 0],
      [`${option.name}.0`, CHUNK_SIZE, undefined],
      [`${option.name}.1`, CHUNK_SIZE, undefined],
      [`${option.name}.2`, 1, undefined],
    ])
    expect(written.slice(2).map((cookie) => cookie.value).join("")).toBe(value)
  })

  it("with chunks present, a value of exactly CHUNK_SIZE is one cookie, and twice CHUNK_SIZE two chunks (no empty third)", () => {
    const present = { [`${option.name}.0`]: "a", [`${option.name}.1`]: "b" }
    expect(new SessionStore(option, present).write("x".repeat(CHUNK_SIZE)).map((cookie) => [cookie.name, cookie.value.length])).toEqual([
      [`${option.name}.0`, 0],
      [`${option.name}.1`, 0],
      [option.name, CHUNK_SIZE],
    ])
    expect(new SessionStore(option, {}).write("x".repeat(2 * CHUNK_SIZE)).map((cookie) => [cookie.name, cookie.value.length])).toEqual([
      [`${option.name}.0`, CHUNK_SIZE],
      [`${option.name}.1`, CHUNK_SIZE],
    ])
  })

  it("a value of exactly CHUNK_SIZE is one cookie, one more byte makes two chunks", () => {
    expect(new SessionStore(option, {}).write("x".repeat(CHUNK_SIZE)).map((cookie) => cookie.name)).toEqual([option.name])
    expect(new SessionStore(option, {}).write("x".repeat(CHUNK_SIZE + 1)).map((cookie) => cookie.name)).toEqual([`${option.name}.0`, `${option.name}.1`])
    expect(CHUNK_SIZE).toBe(3936)
  })

  it("clear empties every cookie the request carried, and nothing else", () => {
    expect(new SessionStore(option, {}).clear()).toEqual([])
    const store = new SessionStore(option, { [option.name]: "v", [`${option.name}.1`]: "w", [`${option.name}.evil`]: "x", other: "y" })
    expect(store.clear()).toEqual([cleared(option.name), cleared(`${option.name}.1`)])
  })
})

describe("default cookies", () => {
  it("are Auth.js's names: __Secure- prefixed when secure, __Host- for CSRF and the flow binding", () => {
    const secure = defaultCookies(true)
    expect(Object.fromEntries(Object.entries(secure).map(([key, cookie]) => [key, cookie.name]))).toEqual({
      sessionToken: "__Secure-authjs.session-token",
      callbackUrl: "__Secure-authjs.callback-url",
      csrfToken: "__Host-authjs.csrf-token",
      pkceCodeVerifier: "__Secure-authjs.pkce.code_verifier",
      state: "__Secure-authjs.state",
      nonce: "__Secure-authjs.nonce",
      webauthnChallenge: "__Secure-authjs.challenge",
      flow: "__Secure-authflow.flow",
      flowBinding: "__Host-authflow.flow-binding",
      secondFactor: "__Secure-authflow.second-factor",
      trustedDevice: "__Host-authflow.trusted-device",
      authContext: "__Host-authflow.auth-context",
      otherSessions: "__Secure-authflow.other-sessions",
      addAccount: "__Secure-authflow.add-account",
    })
    const plain = defaultCookies(false)
    expect(Object.values(plain).map((cookie) => cookie.name)).toEqual([
      "authjs.session-token",
      "authjs.callback-url",
      "authjs.csrf-token",
      "authjs.pkce.code_verifier",
      "authjs.state",
      "authjs.nonce",
      "authjs.challenge",
      "authflow.flow",
      "authflow.flow-binding",
      "authflow.second-factor",
      "authflow.trusted-device",
      "authflow.auth-context",
      "authflow.other-sessions",
      "authflow.add-account",
    ])
  })

  it("are HttpOnly, SameSite=Lax, Path=/, Secure only when secure; the short-lived ones last 15 minutes (a waiting second factor 5, a trusted device 30 days)", () => {
    for (const secure of [true, false]) {
      const cookies = defaultCookies(secure)
      const base = { httpOnly: true, sameSite: "lax", path: "/", secure }
      for (const key of ["sessionToken", "callbackUrl", "csrfToken", "nonce"] as const) expect(cookies[key].options, key).toEqual(base)
      for (const key of ["pkceCodeVerifier", "state", "webauthnChallenge", "flow", "flowBinding"] as const) expect(cookies[key].options, key).toEqual({ ...base, maxAge: 900 })
      expect(cookies.secondFactor.options).toEqual({ ...base, maxAge: 300 })
      expect(cookies.trustedDevice.options).toEqual({ ...base, maxAge: 30 * 24 * 60 * 60 })
      // When and how the user authenticated lives as long as the session it is written with.
      expect(cookies.authContext.options).toEqual(base)
    }
  })

  it("each cookie has its own options object", () => {
    const cookies = defaultCookies(true)
    cookies.sessionToken.options.domain = "changed.example"
    expect(cookies.callbackUrl.options.domain).toBeUndefined()
  })

  it("resolveCookies lays overrides over the defaults, cookie by cookie and option by option", () => {
    expect(resolveCookies(true, undefined)).toEqual(defaultCookies(true))
    const resolved = resolveCookies(true, { sessionToken: { name: "my-session", options: { domain: "app.example" } }, csrfToken: { options: { sameSite: "strict" } } })
    expect(resolved.sessionToken).toEqual({ name: "my-session", options: { httpOnly: true, sameSite: "lax", path: "/", secure: true, domain: "app.example" } })
    expect(resolved.csrfToken).toEqual({ name: "__Host-authjs.csrf-token", options: { httpOnly: true, sameSite: "strict", path: "/", secure: true } })
    expect(resolved.callbackUrl).toEqual(defaultCookies(true).callbackUrl)
    expect(resolveCookies(false, { state: { name: "s" } }).state).toEqual({ name: "s", options: { httpOnly: true, sameSite: "lax", path: "/", secure: false, maxAge: 900 } })
  })
})
