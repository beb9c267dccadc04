import { describe, expect, it } from "vitest"
import { base32Encode } from "../../src/core/second-factor/base32.js"
import { otpauthUri } from "../../src/core/second-factor/otpauth.js"
import { hotpCode, newTotpSecret, totpStep, verifyTotp } from "../../src/core/second-factor/totp.js"
import { softwareTotp, totpFromUri } from "../../src/testing/index.js"

// RFC 6238 appendix B's SHA-1 seed, as an enrolment page would show it.
const rfcSeed = new TextEncoder().encode("12345678901234567890")
const rfcSeedBase32 = base32Encode(rfcSeed)

describe("the software TOTP authenticator of authflow/testing", () => {
  it("gives the RFC 6238 codes from a typed base32 secret", async () => {
    const app = softwareTotp(rfcSeedBase32.toLowerCase().replace(/(.{4})/g, "$1 "), { digits: 8 })
    expect(app.secret).toEqual(rfcSeed)
    expect(await app.code(59_000)).toBe("94287082")
    expect(await app.code(1_111_111_109_000)).toBe("07081804")
    expect(app.options).toEqual({ algorithm: "SHA-1", digits: 8, period: 30 })
  })

  it("reads back every setting of an otpauth URI the engine writes, and its codes verify", async () => {
    const secret = newTotpSecret(64)
    const uri = otpauthUri({ issuer: "Acme Co", accountName: "a:da@example.com", secret, algorithm: "SHA-512", digits: 7, period: 45 })
    const app = totpFromUri(uri)
    expect(app).toMatchObject({ issuer: "Acme Co", accountName: "a:da@example.com", options: { algorithm: "SHA-512", digits: 7, period: 45 } })
    expect(app.secret).toEqual(secret)
    const now = Date.now()
    const code = await app.code(now)
    expect(code).toMatch(/^[0-9]{7}$/)
    expect(await verifyTotp(secret, code, { now, algorithm: "SHA-512", digits: 7, period: 45 })).toEqual({ step: totpStep(now, { period: 45 }) })
  })

  it("takes the Key Uri Format's defaults and an issuer from the label alone, separated by %3A too", async () => {
    const app = totpFromUri(`otpauth://totp/Example%3Aalice%40google.com?secret=${rfcSeedBase32}`)
    expect(app).toMatchObject({ issuer: "Example", accountName: "alice@google.com", options: { algorithm: "SHA-1", digits: 6, period: 30 } })
    expect(await app.code(59_000)).toBe(await hotpCode(rfcSeed, 1))
    expect(totpFromUri(`otpauth://totp/alice?secret=${rfcSeedBase32}`)).toMatchObject({ issuer: undefined, accountName: "alice" })
  })

  it("codes follow the clock: the previous step's code differs and is the previous HOTP value", async () => {
    const app = softwareTotp(rfcSeedBase32)
    const now = 1_234_567_890_000
    expect(await app.code(now - 30_000)).toBe(await hotpCode(rfcSeed, totpStep(now) - 1))
    expect(await app.code(now)).toBe(await hotpCode(rfcSeed, totpStep(now)))
  })

  it("refuses what an authenticator app would refuse", () => {
    expect(() => softwareTotp("not base32!")).toThrow(TypeError)
    expect(() => softwareTotp("")).toThrow(TypeError)
    expect(() => totpFromUri(`otpauth://hotp/alice?secret=${rfcSeedBase32}&counter=0`)).toThrow(/otpauth:\/\/totp/)
    expect(() => totpFromUri(`https://totp/alice?secret=${rfcSeedBase32}`)).toThrow(TypeError)
    expect(() => totpFromUri("otpauth://totp/alice")).toThrow(/no secret/)
    expect(() => totpFromUri(`otpauth://totp/alice?secret=${rfcSeedBase32}&algorithm=MD5`)).toThrow(/algorithm/)
    expect(() => totpFromUri(`otpauth://totp/alice?secret=${rfcSeedBase32}&digits=six`)).toThrow(/digits/)
  })
})
