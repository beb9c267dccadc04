import { createHmac, hkdfSync } from "node:crypto"
import { describe, expect, it } from "vitest"
import {
  BACKUP_CODE_ALPHABET,
  BACKUP_CODE_SALT,
  backupCodeHashes,
  hashBackupCode,
  newBackupCodes,
  normalizeBackupCode,
} from "../../../src/core/second-factor/backup-codes.js"
import { sameInConstantTime } from "../../../src/core/second-factor/constant-time.js"
import { EMAIL_CODE_SALT, emailCodeMatches, emailCodeMatchesAny, hashEmailCode, newEmailCode, typedEmailCodeHashes } from "../../../src/core/second-factor/email-code.js"
import { keyedHashes } from "../../../src/core/second-factor/keyed-hash.js"
import { uniformIntegers } from "../../../src/core/second-factor/random.js"

const secret = "a-long-enough-test-secret-of-32-characters"
const olderSecret = "the-secret-before-the-rotation-0123456789"

/** The keyed hash computed independently: HKDF-SHA256 as the session key is derived, then HMAC-SHA-256. */
function expectedHash(value: string, authSecret: string, salt: string): string {
  const key = Buffer.from(hkdfSync("sha256", authSecret, salt, `Auth.js Generated Encryption Key (${salt})`, 32))
  return createHmac("sha256", key).update(value).digest("hex")
}

describe("uniform random integers", () => {
  it("stay in range", () => {
    for (const value of uniformIntegers(1000, 7)) expect(value >= 0 && value < 7 && Number.isInteger(value)).toBe(true)
    expect(uniformIntegers(5, 1)).toEqual([0, 0, 0, 0, 0])
  })

  it("have no modulo bias, where a plain modulo would double the small values' chance", () => {
    // 2^32 mod 3·2^30 = 2^30: with a plain modulo, values below 2^30 would come half the time.
    const bound = 3 * 2 ** 30
    const draws = uniformIntegers(30_000, bound)
    const small = draws.filter((value) => value < 2 ** 30).length / draws.length
    expect(small).toBeGreaterThan(0.3)
    expect(small).toBeLessThan(0.367) // 1/3 ± 8 standard deviations; a biased draw gives 0.5
  })

  it("refuse a bound that is not an integer from 1 to 2^32", () => {
    for (const bound of [0, 1.5, 2 ** 32 + 1]) expect(() => uniformIntegers(1, bound), String(bound)).toThrow(RangeError)
  })
})

describe("keyed hashes", () => {
  it("are HMAC-SHA-256 under a key derived with HKDF from the secret and the salt", async () => {
    expect(await keyedHashes("k7m2qx9c4h", secret, BACKUP_CODE_SALT)).toEqual([expectedHash("k7m2qx9c4h", secret, BACKUP_CODE_SALT)])
  })

  it("differ per salt and per secret, and come back under each secret in order", async () => {
    const [backup] = await keyedHashes("123456", secret, BACKUP_CODE_SALT)
    const [email] = await keyedHashes("123456", secret, EMAIL_CODE_SALT)
    expect(backup).not.toBe(email)
    const both = await keyedHashes("123456", [secret, olderSecret], BACKUP_CODE_SALT)
    expect(both).toEqual([expectedHash("123456", secret, BACKUP_CODE_SALT), expectedHash("123456", olderSecret, BACKUP_CODE_SALT)])
  })

  it("refuse a missing secret", async () => {
    await expect(keyedHashes("x", "", BACKUP_CODE_SALT)).rejects.toMatchObject({ type: "MissingSecret" })
    await expect(keyedHashes("x", [], BACKUP_CODE_SALT)).rejects.toMatchObject({ type: "MissingSecret" })
  })

  it("constant-time comparison compares the whole string", () => {
    expect(sameInConstantTime("abcdef", "abcdef")).toBe(true)
    expect(sameInConstantTime("abcdef", "abcdeg")).toBe(false)
    expect(sameInConstantTime("abcdef", "bbcdef")).toBe(false)
    expect(sameInConstantTime("abcdef", "abcde")).toBe(false)
    expect(sameInConstantTime("", "")).toBe(true)
  })
})

