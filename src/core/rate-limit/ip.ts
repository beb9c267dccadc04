/**
 * The client's address, as the rate limiter keys it: the address the framework wrapper saw on the
 * socket, or an `X-Forwarded-For` entry when `trustedProxies` says the proxies in front are
 * trusted. IPv6 addresses are reduced to their network (`/64` by default), since one host
 * usually holds a whole `/64`. The socket's address itself is recorded in `peer.ts`.
 *
 * @module
 */

/** An address parsed to bytes: 4 for IPv4, 16 for IPv6. */
type AddressBytes = Uint8Array

function parseIPv4(text: string): AddressBytes | undefined {
  const parts = text.split(".")
  if (parts.length !== 4) return undefined
  const bytes = new Uint8Array(4)
  for (let i = 0; i < 4; i++) {
    const part = parts[i]!
    if (!/^\d{1,3}$/.test(part) || (part.length > 1 && part.startsWith("0"))) return undefined
    const value = Number(part)
    if (value > 255) return undefined
    bytes[i] = value
  }
  return bytes
}

function parseIPv6(text: string): AddressBytes | undefined {
  let body = text
  const zone = body.indexOf("%")
  if (zone !== -1) body = body.slice(0, zone)
  let tail: AddressBytes | undefined
  const lastColon = body.lastIndexOf(":")
  if (body.includes(".", lastColon)) {
    tail = parseIPv4(body.slice(lastColon + 1))
    if (!tail) return undefined
    body = body.slice(0, lastColon + 1) + "0:0"
  }
  const halves = body.split("::")
  if (halves.length > 2) return undefined
  const groupsOf = (half: string) => (half === "" ? [] : half.split(":"))
  const head = groupsOf(halves[0]!)
  const rest = halves.length === 2 ? groupsOf(halves[1]!) : []
  const missing = 8 - head.length - rest.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...rest]
  const bytes = new Uint8Array(16)
  for (let i = 0; i < 8; i++) {
    const group = groups[i]!
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return undefined
    const value = parseInt(group, 16)
    bytes[i * 2] = value >> 8
    bytes[i * 2 + 1] = value & 255
  }
  if (tail) bytes.set(tail, 12)
  return bytes
}

/** An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) is its IPv4 address. */
function unmapped(bytes: AddressBytes): AddressBytes {
  if (bytes.length === 16 && bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255) return bytes.slice(12)
  return bytes
}

/**
 * Parses an IPv4 or IPv6 address (brackets, a zone and an IPv4-mapped form accepted), or
 * `undefined` when it is not one.
 *
 * @example
 * ```ts
 * parseAddress("::ffff:192.0.2.1") // Uint8Array(4) [192, 0, 2, 1]
 * ```
 */
export function parseAddress(text: string): AddressBytes | undefined {
  let trimmed = text.trim()
  if (trimmed.startsWith("[")) {
    const end = trimmed.indexOf("]")
    if (end === -1) return undefined
    trimmed = trimmed.slice(1, end)
  } else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(trimmed)) {
    trimmed = trimmed.slice(0, trimmed.lastIndexOf(":"))
  }
  const bytes = trimmed.includes(":") ? parseIPv6(trimmed) : parseIPv4(trimmed)
  return bytes && unmapped(bytes)
}

/**
 * True for a loopback address: 127.0.0.0/8, `::1`, and their IPv4-mapped forms. Only a socket's
 * own peer address (see {@link peerAddressOf}) says a request came from this machine; a header
 * saying so can come from anywhere.
 *
 * @example
 * ```ts
 * isLoopbackAddress("::ffff:127.0.0.1") // true
 * isLoopbackAddress("192.0.2.2") // false
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6890#section-2.2.2
 */
export function isLoopbackAddress(text: string): boolean {
  const bytes = parseAddress(text)
  if (!bytes) return false
  if (bytes.length === 4) return bytes[0] === 127
  return bytes.every((byte, i) => byte === (i === 15 ? 1 : 0))
}

