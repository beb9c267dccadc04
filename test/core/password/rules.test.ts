import { describe, expect, it, vi } from "vitest"
import { checkNewPassword, checkPasswordRules, normalizePassword, type PasswordCheck } from "../../../src/core/password/rules.js"

describe("the length rules (NIST SP 800-63B)", () => {
  it("accept 8 to 128 code points by default, with no composition rules", () => {
    expect(checkPasswordRules("aaaaaaaa")).toEqual({ ok: true })
    expect(checkPasswordRules("a".repeat(128))).toEqual({ ok: true })
    expect(checkPasswordRules("aaaaaaa")).toEqual({ ok: false, reason: "too-short" })
    expect(checkPasswordRules("a".repeat(129))).toEqual({ ok: false, reason: "too-long" })
    expect(checkPasswordRules("")).toEqual({ ok: false, reason: "too-short" })
  })

  it("count code points, not UTF-16 units", () => {
    expect("😀".repeat(7).length).toBe(14)
    expect(checkPasswordRules("😀".repeat(7))).toEqual({ ok: false, reason: "too-short" })
    expect(checkPasswordRules("😀".repeat(8))).toEqual({ ok: true })
    expect(checkPasswordRules("😀".repeat(10), { maxLength: 9 })).toEqual({ ok: false, reason: "too-long" })
  })

  it("count after NFKC: decomposed accents shrink, compatibility ligatures grow", () => {
    // e + combining acute is 2 code points typed, 1 (é) once normalised.
    expect(checkPasswordRules("e\u0301".repeat(4))).toEqual({ ok: false, reason: "too-short" })
    expect(checkPasswordRules("\u00e9".repeat(8))).toEqual({ ok: true })
    // The ligature ﬃ (1 code point) is "ffi" (3) under NFKC.
    expect(checkPasswordRules("\ufb03".repeat(3))).toEqual({ ok: true })
    expect(checkPasswordRules("\ufb03".repeat(3), { maxLength: 8 })).toEqual({ ok: false, reason: "too-long" })
  })

  it("refuse what is not a string", () => {
    for (const value of [42, null, undefined, ["password1"], { length: 9 }]) expect(checkPasswordRules(value)).toEqual({ ok: false, reason: "not-a-string" })
  })

  it("refuse a huge string as too long without normalising it whole", () => {
    const normalize = vi.spyOn(String.prototype, "normalize")
    expect(checkPasswordRules("a".repeat(5_000_000))).toEqual({ ok: false, reason: "too-long" })
    expect(normalize).not.toHaveBeenCalled()
    normalize.mockRestore()
  })

  it("take other limits, and refuse limits that make no sense", () => {
    expect(checkPasswordRules("a".repeat(14), { minLength: 15 })).toEqual({ ok: false, reason: "too-short" })
    expect(checkPasswordRules("a".repeat(15), { minLength: 15 })).toEqual({ ok: true })
    expect(() => checkPasswordRules("password", { minLength: 0 })).toThrow(RangeError)
    expect(() => checkPasswordRules("password", { minLength: 8.5 })).toThrow(RangeError)
    expect(() => checkPasswordRules("password", { minLength: 20, maxLength: 10 })).toThrow(RangeError)
  })

  it("normalise with NFKC", () => {
    expect(normalizePassword("cafe\u0301")).toBe("caf\u00e9")
    expect(normalizePassword("\uff50\uff41\uff53\uff53")).toBe("pass") // full-width letters
  })
})

describe("checkNewPassword", () => {
  const breached = new Set(["password1", "caf\u00e9caf\u00e9"])
  const notBreached: PasswordCheck<"breached"> = async (password) => (breached.has(password) ? { ok: false, reason: "breached" } : { ok: true })

  it("runs the app's check on the normalised password once the length rules pass", async () => {
    expect(await checkNewPassword("password1", { checkPassword: notBreached })).toEqual({ ok: false, reason: "breached" })
    expect(await checkNewPassword("cafe\u0301cafe\u0301", { checkPassword: notBreached })).toEqual({ ok: false, reason: "breached" })
    expect(await checkNewPassword("correct horse", { checkPassword: notBreached })).toEqual({ ok: true })
  })

  it("does not run the check when the rules already refuse", async () => {
    const check = vi.fn(notBreached)
    expect(await checkNewPassword("short", { checkPassword: check })).toEqual({ ok: false, reason: "too-short" })
    expect(await checkNewPassword(7, { checkPassword: check })).toEqual({ ok: false, reason: "not-a-string" })
    expect(check).not.toHaveBeenCalled()
  })

  it("without a check, is the length rules", async () => {
    expect(await checkNewPassword("password1")).toEqual({ ok: true })
    expect(await checkNewPassword("a".repeat(65), { maxLength: 64 })).toEqual({ ok: false, reason: "too-long" })
  })

  it("lets a failing check's error through: failing open or closed is the check's decision", async () => {
    await expect(checkNewPassword("correct horse", { checkPassword: () => Promise.reject(new Error("list unreachable")) })).rejects.toThrow("list unreachable")
  })
})
