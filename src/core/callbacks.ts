/**
 * The built-in callbacks, used wherever the configuration gives none. The `redirect` callback is the
 * guard against open redirects: it only ever returns URLs on the site's own origin.
 *
 * @example
 * ```ts
 * import { mergeCallbacks } from "authflow"
 *
 * const callbacks = mergeCallbacks(config.callbacks)
 * const callbackUrl = await callbacks.redirect({ url: "/dashboard", baseUrl: "https://app.example" })
 * ```
 * @module
 */
import type { CallbacksOptions, DefaultSession, SessionCallbackParams, User } from "../types.js"

/**
 * Resolves `url` with the WHATWG URL parser against `baseUrl` and keeps it only when it lands on the
 * same origin. Because the parser is the one browsers use, every spelling a browser would read as
 * another host (`//evil`, `/\evil`, tabs or newlines inside, leading control characters, userinfo, an
 * uppercase or missing scheme, an IDN lookalike) resolves to that host here too, and is refused.
 */
function sameOriginRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  // The origin is the callback URL a flow starts from (and the callback-url cookie's first value):
  // kept as it is, it reads back unchanged, so that cookie is not rewritten on the next request.
  // Every check below answers `baseUrl` for it too, so it is answered first, without parsing.
  if (url === baseUrl) return baseUrl
  let base: URL
  try {
    base = new URL(baseUrl)
  } catch {
    return baseUrl
  }
  // An opaque origin ("null") would compare equal to javascript:, data: and similar targets.
  if (base.protocol !== "https:" && base.protocol !== "http:") return baseUrl
  if (typeof url !== "string" || url.trim() === "") return baseUrl

  let target: URL
  try {
    target = new URL(url, base)
  } catch {
    return baseUrl
  }
  if (target.origin !== base.origin) return baseUrl
  // Credentials in a redirect only serve to make a URL look like it points elsewhere.
  if (target.username !== "" || target.password !== "") return baseUrl
  // `https://site//evil.example` is safe as it stands, but becomes `//evil.example` for any code that
  // later keeps only the path; dot segments (`/..//evil.example`) can produce it, so collapse it.
  // Stryker disable next-line ConditionalExpression,StringLiteral,Regex: an http(s) path always starts with `/` and the URL setter restores it, so only the `//` test itself matters
  if (target.pathname.startsWith("//")) target.pathname = target.pathname.replace(/^\/+/, "/")
  return target.href
}

function sessionUser(params: Partial<SessionCallbackParams>): User {
  const { token, user, session } = params
  if (token) return { name: token.name, email: token.email, image: token.picture }
  if (user) return { name: user.name, email: user.email, image: user.image }
  return { name: session?.user?.name, email: session?.user?.email, image: session?.user?.image }
}

function isoExpiry(expires: unknown): string {
  return expires instanceof Date ? expires.toISOString() : (expires as string)
}

/**
 * The callbacks used when the configuration gives none:
 *
 * - `signIn` allows every sign-in.
 * - `jwt` returns the token unchanged.
 * - `session` exposes only `name`, `email` and `image` (from the token with the JWT strategy, from the
 *   user with the database strategy) and `expires` as an ISO string.
 * - `redirect` accepts a relative URL or an absolute URL on `baseUrl`'s origin, and returns it resolved
 *   against `baseUrl` (so normalised and absolute, with a leading `//` in the path collapsed to `/`),
 *   except `baseUrl` itself, which is returned as it is (as Auth.js does); anything else, including
 *   a URL with userinfo, gives `baseUrl`. `baseUrl` is meant to be an origin;
 *   if it has a path, `/x` still resolves to the origin's root, as a browser would resolve it. Unlike Auth.js, whose default ends in a Configuration error on an unparsable URL, it
 *   never throws: an unparsable URL gives `baseUrl` too.
 *
 * The object is frozen; override callbacks through the configuration or {@link mergeCallbacks}.
 *
 * @example
 * ```ts
 * const baseUrl = "https://app.example"
 * await defaultCallbacks.redirect({ url: "/account?tab=1", baseUrl }) // "https://app.example/account?tab=1"
 * await defaultCallbacks.redirect({ url: "/\\evil.example", baseUrl }) // "https://app.example"
 * await defaultCallbacks.redirect({ url: "https://evil.example", baseUrl }) // "https://app.example"
 * ```
 * @see https://url.spec.whatwg.org/#concept-basic-url-parser
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-10.15 (open redirectors)
 * @see https://www.rfc-editor.org/rfc/rfc6454#section-4 (origin of a URI)
 */
export const defaultCallbacks: CallbacksOptions = Object.freeze({
  signIn: () => true,
  redirect: sameOriginRedirect,
  session: (params: SessionCallbackParams): DefaultSession => ({
    user: sessionUser(params),
    expires: isoExpiry(params.session?.expires),
  }),
  jwt: ({ token }) => token,
} satisfies CallbacksOptions)

const callbackNames: readonly (keyof CallbacksOptions)[] = ["signIn", "redirect", "session", "jwt"]

/**
 * Lays the configured callbacks over the defaults, one callback at a time. A key set to `undefined`
 * keeps the default; methods inherited from a prototype count as given.
 *
 * @example
 * ```ts
 * const callbacks = mergeCallbacks({ signIn: ({ user }) => user.email?.endsWith("@example.com") ?? false })
 * callbacks.redirect === defaultCallbacks.redirect // true
 * ```
 */
export function mergeCallbacks(user?: Partial<CallbacksOptions>): CallbacksOptions {
  const merged: CallbacksOptions = { ...defaultCallbacks }
  if (!user) return merged
  const keys = new Set([...callbackNames, ...(Object.keys(user) as (keyof CallbacksOptions)[])])
  for (const key of keys) {
    const callback = user[key]
    if (callback !== undefined) (merged as Record<keyof CallbacksOptions, unknown>)[key] = callback
  }
  return merged
}
