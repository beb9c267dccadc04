import { describe, expect, it } from "vitest"
import { readCsrf } from "../../src/core/csrf.js"
import { sha256Hex } from "../../src/core/crypto.js"

const secret = "csrf-secret"

/** A cookie value this server would have minted for `token`. */
function minted(token: string, key: string | string[] = secret): string {
  return `${token}|${sha256Hex(token + (Array.isArray(key) ? key.join(",") : key))}`
}

describe("readCsrf (signed double-submit)", () => {
  it("mints a token and its signed cookie when the request carries none", () => {
    for (const cookie of [undefined, ""]) {
      const state = readCsrf(cookie, undefined, false, secret)
      expect(state.verified).toBe(false)
      expect(state.token).toMatch(/^[0-9a-f]{64}$/)
      expect(state.newCookie).toBe(minted(state.token))
    }
    expect(readCsrf(undefined, undefined, false, secret).token).not.toBe(readCsrf(undefined, undefined, false, secret).token)
  })

  it("a minted cookie reads back: the same token, no new cookie", () => {
    const first = readCsrf(undefined, undefined, false, secret)
    const again = readCsrf(first.newCookie, undefined, false, `${secret}`)
    expect(again).toEqual({ token: first.token, verified: false })
  })

  it("verifies a POST that echoes the cookie's token, and only a POST", () => {
    const token = "a1".repeat(32)
    expect(readCsrf(minted(token), token, true, secret)).toEqual({ token, verified: true })
    expect(readCsrf(minted(token), token, false, secret)).toEqual({ token, verified: false })
  })

  it("refuses a POST whose token differs from the cookie's, even by one character, or is a prefix of it, or longer", () => {
    const token = "b2".repeat(32)
    const cookie = minted(token)
    const oneOff = `${token.slice(0, -1)}c`
    for (const body of [oneOff, token.slice(0, 10), token.slice(0, -1), `${token}0`, "", "x".repeat(64)]) {
      const state = readCsrf(cookie, body, true, secret)
      expect(state, body).toEqual({ token, verified: false })
    }
  })

  it("refuses a POST whose token is not a string", () => {
    const token = "c3".repeat(32)
    for (const body of [undefined, null, 1, [token], { toString: () => token }]) {
      expect(readCsrf(minted(token), body, true, secret).verified).toBe(false)
    }
  })

  it("ignores a cookie this server did not sign: a new token replaces it", () => {
    const token = "d4".repeat(32)
    const forged = [
      `${token}|${sha256Hex(token + "another-secret")}`,
      `${token}|${sha256Hex(token)}`,
      `${token}|${sha256Hex(`${token}${secret}`).slice(0, -1)}0`,
      `${token}|`,
      `${token}`,
      `|${sha256Hex(secret)}`,
      `${token}|${sha256Hex(token + secret)}x`,
    ]
    for (const cookie of forged) {
      const state = readCsrf(cookie, token, true, secret)
      expect(state.verified, cookie).toBe(false)
      expect(state.token, cookie).not.toBe(token)
      expect(state.newCookie, cookie).toBe(minted(state.token))
    }
  })

  it("signs with every secret of a rotated list joined by commas, as Auth.js does", () => {
    const token = "e5".repeat(32)
    const keys = ["new-secret", "old-secret"]
    expect(readCsrf(minted(token, keys), token, true, keys)).toEqual({ token, verified: true })
    expect(readCsrf(minted(token, "new-secret"), token, true, keys).verified).toBe(false)
    const fresh = readCsrf(undefined, undefined, false, keys)
    expect(fresh.newCookie).toBe(minted(fresh.token, keys))
  })

  it("a cookie verified under one secret is not taken on trust under another (the cache is keyed by secret)", () => {
    const token = "f6".repeat(32)
    const cookie = minted(token, "first-secret")
    expect(readCsrf(cookie, token, true, "first-secret").verified).toBe(true)
    const other = readCsrf(cookie, token, true, "second-secret")
    expect(other.verified).toBe(false)
    expect(other.token).not.toBe(token)
    // Read again under the first secret, from the cache this time.
    expect(readCsrf(cookie, token, true, "first-secret")).toEqual({ token, verified: true })
  })
})
