/**
 * `signIn` from the browser: the same requests the Auth.js v5 browser clients send.
 *
 * @module
 */
import { announceSessionChange } from "./broadcast.js"
import { authUrl } from "./config.js"
import { send } from "./fetch.js"
import { currentHref, navigate } from "./navigate.js"
import { secondFactorMethods } from "./second-factor-methods.js"
import { getCsrfToken, getProviders } from "./session.js"
import type { SignInAuthorizationParams, SignInOptions, SignInResponse } from "./types.js"

/**
 * Starts a sign-in with `provider`.
 *
 * - No provider, or one the server does not know: the browser goes to the sign-in page
 *   (`<basePath>/signin?callbackUrl=…`).
 * - Otherwise the form `{ ...options, csrfToken, callbackUrl }` is posted to `/signin/<id>`
 *   (`/callback/<id>` for a credentials provider) and the browser goes where the server says: the
 *   provider's authorization page, the "check your email" page, or `redirectTo`.
 * - With `redirect: false` nothing navigates: the result says where the browser would have gone,
 *   and the error (`error`, `code`) if the sign-in was refused.
 * - A successful credentials sign-in tells the other tabs (and this tab's `SessionProvider`).
 * - A WebAuthn provider throws a `TypeError`, as `next-auth/react` does: passkeys sign in through
 *   `signIn` of `authflow/client/passkey`.
 *
 * @param provider - A provider id, e.g. `"github"` or `"credentials"`.
 * @param options - `redirect`, `redirectTo` (default: the current page), and fields to post (the
 *   credentials, an `email`…). A `FormData` is read as such an object.
 * @param authorizationParams - Added to the query of the sign-in request; OAuth providers forward
 *   them to the authorization request.
 *
 * @example
 * ```ts
 * import { signIn } from "authflow/client"
 *
 * await signIn("github", { redirectTo: "/dashboard" })
 * const result = await signIn("credentials", { username, password, redirect: false })
 * if (result?.error) showError(result.code)
 * ```
 */
export async function signIn(
  provider?: string,
  options: SignInOptions | FormData = {},
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse | undefined> {
  const { redirect = true, redirectTo, callbackUrl, ...fields } = options instanceof FormData ? formToObject(options) : options
  const target = String(redirectTo ?? callbackUrl ?? currentHref())
  const providers = await getProviders()
  if (!providers) {
    if (redirect) navigate(authUrl("error"))
    return failure("Configuration", 500)
  }
  const found = provider === undefined ? undefined : providers[provider]
  if (!found) {
    const url = `${authUrl("signin")}?${new URLSearchParams({ callbackUrl: target })}`
    if (redirect) navigate(url)
    return redirect ? undefined : { error: undefined, code: undefined, status: 200, ok: true, url }
  }

  if (found.type === "webauthn") {
    // The ceremony needs @simplewebauthn/browser, an optional peer this entry must not pull in.
    throw new TypeError(`Provider id "${found.id}" refers to a WebAuthn provider.\nPlease use \`import { signIn } from "authflow/client/passkey"\` instead.`)
  }
  const csrfToken = (await getCsrfToken()) ?? ""
  const action = found.type === "credentials" ? "callback" : "signin"
  const { status, ok, data } = await send<{ url?: string }>(`${action}/${encodeURIComponent(found.id)}`, {
    form: { ...stringFields(fields), csrfToken, callbackUrl: target },
    query: new URLSearchParams(authorizationParams).toString(),
  })
  const url = typeof data?.url === "string" ? data.url : undefined
  const { error, code } = errorOf(url)
  const succeeded = ok && url !== undefined && !error
  // Only these sign-ins end with a session already set (unless they wait for a second factor); OAuth and email ones continue elsewhere.
  if (succeeded && found.type === "credentials" && !secondFactorMethods(url)) announceSessionChange("signin")

  if (redirect) {
    navigate(url ?? target)
    return undefined
  }
  return { error: url === undefined && !error ? "Configuration" : error, code, status, ok: succeeded, url: error ? null : (url ?? null) }
}

function failure(error: string, status: number): SignInResponse {
  return { error, code: undefined, status, ok: false, url: null }
}

/**
 * The `error` and `code` query parameters of an answer's URL (absolute or relative), if any.
 *
 * @example
 * ```ts
 * errorOf("/auth/signin?error=CredentialsSignin&code=credentials") // { error: "CredentialsSignin", code: "credentials" }
 * ```
 */
export function errorOf(url: string | undefined): { error: string | undefined; code: string | undefined } {
  if (!url) return { error: undefined, code: undefined }
  try {
    const { searchParams } = new URL(url, "http://relative.invalid")
    return { error: searchParams.get("error") ?? undefined, code: searchParams.get("code") ?? undefined }
  } catch {
    return { error: undefined, code: undefined }
  }
}

function formToObject(form: FormData): SignInOptions {
  const fields: Record<string, unknown> = {}
  for (const [key, value] of form) if (typeof value === "string") fields[key] = value
  if (fields.redirect !== undefined) fields.redirect = fields.redirect !== "false"
  return fields
}

function stringFields(fields: Record<string, unknown>): Record<string, string> {
  const result: Record<string, string> = {}
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) result[key] = String(value)
  return result
}
