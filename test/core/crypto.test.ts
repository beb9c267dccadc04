import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { __portable, randomHex, sha256Hex } from "../../src/core/crypto.js"

const node = (text: string) => createHash("sha256").update(text).digest("hex")

describe("hashing and random values", () => {
  it("the portable SHA-256 (runtimes without node:crypto) matches node:crypto at every block boundary", () => {
    const inputs = ["", "abc", "a".repeat(55), "a".repeat(56), "a".repeat(63), "a".repeat(64), "a".repeat(65), "a".repeat(1000), "ünïcödé ✓ 𝔘", "token|secret,older-secret"]
    for (const input of inputs) expect(__portable.sha256(input), JSON.stringify(input.slice(0, 20))).toBe(node(input))
  })

  it("matches the FIPS 180-4 test vector", () => {
    expect(__portable.sha256("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  })

  it("random hex has the asked length and does not repeat", () => {
    const values = new Set(Array.from({ length: 100 }, () => randomHex(32)))
    expect(values.size).toBe(100)
    for (const value of values) expect(value).toMatch(/^[0-9a-f]{64}$/)
  })
})
