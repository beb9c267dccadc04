import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { base32Decode, base32Encode } from "../../../src/core/second-factor/base32.js"

const utf8 = new TextEncoder()
const text = new TextDecoder()

// RFC 4648 section 10, with the padding the encoder leaves off.
const vectors: ReadonlyArray<[string, string]> = [
  ["", ""],
  ["f", "MY======"],
  ["fo", "MZXQ===="],
  ["foo", "MZXW6==="],
  ["foob", "MZXW6YQ="],
  ["fooba", "MZXW6YTB"],
  ["foobar", "MZXW6YTBOI======"],
]

describe("base32 (RFC 4648)", () => {
  it("encodes the RFC 4648 test vectors without padding", () => {
    for (const [plain, encoded] of vectors) expect(base32Encode(utf8.encode(plain)), plain).toBe(encoded.replace(/=/g, ""))
  })

  it("decodes the test vectors with and without padding", () => {
    for (const [plain, encoded] of vectors) {
      expect(text.decode(base32Decode(encoded)!), encoded).toBe(plain)
      expect(text.decode(base32Decode(encoded.replace(/=/g, ""))!), encoded).toBe(plain)
    }
  })

  it("decodes what people type: lower case, spaces, dashes", () => {
    expect(text.decode(base32Decode("mzxw 6ytb oi")!)).toBe("foobar")
    expect(text.decode(base32Decode("MZXW6-YTBOI")!)).toBe("foobar")
    expect(text.decode(base32Decode(" mzxw\t6ytb\noi====== ")!)).toBe("foobar")
  })

  it("refuses with null: characters outside the alphabet, impossible lengths, misplaced padding, stray bits", () => {
    expect(base32Decode("MZXW1")).toBeNull() // 1 is not in the alphabet
    expect(base32Decode("MZXW0YTB")).toBeNull() // nor 0
    expect(base32Decode("MZXW8YTB")).toBeNull() // nor 8
    expect(base32Decode("MZXWé")).toBeNull()
    expect(base32Decode("M")).toBeNull() // 1, 3 or 6 characters in a last group never occur
    expect(base32Decode("MZX")).toBeNull()
    expect(base32Decode("MZXW6Y")).toBeNull()
    expect(base32Decode("MY=")).toBeNull() // padding that does not fill the group
    expect(base32Decode("MY==MY==")).toBeNull() // padding in the middle
    expect(base32Decode("MZXW6YTB========")).toBeNull() // a whole group of padding
    expect(base32Decode("MZ")).toBeNull() // "MY" is "f"; "MZ" leaves a set bit after the byte
  })

  it("round-trips any bytes (fast-check, fixed seed)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const encoded = base32Encode(bytes)
        expect(encoded).toMatch(/^[A-Z2-7]*$/)
        expect(encoded.length).toBe(Math.ceil((bytes.length * 8) / 5))
        expect(base32Decode(encoded)).toEqual(bytes)
        expect(base32Decode(encoded.toLowerCase())).toEqual(bytes)
      }),
      { seed: 4648, numRuns: 500 },
    )
  })
})
