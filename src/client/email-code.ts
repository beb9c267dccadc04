/**
 * Emailed sign-in codes in the browser (an email provider with `code: "instead"` or `"beside"`):
 * `signIn("email", { email })` sends the browser to the code page, where the built-in form posts
 * the code. A single-page app reads that from the result with {@link emailCodeProvider} and posts
 * the code itself with {@link submitEmailCode}.
 *
 * @module
 */
import { errorOf } from "./sign-in.js"
import { send } from "./fetch.js"
import { getCsrfToken } from "./session.js"
import { announceSessionChange } from "./broadcast.js"
import { navigate } from "./navigate.js"
import { authUrl } from "./config.js"

/**
 * The email provider whose code a sign-in waits for, read from where it sent the browser (the
 * `url` of `signIn("email", { email, redirect: false })`): the code page
 * (`…/verify-request?provider=<id>&type=code`). `undefined` for any other URL (the link-only
 * "check your email" page among them).
 *
 * @example
 * ```ts
 * import { emailCodeProvider, signIn } from "authflow/client"
 *
 * const result = await signIn("email", { email, redirect: false })
 * const provider = emailCodeProvider(result?.url) // "email": show a code field
 * ```
 */
export function emailCodeProvider(url: string | null | undefined): string | undefined {
  if (!url) return undefined
  try {
    const { pathname, searchParams } = new URL(url, "http://relative.invalid")
    if (!pathname.endsWith("/verify-request") || searchParams.get("type") !== "code") return undefined
    return searchParams.get("provider") ?? undefined
  } catch {
    return undefined
  }
}

/** Options of {@link submitEmailCode}. */
export interface SubmitEmailCodeOptions {
  /** The email provider's id (see {@link emailCodeProvider}). */
  provider: string
  /** The code as typed (spaces are allowed). */
  code: string
  /**
   * Navigate to where the server answers; `false` returns an {@link EmailCodeResponse} instead.
   * @default true
   */
  redirect?: boolean
}

/** The outcome of `submitEmailCode(…, { redirect: false })`. */
export interface EmailCodeResponse {
  /** `true` when the code signed in. */
  ok: boolean
  /** Where the server sent the browser: the callback URL once signed in, the code page again after a wrong code, else an error page; `null` if it answered no URL. */
  url: string | null
  /** The error type of that URL (`Verification`, `MissingCSRF`, `RateLimited`…), if any. */
  error: string | undefined
  /** `"wrong-code"` when the code was wrong and the sign-in still waits for one. */
  reason: "wrong-code" | undefined
  /** HTTP status of the request. */
  status: number
}

/**
 * Posts an emailed code (with the CSRF token) to the provider's callback, in the browser that
 * asked for it. A wrong code answers `{ ok: false, error: "Verification", reason: "wrong-code" }`
 * while tries are left; the fifth, an expired code, or a browser that did not ask answer
 * `error: "Verification"` without a reason (ask for a new email).
 *
 * @example
 * ```ts
 * import { submitEmailCode } from "authflow/client"
 *
 * const result = await submitEmailCode({ provider: "email", code: typed, redirect: false })
 * if (result?.reason === "wrong-code") showError("That code is not right")
 * ```
 */
export async function submitEmailCode(options: SubmitEmailCodeOptions): Promise<EmailCodeResponse | undefined> {
  const { provider, code, redirect = true } = options
  const csrfToken = (await getCsrfToken()) ?? ""
  const { status, ok, data } = await send<{ url?: unknown } | null>(`callback/${encodeURIComponent(provider)}`, { form: { csrfToken, code } })
  const url = typeof data?.url === "string" ? data.url : null
  const { error } = errorOf(url ?? undefined)
  const signedIn = ok && url !== null && error === undefined
  if (signedIn) announceSessionChange("signin")
  if (redirect) {
    navigate(url ?? authUrl("error"))
    return undefined
  }
  const reason = url !== null && new URL(url, "http://relative.invalid").searchParams.get("reason") === "wrong-code" ? "wrong-code" : undefined
  return { ok: signedIn, url, error: url === null ? "Configuration" : error, reason, status }
}
