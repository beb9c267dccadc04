import { describe, expect, it } from "vitest"
import { encode } from "../../../src/core/jwt/encode.js"
import { base32Encode } from "../../../src/core/second-factor/base32.js"
import { FACTOR_SECRET_SALT, openFactorSecret, sealFactorSecret } from "../../../src/core/second-factor/sealed-secret.js"
import { newTotpSecret } from "../../../src/core/second-factor/totp.js"

const current = "the-current-auth-secret-of-32-characters!"
const older = "the-older-auth-secret-before-the-rotation"

function forms(secret: Uint8Array): string[] {
  const buffer = Buffer.from(secret)
  return [base32Encode(secret), buffer.toString("base64url"), buffer.toString("base64"), buffer.toString("hex"), buffer.toString("latin1")]
}

describe("sealed factor secrets", () => {
  it("open to the same bytes", async () => {
    const secret = newTotpSecret()
    const sealed = await sealFactorSecret(secret, current)
    expect(await openFactorSecret(sealed, current)).toEqual(secret)
    expect(sealed.length).toBeLessThan(512) // ≈ 414 characters: the storage column must hold 512
  })

  it("never show the secret in any common encoding, and differ each time", async () => {
    const secret = newTotpSecret()
    const sealed = await sealFactorSecret(secret, current)
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]*){4}$/) // a compact JWE
    const decodedParts = sealed.split(".").map((part) => Buffer.from(part, "base64url").toString("latin1"))
    for (const form of forms(secret)) {
      expect(sealed).not.toContain(form)
      for (const part of decodedParts) expect(part).not.toContain(form)
    }
    expect(await sealFactorSecret(secret, current)).not.toBe(sealed)
  })

  it("rotation: sealed under the older secret opens with [current, older]; sealed with [current, older] opens with current alone", async () => {
    const secret = newTotpSecret()
    const beforeRotation = await sealFactorSecret(secret, older)
    expect(await openFactorSecret(beforeRotation, [current, older])).toEqual(secret)
    expect(await openFactorSecret(beforeRotation, current)).toBeNull()
    const afterRotation = await sealFactorSecret(secret, [current, older])
    expect(await openFactorSecret(afterRotation, current)).toEqual(secret)
    expect(await openFactorSecret(afterRotation, older)).toBeNull()
  })

  it("refuse with null what they cannot open: another secret, an altered seal, garbage, a session token", async () => {
    const sealed = await sealFactorSecret(newTotpSecret(), current)
    expect(await openFactorSecret(sealed, "some-other-secret-entirely-0123456789")).toBeNull()
    const parts = sealed.split(".")
    const ciphertext = parts[3]!
    parts[3] = (ciphertext[0] === "A" ? "B" : "A") + ciphertext.slice(1)
    expect(await openFactorSecret(parts.join("."), current)).toBeNull()
    expect(await openFactorSecret("not.a.sealed.secret.at-all", current)).toBeNull()
    expect(await openFactorSecret("", current)).toBeNull()
    // The same auth secret with the session cookie's salt makes another key.
    const session = await encode({ token: { secret: "AAAA" }, secret: current, salt: "authjs.session-token" })
    expect(await openFactorSecret(session, current)).toBeNull()
    // Sealed with the right key but without a secret claim.
    const empty = await encode({ token: { sub: "user-1" }, secret: current, salt: FACTOR_SECRET_SALT })
    expect(await openFactorSecret(empty, current)).toBeNull()
  })

  it("throw MissingSecret without an auth secret: a configuration error, not a refusal", async () => {
    await expect(sealFactorSecret(newTotpSecret(), "")).rejects.toMatchObject({ type: "MissingSecret" })
    await expect(openFactorSecret("x.y.z.w.v", [])).rejects.toMatchObject({ type: "MissingSecret" })
  })

  it("do not expire: a seal opens a century later than a session would", async () => {
    const sealed = await sealFactorSecret(newTotpSecret(), current)
    const [header, encryptedKey] = sealed.split(".")
    expect(encryptedKey).toBe("") // dir: the claims, exp included, are only inside the ciphertext
    expect(JSON.parse(Buffer.from(header!, "base64url").toString())).toMatchObject({ alg: "dir", enc: "A256CBC-HS512" })
    const realNow = Date.now
    try {
      Date.now = () => realNow() + 99 * 365 * 24 * 60 * 60 * 1000
      expect(await openFactorSecret(sealed, current)).toHaveLength(20)
    } finally {
      Date.now = realNow
    }
  })
})