function masked(bytes: AddressBytes, prefix: number): AddressBytes {
  const out = bytes.slice()
  for (let i = 0; i < out.length; i++) {
    const bits = Math.min(8, Math.max(0, prefix - i * 8))
    out[i]! &= bits === 0 ? 0 : (0xff << (8 - bits)) & 0xff
  }
  return out
}

function format(bytes: AddressBytes): string {
  if (bytes.length === 4) return bytes.join(".")
  const groups: string[] = []
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16))
  return groups.join(":")
}

/**
 * The key of an address for the limiter: an IPv4 address as itself, an IPv6 address as its
 * network of `ipv6Prefix` bits (`2001:db8:1:2::/64`), so that every address of one host's
 * network shares one budget. `undefined` for something that is not an address.
 *
 * @param ipv6Prefix - Bits of an IPv6 address that name the client. @default 64
 * @example
 * ```ts
 * addressKey("2001:db8:1:2:aaaa::1") // "2001:db8:1:2:0:0:0:0/64"
 * addressKey("203.0.113.7") // "203.0.113.7"
 * ```
 */
export function addressKey(text: string, ipv6Prefix = 64): string | undefined {
  const bytes = parseAddress(text)
  if (!bytes) return undefined
  if (bytes.length === 4) return format(bytes)
  return `${format(masked(bytes, ipv6Prefix))}/${ipv6Prefix}`
}

/** A parsed CIDR range. */
interface Cidr {
  bytes: AddressBytes
  prefix: number
}

/**
 * Parses `trustedProxies` CIDR ranges (`10.0.0.0/8`, `fd00::/8`, or a single address). Throws a
 * `TypeError` naming the entry that is not one.
 *
 * @example
 * ```ts
 * const ranges = parseCidrs(["10.0.0.0/8", "::1"])
 * ```
 */
export function parseCidrs(entries: readonly string[]): Cidr[] {
  return entries.map((entry) => {
    const [address, bits] = entry.split("/")
    const bytes = parseAddress(address ?? "")
    const max = bytes?.length === 4 ? 32 : 128
    const prefix = bits === undefined ? max : Number(bits)
    if (!bytes || !Number.isInteger(prefix) || prefix < 0 || prefix > max) {
      throw new TypeError(`rateLimit.trustedProxies: "${entry}" is not an IP address or CIDR range; write e.g. "10.0.0.0/8" or "fd00::/8".`)
    }
    return { bytes: masked(bytes, prefix), prefix }
  })
}

function inRanges(address: string, ranges: readonly Cidr[]): boolean {
  const bytes = parseAddress(address)
  if (!bytes) return false
  return ranges.some((range) => range.bytes.length === bytes.length && masked(bytes, range.prefix).every((b, i) => b === range.bytes[i]))
}

/** Which proxies in front of the app are believed: a count of hops, or their address ranges. */
export type TrustedProxies = number | readonly Cidr[]

/**
 * The client's address for a request: the peer the wrapper recorded, unless trusted proxies sit
 * in front. With a count `n`, the `n`-th `X-Forwarded-For` entry from the right (the one the
 * outermost trusted proxy appended); with ranges, walking from the peer leftwards through
 * `X-Forwarded-For`, the first address outside them. `undefined` when nothing names the client.
 *
 * @example
 * ```ts
 * clientAddress("10.0.0.2", "198.51.100.1, 203.0.113.7", 1) // "203.0.113.7"
 * clientAddress("203.0.113.9", "198.51.100.1", 0) // "203.0.113.9": X-Forwarded-For is not believed
 * ```
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | null, trusted: TrustedProxies): string | undefined {
  if (trusted === 0 || (Array.isArray(trusted) && trusted.length === 0)) return peer
  const forwarded = (forwardedFor ?? "").split(",").map((entry) => entry.trim()).filter(Boolean)
  if (typeof trusted === "number") {
    if (forwarded.length === 0) return peer
    return forwarded[Math.max(0, forwarded.length - trusted)]
  }
  const ranges = trusted as readonly Cidr[]
  const chain = peer === undefined ? forwarded : [...forwarded, peer]
  for (let i = chain.length - 1; i >= 0; i--) if (!inRanges(chain[i]!, ranges)) return chain[i]
  return chain[0]
}
