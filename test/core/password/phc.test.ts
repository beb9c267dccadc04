import { describe, expect, it } from "vitest"
import { decimalParam, decodePhcBase64, encodePhcBase64, formatPhc, parsePhc } from "../../../src/core/password/phc.js"

const salt = Uint8Array.from({ length: 16 }, (_, i) => i * 17)
const hash = Uint8Array.from({ length: 32 }, (_, i) => 255 - i)

describe("PHC base64", () => {
  it("is standard base64 without padding, as node writes it", () => {
    for (const length of [0, 1, 2, 3, 16, 32]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 97 + 251) & 255)
      const text = encodePhcBase64(bytes)
      expect(text).toBe(Buffer.from(bytes).toString("base64").replace(/=+$/, ""))
      if (length > 0) expect(Array.from(decodePhcBase64(text)!)).toEqual(Array.from(bytes))
    }
  })

  it("refuses padding, the URL alphabet, an impossible length and non-zero trailing bits", () => {
    expect(decodePhcBase64("+/8")).toEqual(new Uint8Array([251, 255]))
    expect(decodePhcBase64("+/8=")).toBeUndefined()
    expect(decodePhcBase64("-_8")).toBeUndefined()
    expect(decodePhcBase64("+/8AA")).toBeUndefined() // 5 characters: no byte count gives that
    expect(decodePhcBase64("+/9")).toBeUndefined() // decodes to the same bytes as "+/8" if read loosely
    expect(decodePhcBase64("")).toBeUndefined()
  })
})

describe("PHC strings", () => {
  it("round-trip through formatPhc and parsePhc", () => {
    const text = formatPhc("scrypt", [["ln", 17], ["r", 8], ["p", 1]], salt, hash)
    expect(text).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
    const phc = parsePhc(text)!
    expect(phc.id).toBe("scrypt")
    expect([...phc.params]).toEqual([["ln", "17"], ["r", "8"], ["p", "1"]])
    expect(Array.from(phc.salt)).toEqual(Array.from(salt))
    expect(Array.from(phc.hash)).toEqual(Array.from(hash))
  })

  it.each([
    ["no leading $", "scrypt$ln=17$AAAAAAAAAAA$AAAAAAAAAAA"],
    ["a missing hash", "$scrypt$ln=17,r=8,p=1$AAAAAAAAAAA"],
    ["a version field", "$argon2id$v=19$m=65536$AAAAAAAAAAA$AAAAAAAAAAA"],
    ["an upper-case id", "$SCRYPT$ln=17$AAAAAAAAAAA$AAAAAAAAAAA"],
    ["a duplicate parameter", "$scrypt$ln=17,ln=18$AAAAAAAAAAA$AAAAAAAAAAA"],
    ["an empty parameter", "$scrypt$ln=17,$AAAAAAAAAAA$AAAAAAAAAAA"],
    ["a parameter without a value", "$scrypt$ln$AAAAAAAAAAA$AAAAAAAAAAA"],
    ["an empty salt", "$scrypt$ln=17$$AAAAAAAAAAA"],
    ["a padded hash", "$scrypt$ln=17$AAAAAAAAAAA$AAAAAAAAAAA="],
    ["trailing text", "$scrypt$ln=17$AAAAAAAAAAA$AAAAAAAAAAA$"],
    ["an overlong string", `$scrypt$ln=17$AAAAAAAAAAA$${"A".repeat(2000)}`],
  ])("refuse %s", (_case, text) => {
    expect(parsePhc(text)).toBeUndefined()
  })

  it("read decimal parameters without sign or leading zero", () => {
    expect(decimalParam("600000")).toBe(600000)
    expect(decimalParam("0")).toBe(0)
    for (const bad of ["017", "-1", "+1", "1e3", "1.5", "", undefined]) expect(decimalParam(bad)).toBeUndefined()
  })
})
