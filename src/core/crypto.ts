/**
 * Hashing and random values, on `node:crypto` when the runtime has it (synchronous, fast) and on
 * WebCrypto otherwise. Kept synchronous: the portable SHA-256 is a small pure implementation.
 *
 * @module
 */
type NodeCrypto = typeof import("node:crypto")

/**
 * `node:crypto` when the runtime has it. Next.js's edge sandbox defines a `process` whose Node APIs
 * throw when touched (`process.getBuiltinModule` included), hence the try.
 */
function lookupNodeCrypto(): NodeCrypto | undefined {
  try {
    const crypto = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.("node:crypto") as
      | NodeCrypto
      | undefined
    // A runtime that names the module but lacks what is used here takes the portable path.
    return typeof crypto?.randomFillSync === "function" && typeof crypto.createHash === "function" && typeof crypto.randomUUID === "function" ? crypto : undefined
  } catch {
    // A runtime whose getBuiltinModule throws (a sandbox refusing built-ins) has no node:crypto.
    return undefined
  }
}

const nodeCrypto = /* @__PURE__ */ lookupNodeCrypto()

type NodeBuffer = typeof import("node:buffer").Buffer

/** Node's Buffer beside its crypto: hex encoding in one native call instead of 2n concatenations. */
function lookupNodeBuffer(): NodeBuffer | undefined {
  try {
    const buffer = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.("node:buffer") as
      | { Buffer?: NodeBuffer }
      | undefined
    return typeof buffer?.Buffer?.from === "function" ? buffer.Buffer : undefined
  } catch {
    return undefined
  }
}

const nodeBuffer = nodeCrypto && /* @__PURE__ */ lookupNodeBuffer()

const oneShotHash = (nodeCrypto as { hash?: (algorithm: string, data: string, encoding: "hex") => string } | undefined)?.hash

const hexDigits = "0123456789abcdef"

function toHex(bytes: Uint8Array): string {
  let hex = ""
  for (let i = 0; i < bytes.length; i++) hex += hexDigits[bytes[i]! >> 4]! + hexDigits[bytes[i]! & 15]!
  return hex
}

const RANDOM_POOL_BYTES = 4096
let randomPool: Uint8Array | undefined
let randomOffset = RANDOM_POOL_BYTES

/**
 * `byteLength` random bytes as lowercase hex.
 *
 * @example
 * ```ts
 * randomHex(32).length // 64
 * ```
 */
export function randomHex(byteLength: number): string {
  if (nodeCrypto && byteLength <= RANDOM_POOL_BYTES) {
    // One CSPRNG call per pool instead of one per token (a CSRF token is minted on every first
    // visit); each slice is handed out once and copied into the returned string.
    if (randomOffset + byteLength > RANDOM_POOL_BYTES || !randomPool) {
      randomPool = nodeCrypto.randomFillSync(new Uint8Array(RANDOM_POOL_BYTES))
      randomOffset = 0
    }
    const hex = nodeBuffer
      ? nodeBuffer.from(randomPool.buffer, randomPool.byteOffset + randomOffset, byteLength).toString("hex")
      : toHex(randomPool.subarray(randomOffset, randomOffset + byteLength))
    randomOffset += byteLength
    return hex
  }
  return toHex(globalThis.crypto.getRandomValues(new Uint8Array(byteLength)))
}

/**
 * Lowercase hex SHA-256 of a UTF-8 string.
 *
 * @example
 * ```ts
 * sha256Hex("abc") // "ba7816bf…"
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6234
 */
export function sha256Hex(text: string): string {
  // `crypto.hash` (Node 20.12+) is the one-shot form: no Hash object per call.
  if (oneShotHash) return oneShotHash("sha256", text, "hex")
  if (nodeCrypto) return nodeCrypto.createHash("sha256").update(text).digest("hex")
  return toHex(sha256Portable(new TextEncoder().encode(text)))
}

/**
 * A random UUID v4.
 *
 * @example
 * ```ts
 * randomUUID() // "3b241101-e2bb-4255-8caf-4136c566a962"
 * ```
 */
export function randomUUID(): string {
  return nodeCrypto ? nodeCrypto.randomUUID() : globalThis.crypto.randomUUID()
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
])

/** FIPS 180-4 SHA-256, for runtimes without node:crypto (WebCrypto's digest is async only). */
function sha256Portable(message: Uint8Array): Uint8Array {
  const bitLength = message.length * 8
  const padded = new Uint8Array(((message.length + 9 + 63) >> 6) << 6)
  padded.set(message)
  padded[message.length] = 0x80
  const view = new DataView(padded.buffer)
  view.setUint32(padded.length - 8, Math.floor(bitLength / 2 ** 32))
  view.setUint32(padded.length - 4, bitLength >>> 0)
  const hash = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19])
  const w = new Uint32Array(64)
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4)
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!, b = w[i - 2]!
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3)
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10)
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0
    }
    // `hash` holds the eight words of the state, by construction.
    let [a, b, c, d, e, f, g, h] = hash as Uint32Array & [number, number, number, number, number, number, number, number]
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))
      const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) >>> 0
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) >>> 0
      h = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0
    }
    hash[0]! += a; hash[1]! += b; hash[2]! += c; hash[3]! += d; hash[4]! += e; hash[5]! += f; hash[6]! += g; hash[7]! += h
  }
  const out = new Uint8Array(32)
  const outView = new DataView(out.buffer)
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, hash[i]!)
  return out
}

/** @internal exposed for tests of the portable path */
export const __portable = { sha256: (text: string) => toHex(sha256Portable(new TextEncoder().encode(text))) }
