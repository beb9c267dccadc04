import type { Cookie, CookieOption, CookieSerializeOptions } from "../../types.js"

/** Browsers keep 4096 bytes per cookie; 160 are reserved for the name and attributes. */
export const CHUNK_SIZE = 4096 - 160

/**
 * Where `key` sits among the chunks of the cookie `name`: -1 for `<name>` itself, `i` for
 * `<name>.<i>` (decimal digits only), undefined for any other name. Only these names are ever read
 * as part of the session or cleared: `<name>.evil` or `<name>-x` are someone else's cookies.
 *
 * @example
 * ```ts
 * chunkIndexOf("authjs.session-token.2", "authjs.session-token")   // 2
 * chunkIndexOf("authjs.session-token", "authjs.session-token")     // -1
 * chunkIndexOf("authjs.session-token.x", "authjs.session-token")   // undefined
 * ```
 */
export function chunkIndexOf(key: string, name: string): number | undefined {
  if (!key.startsWith(name)) return undefined
  const length = key.length
  if (length === name.length) return -1
  if (key.charCodeAt(name.length) !== 46 || length === name.length + 1) return undefined
  // Stryker disable next-line EqualityOperator: at i = length charCodeAt gives NaN, which passes neither digit test
  for (let i = name.length + 1; i < length; i++) {
    const code = key.charCodeAt(i)
    if (code < 48 || code > 57) return undefined
  }
  return Number(key.slice(name.length + 1))
}

/**
 * The session cookie's value, joined from its chunks (`<name>`, or `<name>.0`, `<name>.1`, …).
 * Returns undefined when no non-empty chunk is present. Other cookies that merely start with
 * `name` are not part of it ({@link chunkIndexOf}).
 *
 * @example
 * ```ts
 * readChunkedCookie({ "authjs.session-token.0": "ab", "authjs.session-token.1": "cd" }, "authjs.session-token") // "abcd"
 * ```
 */
export function readChunkedCookie(cookies: Record<string, string>, name: string): string | undefined {
  const whole = cookies[name]
  let chunks: [number, string][] | undefined
  for (const key in cookies) {
    const index = chunkIndexOf(key, name)
    if (index === undefined || index === -1) continue
    const value = cookies[key]
    if (value) (chunks ??= []).push([index, value])
  }
  if (!chunks) return whole || undefined
  if (whole) chunks.push([0, whole])
  chunks.sort((a, b) => a[0] - b[0])
  let joined = ""
  for (const [, value] of chunks) joined += value
  return joined
}

/**
 * The session cookie split across chunks and the request's own chunk cookies: knows which cookies
 * to write for a new value and which stale chunks to clear. Only `<name>` and `<name>.<digits>`
 * count as chunks, so a `Set-Cookie` never names any other cookie of the request.
 *
 * @example
 * ```ts
 * const store = new SessionStore(option, requestCookies)
 * const cookies = store.write(jwe, { expires })   // the new chunks, plus clearing stale ones
 * const cleared = store.clear()                   // every chunk the request carried, emptied
 * ```
 */
export class SessionStore {
  readonly value: string | undefined
  readonly #option: CookieOption
  readonly #present: string[] = []

  constructor(option: CookieOption, requestCookies: Record<string, string>) {
    this.#option = option
    for (const key in requestCookies) if (chunkIndexOf(key, option.name) !== undefined) this.#present.push(key)
    const whole = this.#present.length === 1 && this.#present[0] === option.name
    this.value = whole ? requestCookies[option.name] || undefined : this.#present.length ? readChunkedCookie(requestCookies, option.name) : undefined
  }

  /** Cookies that set `value` (chunked above {@link CHUNK_SIZE}) and clear every stale chunk. */
  write(value: string, extra: { expires?: Date } = {}): Cookie[] {
    // Object.assign: V8 copies a small object this way several times faster than a spread.
    const options: CookieSerializeOptions = Object.assign({}, this.#option.options)
    if (extra.expires) options.expires = extra.expires
    // The common case: one cookie replacing itself (or nothing), so there are no stale chunks.
    // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator,BlockStatement: a shortcut; the general path below writes the same cookies in these cases
    if (value.length <= CHUNK_SIZE && (this.#present.length === 0 || (this.#present.length === 1 && this.#present[0] === this.#option.name))) {
      return [{ name: this.#option.name, value, options }]
    }
    const written: Cookie[] = []
    if (value.length <= CHUNK_SIZE) {
      written.push({ name: this.#option.name, value, options })
    } else {
      for (let i = 0, offset = 0; offset < value.length; i++, offset += CHUNK_SIZE) {
        written.push({ name: `${this.#option.name}.${i}`, value: value.slice(offset, offset + CHUNK_SIZE), options })
      }
    }
    const names = new Set(written.map((cookie) => cookie.name))
    const stale = this.#present.filter((name) => !names.has(name)).map((name) => this.#cleared(name))
    return [...stale, ...written]
  }

  /** Cookies that empty every chunk the request carried (nothing when it carried none). */
  clear(): Cookie[] {
    return this.#present.map((name) => this.#cleared(name))
  }

  #cleared(name: string): Cookie {
    return { name, value: "", options: { ...this.#option.options, maxAge: 0 } }
  }
}
