/**
 * What every log line goes through before it reaches a sink (the console or `config.logger`):
 * secrets redacted with the inspector's rules (./redact.ts) and control characters escaped, so a
 * request can neither leak a token into the logs nor forge a log line.
 * @module
 */
import { REDACTED, isSecretKey, redact, redactText } from "./redact.js"

// C0 controls (newline, escape, …), DEL, C1 controls (CSI is U+009B) and the Unicode line and
// paragraph separators: whatever can end a line or drive a terminal.
const controlCharacters = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/
const controlCharactersGlobal = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g
const shortEscapes: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" }

function escapeCharacter(character: string): string {
  return shortEscapes[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`
}

/**
 * `text` with every control character written as an escape (`\n`, `\u001b`, `\u2028`): C0, DEL,
 * C1 and U+2028/U+2029. What is left is one line that cannot move a terminal's cursor or colour.
 *
 * @example
 * ```ts
 * escapeControlCharacters("x\n\u001b[31m[auth][error] forged") // "x\\n\\u001b[31m[auth][error] forged"
 * ```
 * @see https://owasp.org/www-community/attacks/Log_Injection
 */
export function escapeControlCharacters(text: string): string {
  return controlCharacters.test(text) ? text.replace(controlCharactersGlobal, escapeCharacter) : text
}

/**
 * A message fit for a log line: secret-shaped values redacted ({@link redactText}), control
 * characters escaped.
 *
 * @example
 * ```ts
 * safeLogText("URL was: https://app.test/auth/callback/email?token=abc&email=a%40b.c\n")
 * // "URL was: https://app.test/auth/callback/email?token=[redacted]&email=a%40b.c\\n"
 * ```
 */
export function safeLogText(text: string): string {
  return escapeControlCharacters(redactText(text))
}

function escapeDeep(value: unknown): unknown {
  if (typeof value === "string") return escapeControlCharacters(value)
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = escapeDeep(value[i])
    return value
  }
  if (value === null || typeof value !== "object") return value
  const escaped: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) escaped[escapeControlCharacters(key)] = escapeDeep(item)
  return escaped
}

/**
 * A copy of log metadata fit for a log line: {@link redact}ed (secret property names, secret-shaped
 * values, objects that are not plain data shown by class name), then every string and key escaped
 * ({@link escapeControlCharacters}). The value given is never changed.
 *
 * @example
 * ```ts
 * safeLogValue({ args: [{ sessionToken: "s3cr3t", userId: "u1" }] }) // { args: [{ sessionToken: "[redacted]", userId: "u1" }] }
 * ```
 */
export function safeLogValue(value: unknown): unknown {
  // redact() returns a fresh tree of plain data, so escaping it in place touches nothing of the caller's.
  return escapeDeep(redact(value))
}

const framePattern = /^\s+at /
const maxErrorDepth = 8

/**
 * A copy of `error` fit for a log line, of the same class (so `instanceof` and `type` still work):
 * its message and stack redacted and escaped, its cause copied the same way (`cause.err` stays an
 * `Error`; other cause properties as {@link safeLogValue}), secret-named own properties replaced by
 * `"[redacted]"`. The error given is never changed. The same error always gets the same copy, so a
 * logged error that is the cause of one logged later is still that cause.
 *
 * @example
 * ```ts
 * const shown = safeLogError(new AdapterError(new Error("no row for token=abc")))
 * shown.type // "AdapterError"
 * shown.message // "no row for token=[redacted]"
 * ```
 */
export function safeLogError<E extends Error>(error: E): E {
  return copyError(error, 0) as E
}

const errorCode = /^[A-Z][A-Z0-9_]{1,63}$/

/** The copy of each error logged so far: an error and its copy live and die together. */
const copies = new WeakMap<Error, Error>()

function copyError(error: Error, depth: number): Error {
  const known = copies.get(error)
  if (known) return known
  const copy = blankLike(error)
  copies.set(error, copy)
  const message = read(error, "message")
  const safeMessage = typeof message === "string" ? safeLogText(message) : message
  for (const key of Object.getOwnPropertyNames(error)) {
    const value = read(error, key)
    let safe: unknown
    if (key === "message") safe = safeMessage
    else if (key === "stack") safe = typeof value === "string" ? safeStack(value, typeof message === "string" ? message : "", String(safeMessage)) : undefined
    else if (key === "cause") safe = copyCause(value, depth)
    else if (key === "name") safe = typeof value === "string" ? escapeControlCharacters(value) : value
    // An error's `code` names the error (`ECONNREFUSED`, `OAUTH_JWT_TIMESTAMP_CHECK_FAILED`), not an authorization code.
    else if (key === "code" && typeof value === "string" && errorCode.test(value)) safe = value
    else safe = isSecretKey(key) && value != null ? REDACTED : safeLogValue(value)
    const enumerable = Object.getOwnPropertyDescriptor(error, key)?.enumerable ?? false
    Object.defineProperty(copy, key, { value: safe, enumerable, writable: true, configurable: true })
  }
  return copy
}

/**
 * An empty object of `error`'s class that is a real error: made by the `Error` constructor (so
 * `util.types.isNativeError` holds and `Object.prototype.toString` says `[object Error]`, which
 * error reporters test), then given the original's prototype. Its own properties are removed, so
 * only the redacted ones `copyError` defines are left.
 */
function blankLike(error: Error): Error {
  const prototype = Object.getPrototypeOf(error) as object | null
  if (!isError(error)) return Object.create(prototype) as Error
  const limit = Error.stackTraceLimit
  // The copy's stack is the original's, redacted: capturing one here would only cost time.
  Error.stackTraceLimit = 0
  let blank: Error
  try {
    blank = new Error()
  } finally {
    Error.stackTraceLimit = limit
  }
  for (const key of Object.getOwnPropertyNames(blank)) Reflect.deleteProperty(blank, key)
  return Object.setPrototypeOf(blank, prototype) as Error
}

/** Whether `value` is an error: made by an `Error` constructor (in any realm), or of an `Error` class. */
function isError(value: object): boolean {
  return Object.prototype.toString.call(value) === "[object Error]" || value instanceof Error
}

function copyCause(cause: unknown, depth: number): unknown {
  if (depth >= maxErrorDepth) return "[…]"
  if (cause instanceof Error) return copyError(cause, depth + 1)
  if (cause === null || typeof cause !== "object" || Array.isArray(cause)) return safeLogValue(cause)
  const prototype = Object.getPrototypeOf(cause)
  if (prototype !== Object.prototype && prototype !== null) return safeLogValue(cause)
  // A structured cause ({ err, provider, … }): its errors stay errors, so loggers can still print their stacks.
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(cause)) {
    const item = read(cause, key)
    if (item === undefined) continue
    if (item instanceof Error) copy[escapeControlCharacters(key)] = copyError(item, depth + 1)
    else copy[escapeControlCharacters(key)] = isSecretKey(key) && item !== null ? REDACTED : safeLogValue(item)
  }
  return copy
}

/**
 * The stack with its message replaced by the safe one, and only frame lines after it: a message
 * holding newlines (raw in V8's stack) can then add no line of its own.
 */
function safeStack(stack: string, message: string, safeMessage: string): string {
  const at = message ? stack.indexOf(message) : -1
  const head = at === -1 ? undefined : stack.slice(0, at + message.length)
  const lines = (head === undefined ? stack : stack.slice(head.length)).split("\n")
  let header: string
  if (head !== undefined) header = escapeControlCharacters(head.slice(0, at)) + safeMessage + escapeControlCharacters(lines.shift() ?? "")
  else header = safeLogText(lines.shift() ?? "")
  const frames = lines.filter((line) => framePattern.test(line)).map(escapeControlCharacters)
  return frames.length ? `${header}\n${frames.join("\n")}` : header
}

function read(object: object, key: string): unknown {
  try {
    return (object as Record<string, unknown>)[key]
  } catch {
    return "[unreadable]"
  }
}
