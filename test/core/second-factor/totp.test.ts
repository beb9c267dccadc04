import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { hotpCode, newTotpSecret, normalizeTotpCode, totpCode, totpStep, verifyTotp, type OtpAlgorithm } from "../../../src/core/second-factor/totp.js"

const ascii = (seed: string) => new TextEncoder().encode(seed)

// RFC 4226 appendix D: SHA-1, the 20-byte ASCII seed, counters 0 to 9.
const rfc4226Secret = ascii("12345678901234567890")
const rfc4226Codes = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]

// RFC 6238 appendix B: 8 digits, period 30, each algorithm with its own seed (the ASCII digits
// repeated to the hash's length, as the RFC's reference code does).
const rfc6238Seeds: Record<OtpAlgorithm, Uint8Array> = {
  "SHA-1": ascii("12345678901234567890"),
  "SHA-256": ascii("12345678901234567890123456789012"),
  "SHA-512": ascii("1234567890123456789012345678901234567890123456789012345678901234"),
}
const rfc6238Table: ReadonlyArray<[seconds: number, step: string, codes: Record<OtpAlgorithm, string>]> = [
  [59, "0000000000000001", { "SHA-1": "94287082", "SHA-256": "46119246", "SHA-512": "90693936" }],
  [1111111109, "00000000023523EC", { "SHA-1": "07081804", "SHA-256": "68084774", "SHA-512": "25091201" }],
  [1111111111, "00000000023523ED", { "SHA-1": "14050471", "SHA-256": "67062674", "SHA-512": "99943326" }],
  [1234567890, "000000000273EF07", { "SHA-1": "89005924", "SHA-256": "91819424", "SHA-512": "93441116" }],
  [2000000000, "0000000003F940AA", { "SHA-1": "69279037", "SHA-256": "90698825", "SHA-512": "38618901" }],
  [20000000000, "0000000027BC86AA", { "SHA-1": "65353130", "SHA-256": "77737706", "SHA-512": "47863826" }],
]
const algorithms = Object.keys(rfc6238Seeds) as OtpAlgorithm[]

describe("HOTP (RFC 4226)", () => {
  it("gives the appendix D values for counters 0 to 9", async () => {
    for (const [counter, expected] of rfc4226Codes.entries()) expect(await hotpCode(rfc4226Secret, counter), `counter ${counter}`).toBe(expected)
  })

  it("refuses a negative or fractional counter", async () => {
    await expect(hotpCode(rfc4226Secret, -1)).rejects.toThrow(RangeError)
    await expect(hotpCode(rfc4226Secret, 1.5)).rejects.toThrow(RangeError)
  })
})

describe("TOTP (RFC 6238)", () => {
  it("gives the appendix B table for SHA-1, SHA-256 and SHA-512 (8 digits)", async () => {
    for (const [seconds, step, codes] of rfc6238Table) {
      expect(totpStep(seconds * 1000), `T at ${seconds}`).toBe(Number.parseInt(step, 16))
      for (const algorithm of algorithms) {
        const code = await totpCode(rfc6238Seeds[algorithm], { now: seconds * 1000, algorithm, digits: 8 })
        expect(code, `${algorithm} at ${seconds}`).toBe(codes[algorithm])
        expect(await verifyTotp(rfc6238Seeds[algorithm], codes[algorithm], { now: seconds * 1000, algorithm, digits: 8 })).toEqual({
          step: Number.parseInt(step, 16),
        })
      }
    }
  })

  it("defaults to SHA-1, 6 digits and 30 seconds: the last 6 digits of the table", async () => {
    for (const [seconds, , codes] of rfc6238Table) {
      expect(await totpCode(rfc6238Seeds["SHA-1"], { now: seconds * 1000 })).toBe(codes["SHA-1"].slice(2))
    }
  })

  it("a longer period changes the step: 59 s is step 0 of a 60-second period", async () => {
    expect(await totpCode(rfc4226Secret, { now: 59_000, period: 60 })).toBe(await hotpCode(rfc4226Secret, 0))
  })

  it("refuses options outside the RFC's range", async () => {
    await expect(totpCode(rfc4226Secret, { digits: 5 })).rejects.toThrow(RangeError)
    await expect(totpCode(rfc4226Secret, { digits: 9 })).rejects.toThrow(RangeError)
    await expect(totpCode(rfc4226Secret, { period: 0 })).rejects.toThrow(RangeError)
    await expect(totpCode(rfc4226Secret, { algorithm: "MD5" as OtpAlgorithm })).rejects.toThrow(RangeError)
    await expect(verifyTotp(rfc4226Secret, "123456", { window: -1 })).rejects.toThrow(RangeError)
  })
})

