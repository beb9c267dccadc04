import { describe, expect, it } from "vitest"
import { defaultNormalizer } from "../../src/providers/email-config.js"

describe("defaultNormalizer", () => {
  it.each([
    ["ada@example.com", "ada@example.com"],
    [" Ada@Example.COM ", "ada@example.com"],
    ["\tada@example.com\n", "ada@example.com"],
    ["\u00a0ada@example.com", "ada@example.com"], // NBSP: NFKC makes it a space, then trimmed
    ["ＡＤＡ@ｅｘａｍｐｌｅ.com", "ada@example.com"], // fullwidth letters → ASCII (NFKC)
    ["ﬁ@example.com", "fi@example.com"], // ligature decomposed
    ["Ǆ@example.com", "dž@example.com"], // compatibility digraph → d + z-caron
    ["a@b.test,evil.test", "a@b.test"], // everything after a comma in the domain is dropped
    ["a@b,c", "a@b"],
  ])("%j → %j", (input, expected) => {
    expect(defaultNormalizer(input)).toBe(expected)
  })

  it.each([
    ["", "Missing email from request body."],
    [undefined, "Missing email from request body."],
    [null, "Missing email from request body."],
    ["a", "Invalid email address format."],
    ["a@", "Invalid email address format."],
    ["@b.c", "Invalid email address format."],
    ["a@b@c", "Invalid email address format."],
    ["a@b,c@evil.test", "Invalid email address format."], // two @, even with the comma cut
    ["a@,b.c", "Invalid email address format."], // empty domain once the comma part is dropped
    ['"a"@b.c', "Invalid email address format."],
    ['a@b.c"', "Invalid email address format."],
    ["a＠b.c", "Invalid email address format."], // U+FF20 FULLWIDTH COMMERCIAL AT
    ["ａ＠b.c", "Invalid email address format."],
    ["a﹫b.c", "Invalid email address format."], // U+FE6B SMALL COMMERCIAL AT
    ["a b@c.d", "Invalid email address format."],
    ["a@b\u3000c.d", "Invalid email address format."], // ideographic space: NFKC makes it a space
    ["a@b.c\r\nBcc: eve@evil.test", "Invalid email address format."], // header injection
    ["a\u0000@b.c", "Invalid email address format."],
    ["   ", "Invalid email address format."],
  ])("%j is refused: %s", (input, message) => {
    expect(() => defaultNormalizer(input)).toThrow(new TypeError(message))
  })
})

describe("defaultNormalizer and the address grammar", () => {
  it.each([
    ["Ada@Bücher.Example", "ada@xn--bcher-kva.example"],
    ["ada@XN--BCHER-KVA.example", "ada@xn--bcher-kva.example"],
  ])("%j → %j (IDN domains as A-labels)", (input, expected) => {
    expect(defaultNormalizer(input)).toBe(expected)
  })

  it.each([
    ["x<evil@evil.test>", "syntax"],
    ["ada(evil)@example.com", "syntax"],
    ["ada@exаmple.com", "mixed-script"],
    ["ada@exa\u200Bmple.com", "character"],
    ["ad\u00ADa@example.com", "character"],
    [`${"a".repeat(65)}@example.com`, "length"],
    ["ada@127.0.0.1", "domain"],
  ])("%j is refused by the grammar (%s)", (input, problem) => {
    expect(() => defaultNormalizer(input)).toThrow(new TypeError("Invalid email address format."))
    try {
      defaultNormalizer(input)
    } catch (error) {
      expect((error as Error).cause).toEqual({ problem })
    }
  })
})
