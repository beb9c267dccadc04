import { pbkdf2Sync, scryptSync } from "node:crypto"
import { afterEach, describe, expect, it, vi } from "vitest"
import { dummyVerify, hashPassword, PasswordHashError, verifyPassword, type PasswordHashOptions } from "../../../src/core/password/index.js"
import { encodePhcBase64, formatPhc, parsePhc } from "../../../src/core/password/phc.js"
import { nodePasswordCrypto } from "../../../src/core/password/runtime.js"

// Low costs for most tests; the defaults are checked where they matter.
const fast = { scrypt: { ln: 10 }, pbkdf2: { iterations: 1000 } } satisfies PasswordHashOptions
const fastPbkdf2 = { ...fast, algorithm: "pbkdf2-sha256" } satisfies PasswordHashOptions

const salt = Buffer.from("000102030405060708090a0b0c0d0e0f", "hex")
const scryptOf = (password: string, ln: number, r = 8, p = 1, length = 32) => scryptSync(password, salt, length, { N: 2 ** ln, r, p, maxmem: 256 * 2 ** ln * r })
const pbkdf2Of = (password: string, iterations: number, length = 32) => pbkdf2Sync(password, salt, iterations, length, "sha256")

afterEach(() => {
  vi.restoreAllMocks()
})

