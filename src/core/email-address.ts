/**
 * The one grammar of the email addresses authflow mails sign-in links to, and their canonical form.
 *
 * @module
 */
import { decodePunycode } from "./punycode.js"

/**
 * Why an address was refused: `length` (RFC 5321 limits), `syntax` (not a dot-atom `local@domain`:
 * a display name, angle brackets, comment, quotes, group, stray dot or `@`), `character` (control,
 * space, zero-width, soft hyphen, bidi, symbol, or a local part not in NFC), `domain` (not a host
 * name: address literal, IP address, port, bad A-label or hyphen), `mixed-script`.
 */
export type EmailAddressProblem = "length" | "syntax" | "character" | "domain" | "mixed-script"

/** The result of {@link parseEmailAddress}. */
export type ParsedEmailAddress =
  | { ok: true; /** `localPart@domain`, the canonical form. */ address: string; localPart: string; domain: string }
  | { ok: false; problem: EmailAddressProblem }

/** RFC 5322 `atext`, plus (RFC 6531) letters, marks and decimal digits of any script. */
const atom = String.raw`[A-Za-z0-9!#$%&'*+/=?^_\x60{|}~\-\p{L}\p{M}\p{Nd}]+`
const dotAtom = new RegExp(`^${atom}(?:\\.${atom})*$`, "u")
const allowedCharacters = /^[\x21-\x7e\p{L}\p{M}\p{Nd}]*$/u
const unicodeDomain = /^[\p{L}\p{M}\p{Nd}-]+(?:\.[\p{L}\p{M}\p{Nd}-]+)*$/u
const ldhLabel = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

/** Scripts whose letters pass for each other's; letters of any other script count as one more. */
const scripts = ["Latin", "Greek", "Cyrillic", "Armenian", "Georgian", "Cherokee", "Coptic", "Lisu", "Han", "Hiragana", "Katakana", "Bopomofo", "Hangul"].map(
  (name) => [name, new RegExp(`\\p{sc=${name}}`, "u")] as const,
)
/** The mixes UTS #39's "Highly Restrictive" level allows (Japanese, Chinese, Korean). */
const allowedMixes = [["Latin", "Han", "Hiragana", "Katakana"], ["Latin", "Han", "Bopomofo"], ["Latin", "Han", "Hangul"]]
const ownScriptLetterOrDigit = /(?![\p{sc=Common}\p{sc=Inherited}])[\p{L}\p{Nd}]/u

function isSingleScript(text: string): boolean {
  const seen = new Set<string>()
  for (const character of text) {
    if (ownScriptLetterOrDigit.test(character)) seen.add(scripts.find(([, pattern]) => pattern.test(character))?.[0] ?? "other")
  }
  return seen.size <= 1 || allowedMixes.some((mix) => [...seen].every((script) => mix.includes(script)))
}

const octets = (text: string) => new TextEncoder().encode(text).length

/**
 * IDNA (UTS #46) through the WHATWG URL parser, which every runtime has (`node:url` is not on edge
 * runtimes). Only letters, marks, digits, `-` and `.` reach it: nothing it could read as a port,
 * path or credentials, and no ignorable character it would silently drop.
 */
function asciiDomain(domain: string): string | undefined {
  if (!unicodeDomain.test(domain)) return undefined
  let host: string
  try {
    host = new URL(`http://${domain}`).hostname
  } catch {
    return undefined
  }
  const labels = host.split(".")
  // RFC 3696 §2: a top-level label is never all-numeric (the URL parser reads those hosts as IPv4).
  return labels.every((label) => ldhLabel.test(label)) && !/^[0-9]+$/.test(labels.at(-1)!) ? host : undefined
}

/**
 * Checks an email address against authflow's grammar and returns its canonical form: RFC 5321's
 * mailbox without quoted local parts or address literals. The local part is a dot-atom of RFC 5322
 * `atext` and (RFC 6531) letters, marks and digits, in NFC, at most 64 octets, kept as given
 * (case included). The domain is a host name, IDNA-mapped to lowercase A-labels of at most 63
 * octets, whose top-level label is not all-numeric. At most 254 octets in all. Neither the local
 * part nor a domain label mixes scripts (Latin with Cyrillic or Greek, say) beyond UTS #39's "Highly
 * Restrictive" mixes. The canonical form parses to itself.
 *
 * @example
 * ```ts
 * parseEmailAddress("ada@Bücher.Example") // { ok: true, address: "ada@xn--bcher-kva.example", … }
 * parseEmailAddress("x<evil@evil.test>") // { ok: false, problem: "syntax" }
 * parseEmailAddress("ada@exаmple.com") // { ok: false, problem: "mixed-script" } (a Cyrillic а)
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc5321#section-4.1.2
 * @see https://www.rfc-editor.org/rfc/rfc5321#section-4.5.3.1
 * @see https://www.unicode.org/reports/tr39/#Restriction_Level_Detection
 */
export function parseEmailAddress(input: string): ParsedEmailAddress {
  if (typeof input !== "string") return { ok: false, problem: "syntax" }
  // Longer than any address can be: refused before any work is spent on it.
  if (input.length > 1024) return { ok: false, problem: "length" }
  if (!allowedCharacters.test(input)) return { ok: false, problem: "character" }
  const at = input.lastIndexOf("@")
  const localPart = input.slice(0, at)
  if (at < 0 || !dotAtom.test(localPart)) return { ok: false, problem: "syntax" }
  if (localPart !== localPart.normalize("NFC")) return { ok: false, problem: "character" }
  if (octets(localPart) > 64) return { ok: false, problem: "length" }
  const typedDomain = input.slice(at + 1)
  const domain = asciiDomain(typedDomain)
  if (domain === undefined) return { ok: false, problem: typedDomain.split(".").some((label) => label.length > 63) ? "length" : "domain" }
  const address = `${localPart}@${domain}`
  if (octets(address) > 254) return { ok: false, problem: "length" }
  const labels = domain.split(".").map((label) => (label.startsWith("xn--") ? decodePunycode(label.slice(4)) : label))
  if (labels.includes(undefined)) return { ok: false, problem: "domain" }
  if (![localPart, ...labels].every((part) => isSingleScript(part!))) return { ok: false, problem: "mixed-script" }
  return { ok: true, address, localPart, domain }
}
