import { describe, expect, it } from "vitest"
import { base32Decode } from "../../../src/core/second-factor/base32.js"
import { otpauthUri } from "../../../src/core/second-factor/otpauth.js"
import type { OtpAlgorithm } from "../../../src/core/second-factor/totp.js"

// The RFC 4226 seed, whose base32 form is the one authenticator docs show for it.
const secret = new TextEncoder().encode("12345678901234567890")

describe("otpauth:// URIs (Key Uri Format)", () => {
  it("writes a known URI: percent-encoded label, unpadded base32 secret, issuer and defaults", () => {
    expect(otpauthUri({ issuer: "Acme Co", accountName: "ada@example.com", secret })).toBe(
      "otpauth://totp/Acme%20Co:ada%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Acme%20Co&algorithm=SHA1&digits=6&period=30",
    )
  })

  it("writes the chosen algorithm, digits and period", () => {
    const uri = new URL(otpauthUri({ issuer: "Acme", accountName: "ada", secret, algorithm: "SHA-512", digits: 8, period: 60 }))
    expect(uri.searchParams.get("algorithm")).toBe("SHA512")
    expect(uri.searchParams.get("digits")).toBe("8")
    expect(uri.searchParams.get("period")).toBe("60")
    expect(otpauthUri({ issuer: "Acme", accountName: "ada", secret, algorithm: "SHA-256" })).toContain("algorithm=SHA256")
  })

  it("keeps one literal colon in the label: the account's own colons, spaces and non-ASCII are encoded", () => {
    const uri = otpauthUri({ issuer: "Dev Café", accountName: "a:b c+d@example.com", secret: new Uint8Array([255, 0, 1]) })
    const label = uri.slice("otpauth://totp/".length, uri.indexOf("?"))
    expect(label.split(":")).toHaveLength(2)
    // Apps split at the first colon, literal or %3A: the issuer comes whole, the account keeps its colon.
    const [, issuer, account] = /^(.*?)(?::|%3A)(.*)$/i.exec(label)!.map(decodeURIComponent)
    expect(issuer).toBe("Dev Café")
    expect(account).toBe("a:b c+d@example.com")
    expect(uri).toContain("c%2Bd") // "+" encoded, never a space in disguise
    const parsed = new URL(uri)
    expect(parsed.searchParams.get("issuer")).toBe("Dev Café")
    const written = parsed.searchParams.get("secret")!
    expect(written).not.toContain("=")
    expect(base32Decode(written)).toEqual(new Uint8Array([255, 0, 1]))
  })

  it("refuses a missing issuer or account, an issuer with a colon and an unknown algorithm", () => {
    expect(() => otpauthUri({ issuer: "", accountName: "ada", secret })).toThrow(TypeError)
    expect(() => otpauthUri({ issuer: "Acme", accountName: "", secret })).toThrow(TypeError)
    expect(() => otpauthUri({ issuer: "Acme: staging", accountName: "ada", secret })).toThrow(/colon/)
    expect(() => otpauthUri({ issuer: "Acme", accountName: "ada", secret, algorithm: "MD5" as OtpAlgorithm })).toThrow(RangeError)
  })
})
