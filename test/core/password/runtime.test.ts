/**
 * Password hashing without `node:crypto`: forced through the internal seam on Node, loaded fresh
 * where `process.getBuiltinModule` is missing or refuses, and bundled into the edge-runtime VM.
 */
import { pbkdf2Sync, scryptSync } from "node:crypto"
import { EdgeRuntime } from "edge-runtime"
import { afterEach, describe, expect, it, vi } from "vitest"
import { dummyVerify, hashPassword, sameBytes, verifyPassword } from "../../../src/core/password/index.js"
import { encodePhcBase64, formatPhc, parsePhc } from "../../../src/core/password/phc.js"
import { nodePasswordCrypto, usePasswordNodeCrypto } from "../../../src/core/password/runtime.js"
import { bundleForEdge } from "../../edge/bundle.js"

const salt = Buffer.from("f0e1d2c3b4a5968778695a4b3c2d1e0f", "hex")
const scryptStored = formatPhc("scrypt", [["ln", 10], ["r", 8], ["p", 1]], salt, scryptSync("pw", salt, 32, { N: 1024, r: 8, p: 1 }))

afterEach(() => {
  usePasswordNodeCrypto(true)
  vi.restoreAllMocks()
})

describe("the WebCrypto path, forced on Node", () => {
  it("hashes with PBKDF2-HMAC-SHA256 at 600,000 iterations by default (known answer)", async () => {
    expect(usePasswordNodeCrypto(false)).toBe(false)
    expect(nodePasswordCrypto()).toBeUndefined()
    const stored = await hashPassword("correct horse battery staple")
    expect(stored).toMatch(/^\$pbkdf2-sha256\$i=600000\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
    const phc = parsePhc(stored)!
    expect(encodePhcBase64(phc.hash)).toBe(encodePhcBase64(pbkdf2Sync("correct horse battery staple", phc.salt, 600_000, 32, "sha256")))
    // The current algorithm here, with the current parameters: nothing to rehash.
    expect(await verifyPassword("correct horse battery staple", stored)).toEqual({ valid: true, needsRehash: false })
    expect(await verifyPassword("correct horse battery stapler", stored)).toEqual({ valid: false, needsRehash: false })
  })

  it("compares in constant time without timingSafeEqual", async () => {
    const timingSafeEqual = vi.spyOn(nodePasswordCrypto()!, "timingSafeEqual")
    usePasswordNodeCrypto(false)
    const stored = formatPhc("pbkdf2-sha256", [["i", 1000]], salt, pbkdf2Sync("pw", salt, 1000, 32, "sha256"))
    expect(await verifyPassword("pw", stored, { pbkdf2: { iterations: 1000 } })).toEqual({ valid: true, needsRehash: false })
    expect(await verifyPassword("pW", stored, { pbkdf2: { iterations: 1000 } })).toEqual({ valid: false, needsRehash: false })
    expect(sameBytes(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true)
    expect(sameBytes(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false)
    expect(sameBytes(new Uint8Array([128, 2, 3]), new Uint8Array([0, 2, 3]))).toBe(false)
    expect(sameBytes(new Uint8Array([1, 2]), new Uint8Array([1, 2, 3]))).toBe(false)
    expect(timingSafeEqual).not.toHaveBeenCalled()
  })

  it("refuses scrypt hashes with PasswordHashUnavailable instead of throwing, and cannot hash with scrypt", async () => {
    usePasswordNodeCrypto(false)
    const result = await verifyPassword("pw", scryptStored)
    expect(result).toMatchObject({ valid: false, needsRehash: false, error: { type: "PasswordHashUnavailable" } })
    await expect(hashPassword("pw", { algorithm: "scrypt" })).rejects.toMatchObject({ type: "PasswordHashUnavailable" })
    expect(await dummyVerify("pw", { algorithm: "scrypt" })).toMatchObject({ valid: false, error: { type: "PasswordHashUnavailable" } })
  })

  it("turned back on, verifies scrypt again; it cannot be turned on where node:crypto is missing (next test)", async () => {
    usePasswordNodeCrypto(false)
    expect(usePasswordNodeCrypto(true)).toBe(true)
    expect(await verifyPassword("pw", scryptStored, { scrypt: { ln: 10 } })).toEqual({ valid: true, needsRehash: false })
  })
})

describe("runtime detection", () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.resetModules()
  })

  it.each([
    ["missing", undefined],
    ["throwing", () => {
      throw new Error("not allowed")
    }],
    ["returning a crypto without scrypt", () => ({ timingSafeEqual: () => true })],
  ])("with getBuiltinModule %s, the module loads and hashes with PBKDF2", async (_case, getBuiltinModule) => {
    vi.resetModules()
    vi.stubGlobal("process", { ...process, getBuiltinModule })
    const runtime = await import("../../../src/core/password/runtime.js")
    const password = await import("../../../src/core/password/index.js")
    vi.unstubAllGlobals()
    expect(runtime.nodePasswordCrypto()).toBeUndefined()
    expect(runtime.usePasswordNodeCrypto(true)).toBe(false) // cannot be forced on
    const stored = await password.hashPassword("pw", { pbkdf2: { iterations: 1000 } })
    expect(stored.startsWith("$pbkdf2-sha256$i=1000$")).toBe(true)
    expect(await password.verifyPassword("pw", stored, { pbkdf2: { iterations: 1000 } })).toEqual({ valid: true, needsRehash: false })
    expect(await password.verifyPassword("pw", scryptStored)).toMatchObject({ valid: false, error: { type: "PasswordHashUnavailable" } })
  })
})

describe("inside the edge-runtime VM", () => {
  it("the bundle imports no Node built-in, hashes with PBKDF2, and each side verifies what the other hashed", async () => {
    const { code, nodeImports } = await bundleForEdge("test/core/password/edge-scenarios.ts", { format: "iife", globalName: "passwords" })
    expect(nodeImports).toEqual([])
    const fromNode = await hashPassword("caf\u00e9 au lait", { algorithm: "pbkdf2-sha256" })
    const runtime = new EdgeRuntime({ initialCode: code })
    const edge = await runtime.evaluate<Promise<any>>(`passwords.run(${JSON.stringify(fromNode)}, ${JSON.stringify(scryptStored)})`)

    expect(edge.hasGetBuiltinModule).toBe(false)
    expect(edge.stored).toMatch(/^\$pbkdf2-sha256\$i=600000\$/)
    expect(edge.ownVerified).toEqual({ valid: true, needsRehash: false })
    expect(edge.wrongRefused).toEqual({ valid: false, needsRehash: false })
    expect(edge.nodeVerified).toEqual({ valid: true, needsRehash: false })
    expect(edge.scryptError).toBe("PasswordHashUnavailable")
    expect(edge.dummy).toEqual({ valid: false, needsRehash: false })
    // Node verifies the edge's hash (and, its default being scrypt, asks for a rehash).
    expect(await verifyPassword("cafe\u0301 au lait", edge.stored)).toEqual({ valid: true, needsRehash: true })
    expect(await verifyPassword("cafe\u0301 au lait", edge.stored, { algorithm: "pbkdf2-sha256" })).toEqual({ valid: true, needsRehash: false })
  })
})
