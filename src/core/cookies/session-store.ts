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
 * The values the session cookie may hold, in the order to try them: the whole cookie `<name>`, then
 * the contiguous run of chunks `<name>.0`, `<name>.1`, … joined, then (with `shorterRuns`) the same
 * run one chunk shorter each time. Chunks are read only under their canonical names and only from
 * `.0` up to the first missing or empty one, so a cookie planted by a sibling subdomain (`.00`, a
 * stray `.7`, a `.0` beside a whole cookie) can never be mixed into a valid value: the caller keeps
 * the first candidate that decrypts and ignores the rest. Empty when no candidate is present.
 *
 * @param shorterRuns - Also offer the run without its last chunks: a chunk planted right after a
 *   valid session's last one (`.2` beside `.0`, `.1`) then does not hide it.
 *   @default true
 *
 * @example
 * ```ts
 * sessionCookieCandidates({ "s": "w", "s.0": "a", "s.1": "b", "s.3": "d", "s.00": "z" }, "s") // ["w", "ab", "a"]
 * ```
 */
export function sessionCookieCandidates(cookies: Record<string, string>, name: string, shorterRuns = true): string[] {
  const candidates: string[] = []
  const whole = cookies[name]
  if (whole) candidates.push(whole)
  const run: string[] = []
  for (let chunk = cookies[`${name}.0`]; chunk; chunk = cookies[`${name}.${run.length}`]) run.push(chunk)
  if (!run.length) return candidates
  let joined = run.join("")
  candidates.push(joined)
  if (shorterRuns) {
    for (let length = run.length - 1; length > 0; length--) candidates.push((joined = joined.slice(0, joined.length - run[length]!.length)))
  }
  return candidates
}

/**
 * The session cookie's most likely value: the whole cookie `<name>` when it is set, else its chunks
 * `<name>.0`, `<name>.1`, … joined up to the first gap ({@link sessionCookieCandidates} gives the
 * others to try when this one does not decrypt). Undefined when neither is present. Other cookies
 * that merely start with `name` are not part of it ({@link chunkIndexOf}).
 *
 * @example
 * ```ts
 * readChunkedCookie({ "authjs.session-token.0": "ab", "authjs.session-token.1": "cd" }, "authjs.session-token") // "abcd"
 * ```
 */
export function readChunkedCookie(cookies: Record<string, string>, name: string): string | undefined {
  return sessionCookieCandidates(cookies, name, false)[0]
}

/**
 * The session cookie split across chunks and the request's own chunk cookies: knows the values the
 * session may hold, which cookies to write for a new value and which stale chunks to clear. Only
 * `<name>` and `<name>.<digits>` count as chunks, so a `Set-Cookie` never names any other cookie of
 * the request; every one of them the request carried (`.00` and a stray `.7` included) is cleared
 * by the next write unless that write sets it.
 *
 * @example
 * ```ts
 * const store = new SessionStore(option, requestCookies)
 * const cookies = store.write(jwe, { expires })   // the new chunks, plus clearing stale ones
 * const cleared = store.clear()                   // every chunk the request carried, emptied
 * ```
 */
export class SessionStore {
  /** The most likely value ({@link readChunkedCookie}): enough to tell whether there is a session cookie at all. */
  readonly value: string | undefined
  readonly #option: CookieOption
  readonly #requestCookies: Record<string, string>
  readonly #present: string[] = []

  constructor(option: CookieOption, requestCookies: Record<string, string>) {
    this.#option = option
    this.#requestCookies = requestCookies
    for (const key in requestCookies) if (chunkIndexOf(key, option.name) !== undefined) this.#present.push(key)
    this.value = this.#onlyWhole() ? requestCookies[option.name] || undefined : this.#present.length ? readChunkedCookie(requestCookies, option.name) : undefined
  }

  /**
   * The values to try, in order, keeping the first that decrypts ({@link sessionCookieCandidates}).
   * With only the whole cookie present (the common case) that is `[value]`.
   */
  candidates(shorterRuns = true): string[] {
    if (this.#onlyWhole()) return this.value === undefined ? [] : [this.value]
    return sessionCookieCandidates(this.#requestCookies, this.#option.name, shorterRuns)
  }

  #onlyWhole(): boolean {
    return this.#present.length === 1 && this.#present[0] === this.#option.name
  }

  /** Cookies that set `value` (chunked above {@link CHUNK_SIZE}) and clear every stale chunk. */
  write(value: string, extra: { expires?: Date } = {}): Cookie[] {
    // Object.assign: V8 copies a small object this way several times faster than a spread.
    const options: CookieSerializeOptions = Object.assign({}, this.#option.options)
    if (extra.expires) options.expires = extra.expires
    // The common case: one cookie replacing itself (or nothing), so there are no stale chunks.
    // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator,BlockStatement: a shortcut; the general path below writes the same cookies in these cases
    if (value.length <= CHUNK_SIZE && (this.#present.length === 0 || this.#onlyWhole())) {
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
