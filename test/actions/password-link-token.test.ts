import { describe, expect, it, vi } from "vitest"
import { linkBindings, openPasswordLink, sealPasswordLink } from "../../src/actions/password/link-token.js"

const secret = "a-link-token-test-secret-of-enough-length"

describe("the Password provider's link tokens", () => {
  it("open for their own purpose with the claims sealed, and for no other", async () => {
    const [bound] = await linkBindings(secret, "$scrypt$ln=10,r=8,p=1$salt$hash")
    const token = await sealPasswordLink(secret, "reset-password", { userId: "u1", email: "ada@example.test", bound: bound! })
    expect(await openPasswordLink(secret, "reset-password", token)).toEqual({ ok: true, claims: { userId: "u1", email: "ada@example.test", bound } })
    expect(await openPasswordLink(secret, "verify-email", token)).toEqual({ ok: false, reason: "invalid" })
    expect(await openPasswordLink("another-secret-of-enough-length-too", "reset-password", token)).toEqual({ ok: false, reason: "invalid" })
    expect(await openPasswordLink(secret, "reset-password", token.slice(0, -2))).toEqual({ ok: false, reason: "invalid" })
    expect(await openPasswordLink(secret, "reset-password", undefined)).toEqual({ ok: false, reason: "missing" })
  })

  it("binds to the state they may change, under a rotated secret too, and expire", async () => {
    const [bound] = await linkBindings(secret, "old hash")
    const rotated = await linkBindings(["a-newer-secret-of-enough-length-here", secret], "old hash")
    expect(rotated).toContain(bound)
    expect(await linkBindings(secret, "new hash")).not.toContain(bound)
    const token = await sealPasswordLink(secret, "change-email", { userId: "u1", email: "ada@example.test", newEmail: "ada@new.test", bound: bound! })
    expect(await openPasswordLink(secret, "change-email", token)).toMatchObject({ ok: true, claims: { newEmail: "ada@new.test" } })
    vi.useFakeTimers({ now: Date.now() + 25 * 60 * 60 * 1000 })
    try {
      expect(await openPasswordLink(secret, "change-email", token)).toEqual({ ok: false, reason: "expired" })
    } finally {
      vi.useRealTimers()
    }
  })
})
