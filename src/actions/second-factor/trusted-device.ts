/**
 * "Remember this device": a cookie sealed with the secret (the cookie's name as salt) that names
 * the user and a fingerprint of their authenticator apps. The sign-in tail's `deviceTrusted` guard
 * skips the second factor when both still match and the user's sessions were not revoked since it
 * was made (a back-channel logout of the user): a factor added or removed voids every trusted
 * device of the user. The cookie only reports; the machine decides.
 *
 * @module
 */
import { decode, encode } from "../../core/jwt/index.js"
import { sha256Hex } from "../../core/crypto.js"
import type { AuthOptions } from "../../core/options.js"
import type { AdapterFactor } from "../../adapters.js"
import type { Cookie } from "../../types.js"

/** What a trusted-device cookie names: the user, their factors' fingerprint, and when it was made (epoch ms). */
export interface TrustedDevice {
  userId: string
  fingerprint: string
  issuedAt: number
}

/**
 * The fingerprint of a user's authenticator apps: it changes when one is added or removed.
 *
 * @example
 * ```ts
 * factorsFingerprint("u1", await adapter.listFactorsByUserId("u1")) // "5f0c…" (32 hex digits)
 * ```
 */
export function factorsFingerprint(userId: string, factors: readonly Pick<AdapterFactor, "id">[]): string {
  return sha256Hex(`${userId}:${factors.map((factor) => factor.id).sort().join(",")}`).slice(0, 32)
}

/**
 * The trusted-device cookie of this request, opened, or `undefined` when there is none or it does
 * not open (tampered, expired, made with another secret).
 *
 * @example
 * ```ts
 * const trusted = await readTrustedDevice(options) // { userId: "u1", fingerprint: "5f0c…" }
 * ```
 */
export async function readTrustedDevice(options: AuthOptions): Promise<TrustedDevice | undefined> {
  const { name } = options.cookies.trustedDevice
  const value = options.request.cookies[name]
  if (!value) return undefined
  try {
    const payload = (await decode({ token: value, secret: options.secret, salt: name })) as { u?: unknown; f?: unknown; t?: unknown } | null
    return typeof payload?.u === "string" && typeof payload.f === "string" && typeof payload.t === "number" ? { userId: payload.u, fingerprint: payload.f, issuedAt: payload.t } : undefined
  } catch {
    return undefined
  }
}

/**
 * A new trusted-device cookie for the user, living `days` days.
 *
 * @example
 * ```ts
 * const cookie = await trustedDeviceCookie(options, { userId: "u1", fingerprint }, 30)
 * ```
 */
export async function trustedDeviceCookie(options: AuthOptions, device: Omit<TrustedDevice, "issuedAt">, days: number): Promise<Cookie> {
  const { name, options: cookieOptions } = options.cookies.trustedDevice
  const maxAge = days * 24 * 60 * 60
  const value = await encode({ token: { u: device.userId, f: device.fingerprint, t: Date.now() } as never, secret: options.secret, salt: name, maxAge })
  return { name, value, options: { ...cookieOptions, maxAge, expires: new Date(Date.now() + maxAge * 1000) } }
}