describe("verifying a TOTP code", () => {
  const now = 1_111_111_111_000 // step 37037037, 1 s into it
  const step = totpStep(now)
  const codeAtStep = (secret: Uint8Array, at: number) => hotpCode(secret, at)

  it("accepts the steps one before and one after, and refuses two away (window 1)", async () => {
    const secret = rfc4226Secret
    for (const offset of [-1, 0, 1]) {
      expect(await verifyTotp(secret, await codeAtStep(secret, step + offset), { now }), `offset ${offset}`).toEqual({ step: step + offset })
    }
    for (const offset of [-2, 2]) expect(await verifyTotp(secret, await codeAtStep(secret, step + offset), { now }), `offset ${offset}`).toBeNull()
  })

  it("window 0 accepts only the current step; window 2 reaches two away", async () => {
    const secret = rfc4226Secret
    expect(await verifyTotp(secret, await codeAtStep(secret, step - 1), { now, window: 0 })).toBeNull()
    expect(await verifyTotp(secret, await codeAtStep(secret, step), { now, window: 0 })).toEqual({ step })
    expect(await verifyTotp(secret, await codeAtStep(secret, step + 2), { now, window: 2 })).toEqual({ step: step + 2 })
  })

  it("the step edge is the period's edge: the last millisecond of a step and the first of the next", async () => {
    const secret = rfc4226Secret
    const edge = (step + 1) * 30_000
    const code = await codeAtStep(secret, step - 1)
    expect(await verifyTotp(secret, code, { now: edge - 1 })).toEqual({ step: step - 1 })
    expect(await verifyTotp(secret, code, { now: edge })).toBeNull()
  })

  it("accepts spaces in the code and refuses anything else that is not its digits", async () => {
    const secret = rfc4226Secret
    const code = await codeAtStep(secret, step)
    expect(await verifyTotp(secret, `${code.slice(0, 3)} ${code.slice(3)}`, { now })).toEqual({ step })
    expect(await verifyTotp(secret, ` ${code} `, { now })).toEqual({ step })
    for (const bad of [code.slice(1), `${code}0`, `${code.slice(0, 5)}a`, `${code.slice(0, 3)}-${code.slice(3)}`, "", "１２３４５６"]) {
      expect(await verifyTotp(secret, bad, { now }), JSON.stringify(bad)).toBeNull()
    }
  })

  it("refuses a wrong-length or non-numeric code without computing an HMAC", async () => {
    const subtle = globalThis.crypto.subtle
    const original = subtle.sign.bind(subtle)
    let signs = 0
    subtle.sign = ((...args: Parameters<SubtleCrypto["sign"]>) => (signs++, original(...args))) as SubtleCrypto["sign"]
    try {
      expect(await verifyTotp(rfc4226Secret, "12345", { now })).toBeNull()
      expect(await verifyTotp(rfc4226Secret, "12345x", { now })).toBeNull()
      expect(signs).toBe(0)
      await verifyTotp(rfc4226Secret, "123456", { now })
      expect(signs).toBe(3) // every step of the window, even after a match
    } finally {
      subtle.sign = original
    }
  })

  it("normalizes a typed code", () => {
    expect(normalizeTotpCode(" 123 456 ")).toBe("123456")
    expect(normalizeTotpCode("12345678", 8)).toBe("12345678")
    expect(normalizeTotpCode("1234567")).toBeNull()
    expect(normalizeTotpCode("+12345")).toBeNull()
    expect(normalizeTotpCode(123456 as unknown as string)).toBeNull()
  })

  it("a generated code verifies at its step and not two steps away (fast-check, fixed seed)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 16, maxLength: 64 }),
        fc.integer({ min: 3 * 60_000, max: 4_102_444_800_000 }), // from three steps after the epoch to the year 2100
        fc.constantFrom<OtpAlgorithm>("SHA-1", "SHA-256", "SHA-512"),
        fc.integer({ min: 6, max: 8 }),
        fc.constantFrom(15, 30, 60),
        async (secret, at, algorithm, digits, period) => {
          const options = { algorithm, digits, period }
          const code = await totpCode(secret, { ...options, now: at })
          expect(code).toMatch(new RegExp(`^[0-9]{${digits}}$`))
          const step = totpStep(at, { period })
          expect(await verifyTotp(secret, code, { ...options, now: at })).toEqual({ step })
          // Seen from two steps later or earlier, the code is out of the window, unless it happens
          // to equal a code of that window (one chance in 10^digits per step).
          for (const seenFrom of [step - 2, step + 2]) {
            const seen = await verifyTotp(secret, code, { ...options, now: seenFrom * period * 1000 })
            const collides = await Promise.all([-1, 0, 1].map(async (o) => (await hotpCode(secret, seenFrom + o, options)) === code))
            expect(seen === null).toBe(!collides.includes(true))
          }
        },
      ),
      { seed: 6238, numRuns: 200 },
    )
  })

  it("new secrets are 20 random bytes", () => {
    const secrets = Array.from({ length: 50 }, () => newTotpSecret())
    for (const secret of secrets) expect(secret).toHaveLength(20)
    expect(new Set(secrets.map((s) => s.join())).size).toBe(50)
    expect(newTotpSecret(32)).toHaveLength(32)
    expect(() => newTotpSecret(10)).toThrow(RangeError)
  })
})
