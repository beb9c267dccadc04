/**
 * What secrets look like, and how to hide them: shared by every place authflow shows values it did
 * not choose to show, the flow inspector (`authflow/inspect`) and the log lines (`./logger.ts`), so
 * both hide the same things.
 * @module
 */

/**
 * What a redacted value is replaced with.
 *
 * @example
 * ```ts
 * redact({ password: "hunter2" }) // { password: REDACTED }, that is { password: "[redacted]" }
 * ```
 */
export const REDACTED = "[redacted]"

/**
 * Options of {@link redact}.
 *
 * @example
 * ```ts
 * redact(context, { keys: ["tenantSecret", /^x-internal-/] })
 * ```
 */
export interface RedactOptions {
  /** More property names to redact, besides the built-in ones (matched case-insensitively, ignoring `_` and `-`). */
  keys?: readonly (string | RegExp)[]
}

// Property names compared lowercased with `_`, `-` and `.` removed: `code_verifier` is `codeverifier`.
const secretNames = new Set([
  "state", "code", "nonce", "pkce", "otp", "pin", "pass", "pwd", "passwd", "password", "secret", "csrf",
  "cookie", "cookies", "setcookie", "credentials", "authorization", "proxyauthorization", "apikey", "key", "privatekey",
  "assertion", "clientassertion", "signature", "sessionstate",
])
const secretParts = ["token", "secret", "password", "passwd", "verifier", "cookie", "credential", "nonce", "apikey", "privatekey", "challenge", "csrf"]

function normalize(key: string): string {
  return key.toLowerCase().replace(/[-_.\s]/g, "")
}

/**
 * Whether a property name names a secret: tokens of every kind, codes, PKCE verifiers and
 * challenges, nonces, `state`, cookies, passwords, credentials, client secrets, API keys.
 *
 * @example
 * ```ts
 * isSecretKey("codeVerifier") // true
 * isSecretKey("access_token") // true
 * isSecretKey("callbackUrl") // false
 * ```
 */
export function isSecretKey(key: string, extra: RedactOptions["keys"] = []): boolean {
  const name = normalize(key)
  if (secretNames.has(name) || secretParts.some((part) => name.includes(part))) return true
  return extra.some((pattern) => (typeof pattern === "string" ? normalize(pattern) === name : pattern.test(key)))
}

// Value shapes that are secrets wherever they appear, even under an innocent name or inside text.
const valuePatterns: [RegExp, string][] = [
  // JWS/JWT (3 segments) and JWE (5 segments): base64url JSON headers start with "eyJ".
  [/eyJ[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*){1,4}/g, REDACTED],
  // HTTP credentials.
  [/\b(Bearer|Basic|DPoP)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  // name=value pairs (query strings, fragments, cookie headers, form bodies) with a secret name.
  [/([A-Za-z0-9_.-]*(?:token|secret|password|passwd|verifier|nonce|state|code|csrf|session|cookie|credential|key|assertion)[A-Za-z0-9_.-]*=)[^&;,\s#"']+/gi, `$1${REDACTED}`],
]

/** Runs of 20+ characters that look random (UUIDs, hex, base64): tokens, verifiers, session ids. */
const opaque = /[A-Za-z0-9_+/-]{20,}={0,2}/g

function looksRandom(run: string): boolean {
  const digit = /\d/.test(run)
  const lower = /[a-z]/.test(run)
  const upper = /[A-Z]/.test(run)
  return (digit && (lower || upper)) || (run.length >= 32 && lower && upper)
}

/**
 * Redacts secret-shaped values inside a string: JWTs and JWEs, `Bearer …` credentials, secret
 * `name=value` pairs (`?code=…&state=…`, `authjs.session-token=…`), and long runs that look random
 * (hex or base64 tokens, UUIDs, PKCE verifiers). Strings over 2000 characters are cut.
 *
 * @example
 * ```ts
 * redactText("https://app.test/auth/callback/github?code=abc&state=xyz")
 * // "https://app.test/auth/callback/github?code=[redacted]&state=[redacted]"
 * ```
 */
export function redactText(text: string): string {
  let result = text.length > 2000 ? `${text.slice(0, 2000)}…` : text
  for (const [pattern, replacement] of valuePatterns) result = result.replace(pattern, replacement)
  return result.replace(opaque, (run) => (looksRandom(run) ? REDACTED : run))
}

const maxDepth = 8
const maxItems = 100

function className(value: object): string {
  return (value.constructor as { name?: string } | undefined)?.name || "object"
}

function redactError(error: Error, walk: (value: unknown, depth: number) => unknown, depth: number): Record<string, unknown> {
  const shown: Record<string, unknown> = { name: error.name, message: redactText(error.message) }
  const { type, kind, cause } = error as Error & { type?: unknown; kind?: unknown }
  if (typeof type === "string") shown.type = type
  if (typeof kind === "string") shown.kind = kind
  if (cause !== undefined) shown.cause = walk(cause, depth + 1)
  return shown
}

/**
 * A deep, redacted copy of any value, fit to show: properties with a secret name
 * ({@link isSecretKey}) become `"[redacted]"`, strings go through {@link redactText}, errors keep
 * their name, message, `type` and cause, and objects that are not plain data (requests, headers,
 * buffers, class instances) are shown only by their class name. The input is never changed.
 *
 * @example
 * ```ts
 * redact({ checks: { codeVerifier: "…", state: "…", callbackUrl: "/dashboard" } })
 * // { checks: { codeVerifier: "[redacted]", state: "[redacted]", callbackUrl: "/dashboard" } }
 * ```
 */
export function redact(value: unknown, options: RedactOptions = {}): unknown {
  const seen = new WeakSet<object>()
  const walk = (current: unknown, depth: number): unknown => {
    switch (typeof current) {
      case "string":
        return redactText(current)
      case "number":
      case "boolean":
      case "undefined":
        return current
      case "bigint":
        return current.toString()
      case "symbol":
        return current.toString()
      case "function":
        return `[function ${current.name || "anonymous"}]`
    }
    if (current === null) return null
    const object = current as object
    if (depth > maxDepth) return "[…]"
    if (seen.has(object)) return "[circular]"
    seen.add(object)
    try {
      if (object instanceof Error) return redactError(object, walk, depth)
      if (object instanceof Date) return Number.isNaN(object.valueOf()) ? "Invalid Date" : object.toISOString()
      if (object instanceof URL) return redactText(object.href)
      if (Array.isArray(object)) {
        const items = object.slice(0, maxItems).map((item) => walk(item, depth + 1))
        if (object.length > maxItems) items.push(`… ${object.length - maxItems} more`)
        return items
      }
      if (object instanceof Set) return walk([...object], depth)
      if (object instanceof Map) return walk(Object.fromEntries([...object].map(([key, item]) => [String(key), item])), depth)
      const prototype = Object.getPrototypeOf(object)
      if (prototype !== Object.prototype && prototype !== null) return `[${className(object)}]`
      const copy: Record<string, unknown> = {}
      for (const key of Object.keys(object)) {
        let item: unknown
        try {
          item = (object as Record<string, unknown>)[key]
        } catch {
          copy[key] = "[unreadable]"
          continue
        }
        if (item === undefined) continue
        copy[key] = isSecretKey(key, options.keys) && item !== null ? REDACTED : walk(item, depth + 1)
      }
      return copy
    } finally {
      seen.delete(object)
    }
  }
  return walk(value, 0)
}
