import { domainToASCII, domainToUnicode } from "node:url"
import { describe, expect, it } from "vitest"
import { parseEmailAddress, type EmailAddressProblem } from "../../src/core/email-address.js"
import { decodePunycode } from "../../src/core/punycode.js"

/** A small deterministic PRNG (mulberry32), so a failing sample can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe("parseEmailAddress: accepted, in canonical form", () => {
  it.each([
    ["ada@example.com", "ada@example.com"],
    ["Ada@Example.COM", "Ada@example.com"], // the local part keeps its case; the domain does not
    ["o'brien+tag@mail.example.org", "o'brien+tag@mail.example.org"],
    ["a.b-c_d@e-f.g", "a.b-c_d@e-f.g"],
    ["!#$%&'*+/=?^_`{|}~-@example.com", "!#$%&'*+/=?^_`{|}~-@example.com"],
    ["a@b", "a@b"], // single-label domains are host names too
    ["user@bücher.example", "user@xn--bcher-kva.example"],
    ["user@XN--BCHER-KVA.example", "user@xn--bcher-kva.example"],
    ["user@пример.рф", "user@xn--e1afmkfd.xn--p1ai"], // Cyrillic labels, each of one script
    ["ΑΘΗΝΑ@παράδειγμα.gr", "ΑΘΗΝΑ@xn--hxajbheg2az3al.gr"],
    ["dž@example.com", "dž@example.com"], // RFC 6531 local part
    ["コーヒー@例え.jp", "コーヒー@xn--r8jz45g.jp"],
    ["abcテスト@例え.jp", "abcテスト@xn--r8jz45g.jp"], // Latin + Katakana: a "Highly Restrictive" mix
    ["user@faß.de", "user@xn--fa-hia.de"], // nontransitional IDNA: ß stays ß
    [`${"a".repeat(64)}@example.com`, `${"a".repeat(64)}@example.com`],
    [`a@${"b".repeat(63)}.com`, `a@${"b".repeat(63)}.com`],
    [`${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}`, `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}`], // 254 octets
  ])("%j → %j", (input, address) => {
    const parsed = parseEmailAddress(input)
    expect(parsed).toEqual({ ok: true, address, localPart: address.slice(0, address.lastIndexOf("@")), domain: address.slice(address.lastIndexOf("@") + 1) })
    // The canonical form parses to itself.
    expect(parseEmailAddress(address)).toEqual(parsed)
  })
})

describe("parseEmailAddress: refused", () => {
  it.each<[string, EmailAddressProblem]>([
    ["", "syntax"],
    ["ada", "syntax"],
    ["ada@", "domain"],
    ["@example.com", "syntax"],
    ["a@b@example.com", "syntax"],
    ["x<evil@evil.test>", "syntax"],
    ["<ada@example.com>", "syntax"],
    ["Ada <ada@example.com>", "character"], // the space
    ['"ada"@example.com', "syntax"],
    ['"a@b"@example.com', "syntax"],
    ["ada(comment)@example.com", "syntax"],
    ["ada@example.com(comment)", "domain"],
    ["friends:ada@example.com;", "syntax"],
    ["ada,eve@example.com", "syntax"],
    ["ada\\@example.com", "syntax"],
    [".ada@example.com", "syntax"],
    ["ada.@example.com", "syntax"],
    ["a..da@example.com", "syntax"],
    ["ada@[127.0.0.1]", "domain"],
    ["ada@127.0.0.1", "domain"],
    ["ada@0x7f", "domain"], // the URL parser's IPv4 reading
    ["ada@example.123", "domain"],
    ["ada@example.com:25", "domain"],
    ["ada@example.com/path", "domain"],
    ["ada@example.com.", "domain"],
    ["ada@.example.com", "domain"],
    ["ada@exa..mple.com", "domain"],
    ["ada@-example.com", "domain"],
    ["ada@example-.com", "domain"],
    ["ada@ex_ample.com", "domain"],
    ["ada@xn--a.com", "domain"], // not valid Punycode
    ["ada@ex%61mple.com", "domain"],
    ["ada@example.com\u3002evil", "character"], // ideographic full stop: the URL parser would read a dot
    ["ada@exаmple.com", "mixed-script"], // Cyrillic а
    ["ada@gοogle.com", "mixed-script"], // Greek ο
    ["ada@xn--exmple-4nf.com", "mixed-script"], // the A-label of exаmple
    ["аda@example.com", "mixed-script"], // Cyrillic а in the local part
    ["ada@ex৪mple.com", "mixed-script"], // a Bengali digit in a Latin label
    ["ada@테스트テスト.jp", "mixed-script"], // Hangul + Katakana is no allowed mix
    ["ada@exa\u200Bmple.com", "character"], // zero-width space: the URL parser would drop it
    ["a\u200Bda@example.com", "character"],
    ["ada@exa\u200Cmple.com", "character"], // zero-width non-joiner
    ["ada@exa\u200Dmple.com", "character"], // zero-width joiner
    ["ada@exam\u00ADple.com", "character"], // soft hyphen: the URL parser would drop it
    ["ad\u00ADa@example.com", "character"],
    ["ada\u202E@example.com", "character"], // right-to-left override
    ["ada@example\u200E.com", "character"], // left-to-right mark
    ["ada@example.com\u2066", "character"], // left-to-right isolate
    ["\uFEFFada@example.com", "character"],
    ["ada@example.com\r\nBcc: eve@evil.test", "character"],
    ["ada\u0000@example.com", "character"],
    ["a da@example.com", "character"],
    ["ada@exa\u00A0mple.com", "character"],
    ["ada\uD800@example.com", "character"], // a lone surrogate
    ["ad\u{1F600}a@example.com", "character"], // a symbol
    ["e\u0301@example.com", "character"], // not NFC (é is U+00E9)
    [`${"a".repeat(65)}@example.com`, "length"],
    [`${"é".repeat(33)}@example.com`, "length"], // 66 octets in UTF-8
    [`a@${"b".repeat(64)}.com`, "length"],
    [`${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(62)}`, "length"], // 255 octets
    [`${"a".repeat(900 * 1024)}@example.com`, "length"],
  ])("%j: %s", (input, problem) => {
    expect(parseEmailAddress(input)).toEqual({ ok: false, problem })
  })

  it("refuses what is not a string", () => {
    expect(parseEmailAddress(42 as unknown as string)).toEqual({ ok: false, problem: "syntax" })
    expect(parseEmailAddress(undefined as unknown as string)).toEqual({ ok: false, problem: "syntax" })
  })
})

describe("parseEmailAddress: properties", () => {
  const alphabet = [..."abcdefghijklmnopqrstuvwxyz0123456789-.üéßøж∂λπжд日本語テスト한국"]
  it("on random inputs: every accepted address is canonical, parses to itself and keeps its local part", () => {
    const next = random(7)
    const pick = (length: number) => Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join("")
    let accepted = 0
    for (let run = 0; run < 2000; run++) {
      const local = pick(1 + Math.floor(next() * 6))
      const input = `${local}@${pick(1 + Math.floor(next() * 14))}`
      const parsed = parseEmailAddress(input)
      if (!parsed.ok) continue
      accepted++
      expect(parsed.localPart).toBe(local)
      expect(parsed.domain).toMatch(/^[a-z0-9.-]+$/)
      expect(parsed.address).toBe(`${parsed.localPart}@${parsed.domain}`)
      expect(parsed.domain).toBe(domainToASCII(parsed.domain))
      expect(parseEmailAddress(parsed.address)).toEqual(parsed)
    }
    expect(accepted).toBeGreaterThan(100)
  })
})

describe("decodePunycode", () => {
  it.each([
    ["bcher-kva", "bücher"],
    ["exmple-4nf", "exаmple"],
    ["e1afmkfd", "пример"],
    ["r8jz45g", "例え"],
    ["fa-hia", "faß"],
  ])("%j → %j", (input, output) => {
    expect(decodePunycode(input)).toBe(output)
  })

  it.each(["ab-+", "99999999999", "zzzzzzzzzzzzzzzzzzzz", "é-a"])("%j is not Punycode", (input) => {
    expect(decodePunycode(input)).toBeUndefined()
  })

  it("agrees with node:url's domainToUnicode on random labels", () => {
    const next = random(11)
    const ranges = [[0x61, 0x7a], [0xe0, 0x24f], [0x3b1, 0x3c9], [0x430, 0x44f], [0x5d0, 0x5ea], [0x3041, 0x3096], [0x4e00, 0x9fff], [0xac00, 0xd7a3], [0x1f600, 0x1f64f]]
    for (let run = 0; run < 1000; run++) {
      const label = Array.from({ length: 1 + Math.floor(next() * 12) }, () => {
        const [low, high] = ranges[Math.floor(next() * ranges.length)]!
        return String.fromCodePoint(low! + Math.floor(next() * (high! - low! + 1)))
      }).join("")
      const ascii = domainToASCII(label)
      if (!ascii.startsWith("xn--")) continue
      expect(decodePunycode(ascii.slice(4)), label).toBe(domainToUnicode(ascii))
    }
  })
})
