/**
 * What one refresh of a refresh token produced, as the refresh store holds it: under a key derived
 * from the refresh token (its SHA-256), sealed (AES-256-GCM, WebCrypto) with a key derived from
 * the same token, so the store only ever holds ciphertext that nobody without that refresh token
 * can open. Only the token refresh loads this; the stores themselves (`refresh-store.ts`) are
 * exported by the package's entry.
 *
 * @module
 */
import { fromBase64Url, toBase64Url } from "./base64.js"
import { sha256Hex } from "./crypto.js"
import type { RefreshResult } from "./refresh-store.js"

/**
 * The store key of a refresh token: its SHA-256, so the store never sees the token.
 *
 * @example
 * ```ts
 * refreshKey("rt-123") // 64 hex characters
 * ```
 */
export function refreshKey(refreshToken: string): string {
  return sha256Hex(`authflow refresh key\0${refreshToken}`)
}

const encoder = new TextEncoder()

async function sealingKey(refreshToken: string, usage: "encrypt" | "decrypt"): Promise<CryptoKey> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(`authflow refresh result\0${refreshToken}`))
  return crypto.subtle.importKey("raw", digest, "AES-GCM", false, [usage])
}


/**
 * Seals a refresh result for the store (AES-256-GCM), with a key only holders of `refreshToken`
 * can derive.
 *
 * @example
 * ```ts
 * const sealed = await sealResult("rt-old", { tokens: { access_token: "a", refresh_token: "rt-new" } })
 * await openResult("rt-old", sealed) // { tokens: { access_token: "a", refresh_token: "rt-new" } }
 * ```
 */
export async function sealResult(refreshToken: string, result: RefreshResult): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const body = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await sealingKey(refreshToken, "encrypt"), encoder.encode(JSON.stringify(result))))
  return `${toBase64Url(iv)}.${toBase64Url(body)}`
}

/**
 * Opens a result sealed by {@link sealResult}; `undefined` when it does not open with this refresh
 * token (tampered, or not a result).
 *
 * @example
 * ```ts
 * await openResult("rt-old", sealed) // RefreshResult | undefined
 * ```
 */
export async function openResult(refreshToken: string, sealed: string): Promise<RefreshResult | undefined> {
  try {
    const [iv, body] = sealed.split(".").map(fromBase64Url)
    if (!iv || !body) return undefined
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv }, await sealingKey(refreshToken, "decrypt"), body)
    const result = JSON.parse(new TextDecoder().decode(plain)) as RefreshResult
    return result && typeof result === "object" && ("tokens" in result || "failure" in result) ? result : undefined
  } catch {
    return undefined
  }
}
