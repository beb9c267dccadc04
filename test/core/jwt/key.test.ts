import { afterEach, describe, expect, it, vi } from "vitest"
import { base64url, calculateJwkThumbprint } from "jose"
import { clearKeyCache, deriveKey, deriveKeySync, secretList } from "../../../src/core/jwt/key.js"
import { nodeRuntime, useNodeCrypto } from "../../../src/core/jwt/runtime.js"
import { MissingSecret } from "../../../src/core/errors.js"
import { referenceKey, SALT, SECRET, SECURE_SALT } from "./helpers.js"

afterEach(() => {
  useNodeCrypto(true)
  vi.restoreAllMocks()
})

describe("key derivation", () => {
  it.each([
    [SALT, 64],
    [SECURE_SALT, 64],
    [SALT, 32],
  ])("node and WebCrypto derive the same HKDF-SHA256 key and kid (salt %s, %i bytes)", async (salt, length) => {
    clearKeyCache()
    const fromNode = await deriveKey(SECRET, salt, length)
    clearKeyCache()
    useNodeCrypto(false)
    const deriveBits = vi.spyOn(globalThis.crypto.subtle, "deriveBits")
    const fromWebCrypto = await deriveKey(SECRET, salt, length)
    expect(deriveBits).toHaveBeenCalledTimes(1)
    expect(fromWebCrypto.key).toEqual(fromNode.key)
    expect(fromWebCrypto.kid).toBe(fromNode.kid)
    expect(Array.from(fromNode.key)).toEqual(Array.from(referenceKey(SECRET, salt, length)))
    expect(fromNode.key.byteLength).toBe(length)
  })

  it("the kid is the RFC 7638 thumbprint, SHA-512 for 64 bytes and SHA-256 for 32", async () => {
    for (const length of [64, 32]) {
      const { key, kid } = await deriveKey(SECRET, SALT, length)
      const expected = await calculateJwkThumbprint({ kty: "oct", k: base64url.encode(key) }, length === 64 ? "sha512" : "sha256")
      expect(kid).toBe(expected)
      expect(base64url.decode(kid).byteLength).toBe(length)
    }
  })

  it("the salt and the secret both change the key", async () => {
    const base = await deriveKey(SECRET, SALT, 64)
    expect((await deriveKey(SECRET, SECURE_SALT, 64)).kid).not.toBe(base.kid)
    expect((await deriveKey(`${SECRET}x`, SALT, 64)).kid).not.toBe(base.kid)
  })

  it("strings are UTF-8 on both paths", async () => {
    const secret = "sécret-🔑"
    clearKeyCache()
    const fromNode = await deriveKey(secret, SALT, 64)
    clearKeyCache()
    useNodeCrypto(false)
    expect((await deriveKey(secret, SALT, 64)).key).toEqual(fromNode.key)
  })

  it("caches derived keys, and the cache is bounded", async () => {
    clearKeyCache()
    const first = deriveKeySync(SECRET, "salt-0", 64)
    expect(deriveKeySync(SECRET, "salt-0", 64)).toBe(first)
    for (let i = 1; i <= 200; i++) deriveKeySync(SECRET, `salt-${i}`, 64)
    const again = deriveKeySync(SECRET, "salt-0", 64)
    expect(again).not.toBe(first) // evicted, then derived afresh
    expect(again!.key).toEqual(first!.key)
  })

  it("the cache key cannot be confused by moving characters between salt and secret", async () => {
    clearKeyCache()
    const a = await deriveKey("bc", "a", 64)
    const b = await deriveKey("c", "ab", 64)
    expect(a.key).not.toEqual(b.key)
    expect(a.key).toEqual(referenceKey("bc", "a"))
  })

  it("deriveKeySync reports an uncached key as unavailable without node:crypto", () => {
    clearKeyCache()
    useNodeCrypto(false)
    expect(nodeRuntime()).toBeUndefined()
    expect(deriveKeySync(SECRET, SALT, 64)).toBeUndefined()
  })

  it("refuses missing or empty secrets", () => {
    expect(secretList(["a", "b"])).toEqual(["a", "b"])
    expect(secretList("a")).toEqual(["a"])
    for (const bad of [undefined, "", [], ["a", ""]]) {
      expect(() => secretList(bad as string[])).toThrow(MissingSecret)
    }
  })
})