describe("hashPassword", () => {
  it("with the defaults on Node, is scrypt N=2^17 r=8 p=1 with a 16-byte salt and a 32-byte key (known answer)", async () => {
    const stored = await hashPassword("correct horse battery staple")
    expect(stored).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
    const phc = parsePhc(stored)!
    const expected = scryptSync("correct horse battery staple", phc.salt, 32, { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 2 ** 17 * 8 })
    expect(encodePhcBase64(phc.hash)).toBe(encodePhcBase64(expected))
  })

  it("with pbkdf2-sha256, is PBKDF2-HMAC-SHA256 with 600,000 iterations by default (known answer)", async () => {
    const stored = await hashPassword("correct horse battery staple", { algorithm: "pbkdf2-sha256" })
    expect(stored).toMatch(/^\$pbkdf2-sha256\$i=600000\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
    const phc = parsePhc(stored)!
    expect(encodePhcBase64(phc.hash)).toBe(encodePhcBase64(pbkdf2Sync("correct horse battery staple", phc.salt, 600_000, 32, "sha256")))
  })

  it("writes the parameters it was given, and a fresh salt each time", async () => {
    const [one, two] = await Promise.all([hashPassword("pw", { scrypt: { ln: 10, r: 4, p: 2 } }), hashPassword("pw", { scrypt: { ln: 10, r: 4, p: 2 } })])
    expect(one.startsWith("$scrypt$ln=10,r=4,p=2$")).toBe(true)
    expect(parsePhc(one)!.hash).toEqual(new Uint8Array(scryptSync("pw", parsePhc(one)!.salt, 32, { N: 1024, r: 4, p: 2 })))
    expect(parsePhc(one)!.salt).not.toEqual(parsePhc(two)!.salt)
    expect(one).not.toBe(two)
  })

  it("hashes the NFKC-normalised password", async () => {
    const stored = await hashPassword("cafe\u0301", fast)
    expect(parsePhc(stored)!.hash).toEqual(new Uint8Array(scryptSync("caf\u00e9", parsePhc(stored)!.salt, 32, { N: 1024, r: 8, p: 1 })))
  })

  it("refuses parameters out of bounds and what is not a string", async () => {
    await expect(hashPassword("pw", { scrypt: { ln: 0 } })).rejects.toThrow(RangeError)
    await expect(hashPassword("pw", { scrypt: { ln: 21, r: 8 } })).rejects.toThrow(/1 GiB/)
    await expect(hashPassword("pw", { scrypt: { r: 0 } })).rejects.toThrow(RangeError)
    await expect(hashPassword("pw", { algorithm: "pbkdf2-sha256", pbkdf2: { iterations: 0 } })).rejects.toThrow(RangeError)
    await expect(hashPassword("pw", { algorithm: "bcrypt" as "scrypt" })).rejects.toThrow(RangeError)
    await expect(hashPassword(undefined as unknown as string)).rejects.toThrow(TypeError)
  })
})

describe("verifyPassword", () => {
  it("accepts an scrypt hash computed by node:crypto directly (known answer) and refuses a wrong password", async () => {
    const stored = formatPhc("scrypt", [["ln", 10], ["r", 8], ["p", 1]], salt, scryptOf("hunter2!", 10))
    expect(await verifyPassword("hunter2!", stored, fast)).toEqual({ valid: true, needsRehash: false })
    expect(await verifyPassword("hunter2?", stored, fast)).toEqual({ valid: false, needsRehash: false })
    expect(await verifyPassword("", stored, fast)).toEqual({ valid: false, needsRehash: false })
  })

  it("accepts a PBKDF2 hash computed by node's pbkdf2Sync (known answer) and refuses a wrong password", async () => {
    const stored = formatPhc("pbkdf2-sha256", [["i", 1000]], salt, pbkdf2Of("hunter2!", 1000))
    expect(await verifyPassword("hunter2!", stored, fastPbkdf2)).toEqual({ valid: true, needsRehash: false })
    expect(await verifyPassword("Hunter2!", stored, fastPbkdf2)).toEqual({ valid: false, needsRehash: false })
  })

  it("round-trips both algorithms, whatever the current one", async () => {
    for (const options of [fast, fastPbkdf2]) {
      const stored = await hashPassword("tr0ub4dor&3", options)
      expect(await verifyPassword("tr0ub4dor&3", stored, fast)).toMatchObject({ valid: true })
      expect(await verifyPassword("tr0ub4dor&3", stored, fastPbkdf2)).toMatchObject({ valid: true })
      expect(await verifyPassword("tr0ub4dor&4", stored, options)).toEqual({ valid: false, needsRehash: false })
    }
  })

  it("takes the parameters from the hash, not from the options", async () => {
    const stored = formatPhc("scrypt", [["ln", 11], ["r", 4], ["p", 2]], salt, scryptOf("pw", 11, 4, 2))
    expect(await verifyPassword("pw", stored, fast)).toEqual({ valid: true, needsRehash: true })
    const longer = formatPhc("pbkdf2-sha256", [["i", 1500]], salt, pbkdf2Of("pw", 1500, 64))
    expect(await verifyPassword("pw", longer, fastPbkdf2)).toEqual({ valid: true, needsRehash: true }) // a 64-byte key is not the current 32
  })

  it("verifies composed and decomposed é the same", async () => {
    const stored = await hashPassword("caf\u00e9 cr\u00e8me", fast)
    expect(await verifyPassword("cafe\u0301 cre\u0300me", stored, fast)).toEqual({ valid: true, needsRehash: false })
    const decomposed = await hashPassword("cafe\u0301 cre\u0300me", fastPbkdf2)
    expect(await verifyPassword("caf\u00e9 cr\u00e8me", decomposed, fastPbkdf2)).toEqual({ valid: true, needsRehash: false })
    expect(await verifyPassword("cafe cre\u0300me", stored, fast)).toMatchObject({ valid: false })
  })

  describe("needsRehash", () => {
    it("is true when the password matches and the parameters or algorithm differ from the current ones", async () => {
      const stored = await hashPassword("pw", fast)
      expect(await verifyPassword("pw", stored, fast)).toEqual({ valid: true, needsRehash: false })
      expect(await verifyPassword("pw", stored, { scrypt: { ln: 11 } })).toEqual({ valid: true, needsRehash: true })
      expect(await verifyPassword("pw", stored, { scrypt: { ln: 10, r: 16 } })).toEqual({ valid: true, needsRehash: true })
      expect(await verifyPassword("pw", stored, { scrypt: { ln: 10, p: 2 } })).toEqual({ valid: true, needsRehash: true })
      expect(await verifyPassword("pw", stored, fastPbkdf2)).toEqual({ valid: true, needsRehash: true })
      const portable = await hashPassword("pw", fastPbkdf2)
      expect(await verifyPassword("pw", portable, fastPbkdf2)).toEqual({ valid: true, needsRehash: false })
      expect(await verifyPassword("pw", portable, { ...fastPbkdf2, pbkdf2: { iterations: 2000 } })).toEqual({ valid: true, needsRehash: true })
      expect(await verifyPassword("pw", portable, fast)).toEqual({ valid: true, needsRehash: true }) // Node's default is scrypt
    })

    it("is false for a wrong password, so the wrong password is never stored in its place", async () => {
      const stored = await hashPassword("pw", fast)
      expect(await verifyPassword("not pw", stored, { scrypt: { ln: 11 } })).toEqual({ valid: false, needsRehash: false })
    })

    it("is true for a salt shorter than the current one", async () => {
      const shortSalt = salt.subarray(0, 8)
      const stored = formatPhc("scrypt", [["ln", 10], ["r", 8], ["p", 1]], shortSalt, scryptSync("pw", shortSalt, 32, { N: 1024, r: 8, p: 1 }))
      expect(await verifyPassword("pw", stored, fast)).toEqual({ valid: true, needsRehash: true })
    })
  })

  describe("a tampered or malformed hash", () => {
    const good = formatPhc("scrypt", [["ln", 10], ["r", 8], ["p", 1]], salt, scryptOf("pw", 10))

    it("with a changed key, salt or parameter, fails to verify", async () => {
      const phc = parsePhc(good)!
      const key = new Uint8Array(phc.hash)
      key[31]! ^= 1
      const otherSalt = new Uint8Array(phc.salt)
      otherSalt[0]! ^= 1
      for (const tampered of [
        formatPhc("scrypt", [["ln", 10], ["r", 8], ["p", 1]], salt, key),
        formatPhc("scrypt", [["ln", 10], ["r", 8], ["p", 1]], otherSalt, phc.hash),
        good.replace("ln=10", "ln=11"),
        good.replace("r=8", "r=4"),
      ]) {
        expect(await verifyPassword("pw", tampered, fast)).toEqual({ valid: false, needsRehash: false })
      }
    })

    it.each([
      ["a truncated key (too short to trust)", (s: string) => s.slice(0, s.lastIndexOf("$") + 20)],
      ["a missing key", (s: string) => s.slice(0, s.lastIndexOf("$"))],
      ["a padded key", (s: string) => `${s}=`],
      ["a key in the URL alphabet", (s: string) => `${s.slice(0, s.lastIndexOf("$") + 1)}-${s.slice(s.lastIndexOf("$") + 2)}`],
      ["an unknown parameter", (s: string) => s.replace("p=1", "p=1,x=2")],
      ["a missing parameter", (s: string) => s.replace(",p=1", "")],
      ["a leading zero", (s: string) => s.replace("ln=10", "ln=010")],
      ["a cost out of bounds (1 TiB)", (s: string) => s.replace("ln=10", "ln=33")],
      ["r out of bounds", (s: string) => s.replace("r=8", "r=1000")],
      ["p of zero", (s: string) => s.replace("p=1", "p=0")],
      ["PBKDF2 parameters on scrypt", (s: string) => s.replace("ln=10,r=8,p=1", "i=1000")],
      ["an empty string after the id", () => "$scrypt$"],
      ["a PBKDF2 count of zero", () => formatPhc("pbkdf2-sha256", [["i", 0]], salt, pbkdf2Of("pw", 1))],
      ["a PBKDF2 count out of bounds", () => formatPhc("pbkdf2-sha256", [["i", 20_000_000]], salt, pbkdf2Of("pw", 1))],
    ])("with %s, is { valid: false } with a PasswordHashMalformed error, at once", async (_case, tamper) => {
      const stored = tamper(good)
      expect(stored).not.toBe(good)
      const started = performance.now()
      const result = await verifyPassword("pw", stored, fast)
      expect(result).toMatchObject({ valid: false, needsRehash: false })
      expect(result.error).toBeInstanceOf(PasswordHashError)
      expect(result.error!.type).toBe("PasswordHashMalformed")
      expect(performance.now() - started).toBeLessThan(50)
    })

    it("that is not a string at all is refused, not thrown", async () => {
      for (const stored of [null, undefined, 42]) {
        const result = await verifyPassword("pw", stored as unknown as string)
        expect(result).toMatchObject({ valid: false, needsRehash: false, error: { type: "PasswordHashMalformed" } })
      }
      expect(await verifyPassword(null as unknown as string, good, fast)).toEqual({ valid: false, needsRehash: false })
    })
  })
})

describe("pluggable hashing", () => {
  // A stand-in for an older system's format: "$legacy$" and the reversed password.
  const legacyHash = (password: string) => `$legacy$${[...password].reverse().join("")}`
  const legacyVerify = vi.fn((password: string, stored: string) => stored === legacyHash(password))

  it("an unknown format without a verify hook is { valid: false } with a PasswordHashUnknownFormat error", async () => {
    for (const stored of ["$legacy$2drowssap", "$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW", "plaintext", ""]) {
      const result = await verifyPassword("password2", stored)
      expect(result).toMatchObject({ valid: false, needsRehash: false, error: { type: "PasswordHashUnknownFormat" } })
      expect(result.error!.message).not.toContain("R9h/cIPz") // the hash itself stays out of logs
    }
  })

  it("the verify hook checks formats authflow does not know, and a match needs rehashing into the current format", async () => {
    const stored = legacyHash("password2")
    expect(await verifyPassword("password2", stored, { ...fast, verify: legacyVerify })).toEqual({ valid: true, needsRehash: true })
    expect(await verifyPassword("password3", stored, { ...fast, verify: legacyVerify })).toEqual({ valid: false, needsRehash: false })
    // The hook gets the password as typed and, third, as normalised.
    legacyVerify.mockClear()
    await verifyPassword("cafe\u0301", legacyHash("cafe\u0301"), { verify: legacyVerify })
    expect(legacyVerify).toHaveBeenCalledWith("cafe\u0301", legacyHash("cafe\u0301"), "caf\u00e9")
  })

  it("the verify hook is not consulted for built-in formats", async () => {
    legacyVerify.mockClear()
    const stored = await hashPassword("pw", fast)
    expect(await verifyPassword("pw", stored, { ...fast, verify: () => false })).toEqual({ valid: true, needsRehash: false })
    expect(await verifyPassword("nope", stored, { ...fast, verify: () => true })).toEqual({ valid: false, needsRehash: false })
  })

  it("a hook may say whether to rehash; with a hash hook, its own format is current", async () => {
    const stored = legacyHash("password2")
    expect(await verifyPassword("password2", stored, { verify: () => ({ valid: true, needsRehash: false }) })).toEqual({ valid: true, needsRehash: false })
    expect(await verifyPassword("password2", stored, { verify: () => ({ valid: false, needsRehash: true }) })).toEqual({ valid: false, needsRehash: false })
    const custom = { hash: legacyHash, verify: legacyVerify }
    const made = await hashPassword("cafe\u0301", custom)
    expect(made).toBe(legacyHash("caf\u00e9")) // the hash hook gets the normalised password
    expect(await verifyPassword("caf\u00e9", made, custom)).toEqual({ valid: true, needsRehash: false })
    // Built-in hashes need rehashing into the hook's format.
    expect(await verifyPassword("pw", await hashPassword("pw", fast), { ...fast, ...custom })).toEqual({ valid: true, needsRehash: true })
  })

  it("a hook that throws is { valid: false } with a PasswordHashHookFailed error carrying the cause", async () => {
    const cause = new Error("bcrypt binding missing")
    const result = await verifyPassword("pw", "$2b$10$whatever", {
      verify: () => {
        throw cause
      },
    })
    expect(result).toMatchObject({ valid: false, needsRehash: false, error: { type: "PasswordHashHookFailed" } })
    expect(result.error!.cause?.err).toBe(cause)
  })

  it("a hash hook that returns no string is refused", async () => {
    await expect(hashPassword("pw", { hash: () => undefined as unknown as string })).rejects.toThrow(TypeError)
  })
})

describe("dummyVerify", () => {
  it("is always { valid: false }, whatever the password", async () => {
    for (const password of ["", "pw", "correct horse battery staple"]) expect(await dummyVerify(password, fast)).toEqual({ valid: false, needsRehash: false })
  })

  it("runs scrypt with the current parameters, salt and key length, as a real verify does", async () => {
    const node = nodePasswordCrypto()!
    const scrypt = vi.spyOn(node, "scrypt")
    const options = { scrypt: { ln: 11, r: 4, p: 2 } }
    await verifyPassword("pw", await hashPassword("pw", options), options)
    await dummyVerify("pw", options)
    await dummyVerify("other", options)
    expect(scrypt).toHaveBeenCalledTimes(4) // hash, verify, two dummies
    const [, real, dummy, again] = scrypt.mock.calls.map(([password, salt, keyLength, params]) => ({
      password: Buffer.from(password as Uint8Array).toString(),
      saltBytes: (salt as Uint8Array).length,
      salt: Buffer.from(salt as Uint8Array).toString("hex"),
      keyLength,
      params,
    }))
    expect(dummy).toMatchObject({ password: "pw", saltBytes: real!.saltBytes, keyLength: real!.keyLength, params: real!.params })
    expect(real!.params).toMatchObject({ N: 2048, r: 4, p: 2 })
    expect(again!.salt).toBe(dummy!.salt) // made once per parameter set
  })

  it("with a hash hook, checks a dummy the hook made once, through the verify hook", async () => {
    const hash = vi.fn((password: string) => `$legacy$${password}`)
    const verify = vi.fn((password: string, stored: string) => stored === `$legacy$${password}`)
    expect(await dummyVerify("pw", { hash, verify })).toEqual({ valid: false, needsRehash: false })
    expect(await dummyVerify("pw2", { hash, verify })).toEqual({ valid: false, needsRehash: false })
    expect(hash).toHaveBeenCalledTimes(1)
    expect(verify).toHaveBeenCalledTimes(2)
    expect(verify.mock.calls[0]![1]).toBe(verify.mock.calls[1]![1])
  })

  it("reports a failing hash hook instead of throwing, and tries again next time", async () => {
    const hash = vi.fn().mockRejectedValueOnce(new Error("down")).mockResolvedValue("$legacy$x")
    expect(await dummyVerify("pw", { hash, verify: () => false })).toMatchObject({ valid: false, error: { type: "PasswordHashHookFailed" } })
    expect(await dummyVerify("pw", { hash, verify: () => false })).toEqual({ valid: false, needsRehash: false })
    expect(hash).toHaveBeenCalledTimes(2)
  })

  it("with PBKDF2, checks a 16-byte salt and a 32-byte key, as a real hash has", async () => {
    const deriveBits = vi.spyOn(globalThis.crypto.subtle, "deriveBits")
    await dummyVerify("pw", { algorithm: "pbkdf2-sha256", pbkdf2: { iterations: 1234 } })
    const params = deriveBits.mock.calls[0]![0] as Pbkdf2Params
    expect(params.salt.byteLength).toBe(16)
    expect(params.iterations).toBe(1234)
    expect(deriveBits.mock.calls[0]![2]).toBe(256)
  })
})