describe("backup codes", () => {
  it("the alphabet has no 0, o, 1, i or l, and 31 distinct characters", () => {
    expect(new Set(BACKUP_CODE_ALPHABET).size).toBe(31)
    for (const confusable of "0o1il") expect(BACKUP_CODE_ALPHABET).not.toContain(confusable)
    expect(10 * Math.log2(BACKUP_CODE_ALPHABET.length)).toBeGreaterThan(49)
  })

  it("ten by default, shown as xxxxx-xxxxx, all different", () => {
    const codes = newBackupCodes()
    expect(codes).toHaveLength(10)
    for (const code of codes) expect(code).toMatch(/^[23456789abcdefghjkmnpqrstuvwxyz]{5}-[23456789abcdefghjkmnpqrstuvwxyz]{5}$/)
    expect(new Set(codes).size).toBe(10)
    expect(newBackupCodes(3)).toHaveLength(3)
    expect(() => newBackupCodes(0)).toThrow(RangeError)
  })

  it("use every character of the alphabet about equally (100,000 characters)", () => {
    const counts = new Map<string, number>()
    for (const code of newBackupCodes(10_000)) for (const char of code.replace("-", "")) counts.set(char, (counts.get(char) ?? 0) + 1)
    expect(counts.size).toBe(31)
    const expected = 100_000 / 31 // ≈ 3226, standard deviation ≈ 56
    for (const [char, count] of counts) expect(Math.abs(count - expected), char).toBeLessThan(400)
  })

  it("normalize what people type and refuse what cannot be a code", () => {
    expect(normalizeBackupCode(" K7M2Q - X9C4H ")).toBe("k7m2qx9c4h")
    expect(normalizeBackupCode("k7m2qx9c4h")).toBe("k7m2qx9c4h")
    expect(normalizeBackupCode("k7m2q-x9c40")).toBeNull() // 0 is not in the alphabet
    expect(normalizeBackupCode("k7m2q-x9c4")).toBeNull()
    expect(normalizeBackupCode("k7m2q-x9c4hh")).toBeNull()
    expect(normalizeBackupCode("k7m2q_x9c4h")).toBeNull()
    expect(normalizeBackupCode(undefined as unknown as string)).toBeNull()
  })

  it("hash alike shown and typed, differently per code, under the first secret", async () => {
    const [code] = newBackupCodes(1)
    const stored = await hashBackupCode(code!, [secret, olderSecret])
    expect(stored).toBe(expectedHash(code!.replace("-", ""), secret, BACKUP_CODE_SALT))
    expect(await hashBackupCode(code!.toUpperCase().replace("-", " "), secret)).toBe(stored)
    expect(await hashBackupCode(newBackupCodes(1)[0]!, secret)).not.toBe(stored)
    await expect(hashBackupCode("not a code", secret)).rejects.toThrow(TypeError)
  })

  it("a code stored before a rotation is found after it, and one stored after is not found under the old secret alone", async () => {
    const [code] = newBackupCodes(1)
    const storedBefore = await hashBackupCode(code!, olderSecret)
    const afterRotation = await backupCodeHashes(code!, [secret, olderSecret])
    expect(afterRotation).toHaveLength(2)
    expect(afterRotation).toContain(storedBefore)
    const storedAfter = await hashBackupCode(code!, [secret, olderSecret])
    expect(await backupCodeHashes(code!, olderSecret)).not.toContain(storedAfter)
  })
})

describe("emailed codes", () => {
  it("are six digits, every digit about equally likely in every place (10,000 codes)", () => {
    const codes = Array.from({ length: 10_000 }, newEmailCode)
    for (const code of codes) expect(code).toMatch(/^[0-9]{6}$/)
    for (let place = 0; place < 6; place++) {
      const counts = new Array<number>(10).fill(0)
      for (const code of codes) counts[Number(code[place])]!++
      for (const count of counts) expect(Math.abs(count - 1000), `place ${place}`).toBeLessThan(160) // σ = 30
    }
    // Leading zeros are kept: about a tenth of the codes start with 0.
    expect(codes.filter((code) => code.startsWith("0")).length).toBeGreaterThan(800)
  })

  it("match their hash, with spaces, under the current or an older secret", async () => {
    const code = newEmailCode()
    const stored = await hashEmailCode(code, secret)
    expect(stored).toBe(expectedHash(code, secret, EMAIL_CODE_SALT))
    expect(await emailCodeMatches(code, stored, secret)).toBe(true)
    expect(await emailCodeMatches(`${code.slice(0, 3)} ${code.slice(3)}`, stored, secret)).toBe(true)
    expect(await emailCodeMatches(code, stored, [olderSecret, secret])).toBe(true)
    expect(await emailCodeMatches(code, stored, olderSecret)).toBe(false)
  })

  it("refuse another code, and anything that is not six digits", async () => {
    const stored = await hashEmailCode("123456", secret)
    for (const typed of ["123457", "654321", "12345", "1234567", "12345a", "", "123-456"]) {
      expect(await emailCodeMatches(typed, stored, secret), typed).toBe(false)
    }
    // Hashing what was typed never throws, and matches no code.
    const typedHashes = await Promise.all(["12345", "abcdef", "", "1234567", "not a code:123456"].map((typed) => hashEmailCode(typed, secret)))
    expect(typedHashes).not.toContain(stored)
    expect(new Set(typedHashes).size).toBe(typedHashes.length)
    expect(await hashEmailCode(" 123 456 ", secret)).toBe(stored)
  })

  it("hash what was typed under every secret, newest first, for a machine's guard to compare", async () => {
    const code = newEmailCode()
    const stored = await hashEmailCode(code, olderSecret)
    const typed = await typedEmailCodeHashes(`${code.slice(0, 3)} ${code.slice(3)}`, [secret, olderSecret])
    expect(typed).toEqual([expectedHash(code, secret, EMAIL_CODE_SALT), expectedHash(code, olderSecret, EMAIL_CODE_SALT)])
    // A code stored before the rotation still matches; another code, or nothing typed, does not.
    expect(emailCodeMatchesAny(typed, stored)).toBe(true)
    expect(emailCodeMatchesAny(await typedEmailCodeHashes(String((Number(code) + 1) % 1_000_000).padStart(6, "0"), [secret, olderSecret]), stored)).toBe(false)
    expect(await typedEmailCodeHashes("12345a", secret)).toEqual([])
    expect(emailCodeMatchesAny([], stored)).toBe(false)
  })
})
