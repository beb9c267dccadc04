/** The software authenticator's `signatureIntegers` bend: the widths of r and s it asks for, read back from the DER. */
import { describe, expect, it } from "vitest"
import { SoftCredential } from "../../src/testing/authenticator.js"

/** r and s as numbers, from `30 len 02 rLen r 02 sLen s`. */
function integersOf(signatureBase64Url: string): [bigint, bigint] {
  const der = Buffer.from(signatureBase64Url, "base64url")
  expect([der[0], der[2]]).toEqual([0x30, 0x02])
  const rLength = der[3]!
  expect(der[4 + rLength]).toBe(0x02)
  const toBigInt = (bytes: Buffer) => BigInt(`0x${bytes.toString("hex") || "0"}`)
  return [toBigInt(der.subarray(4, 4 + rLength)), toBigInt(der.subarray(6 + rLength, 6 + rLength + der[5 + rLength]!))]
}

const fitsIn31Bytes = (value: bigint) => value < 1n << 248n
const options = { challenge: "Y2hhbGxlbmdl", rpId: "app.test" }

describe("SoftCredential signatureIntegers", () => {
  it('"short" gives an r or s below 2^248; "full-width" never does', () => {
    const credential = new SoftCredential("app.test", false)
    for (let i = 0; i < 20; i++) {
      const short = integersOf(credential.authenticate(options, "https://app.test", { signatureIntegers: "short" }).response.signature)
      expect(short.some(fitsIn31Bytes)).toBe(true)
      const full = integersOf(credential.authenticate(options, "https://app.test", { signatureIntegers: "full-width" }).response.signature)
      expect(full.some(fitsIn31Bytes)).toBe(false)
    }
  })
})
