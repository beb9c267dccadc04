/**
 * Forgotten and changed passwords from the browser: {@link requestPasswordReset} asks for a reset
 * link by email, {@link resetPassword} sets the new password with the link's token, and
 * {@link changePassword} changes the signed-in user's password.
 *
 * @module
 */
import { send } from "./fetch.js"
import { getCsrfToken } from "./session.js"
import { errorOf } from "./sign-in.js"

/** What the password functions answer. */
export interface PasswordResponse {
  /** `true` when the server took the request (for a reset request: whether or not the address has an account). */
  ok: boolean
  /**
   * Why not: `MissingCSRF`, `InvalidEmail`, `PasswordLinkInvalid`, `PasswordLinkExpired`,
   * `Verification` (a wrong reset code), `PasswordCodeInvalid`, `PasswordCodeExpired`,
   * `PasswordResetRefused`, `PasswordChangeRefused`, `CredentialsSignin` (wrong current password),
   * `NoPassword`, `RateLimited`, `SessionRequired` (nobody is signed in), `Configuration`.
   */
  error: string | undefined
  /** Why a new password was refused: `too-short`, `too-long`, `not-a-string`, `refused-password`; `wrong-code` for a wrong reset code. @default none */
  reason?: string
  /** Where the server sent the browser. */
  url: string | null
  /** HTTP status of the request. */
  status: number
}

/** The Password provider's id. @default "password" */
interface ProviderOption {
  /** @default "password" */
  provider?: string
}

async function post(route: string, provider: string, fields: Record<string, string>): Promise<PasswordResponse & { path: string }> {
  const csrfToken = (await getCsrfToken()) ?? ""
  const { status, data } = await send<{ url?: unknown } | null>(`${route}/${encodeURIComponent(provider)}`, { form: { csrfToken, ...fields } })
  const url = typeof data?.url === "string" ? data.url : null
  if (url === null) return { ok: false, error: "Configuration", url, status, path: "" }
  const { error } = errorOf(url)
  const parsed = new URL(url, "http://relative.invalid")
  const reason = parsed.searchParams.get("reason") ?? undefined
  return { ok: error === undefined, error, ...(reason !== undefined && { reason }), url, status, path: parsed.pathname }
}

const strip = ({ path: _path, ...response }: PasswordResponse & { path: string }): PasswordResponse => response

/**
 * Asks for a link that resets the password of the account at `email`. The answer is the same
 * whether or not the address has an account (`ok: true`); the link, if any, is mailed.
 *
 * @example
 * ```ts
 * import { requestPasswordReset } from "authflow/client"
 *
 * const result = await requestPasswordReset({ email: typed })
 * if (result.ok) showNotice("If the address has an account, a link is on its way")
 * ```
 */
export async function requestPasswordReset(options: { email: string } & ProviderOption): Promise<PasswordResponse> {
  return strip(await post("forgot-password", options.provider ?? "password", { email: options.email }))
}

/**
 * Sets a new password with the `token` of a mailed reset link (the `token` query parameter of the
 * page it opens): works once, within an hour, and not after the password changed otherwise. Or,
 * where the provider resets by code (`resetBy: "code"` or `"both"`), with the mailed 6-digit `code`,
 * in the browser that asked for it: 10 minutes, 5 tries (a wrong one answers `error: "Verification"`,
 * `reason: "wrong-code"`; then `PasswordCodeInvalid`, or `PasswordCodeExpired`).
 *
 * @example
 * ```ts
 * import { resetPassword } from "authflow/client"
 *
 * const token = new URL(location.href).searchParams.get("token") ?? ""
 * const result = await resetPassword({ token, password: typed })
 * if (result.error === "PasswordResetRefused") showError(`Choose another password (${result.reason})`)
 * // Or with the mailed code, in the browser that asked for it:
 * const byCode = await resetPassword({ code: "038114", password: typed })
 * if (byCode.reason === "wrong-code") showError("That code is not right")
 * ```
 */
export async function resetPassword(options: ({ token: string } | { code: string }) & { password: string } & ProviderOption): Promise<PasswordResponse> {
  const proof: Record<string, string> = "code" in options ? { code: options.code } : { token: options.token }
  return strip(await post("reset-password", options.provider ?? "password", { ...proof, password: options.password }))
}

/**
 * Changes the signed-in user's password, with the current one. Their other sessions end unless the
 * provider says otherwise (`endOtherSessions`); this one stays.
 *
 * @example
 * ```ts
 * import { changePassword } from "authflow/client"
 *
 * const result = await changePassword({ currentPassword, newPassword })
 * if (result.error === "CredentialsSignin") showError("That is not your current password")
 * ```
 */
export async function changePassword(options: { currentPassword: string; newPassword: string } & ProviderOption): Promise<PasswordResponse> {
  const response = await post("change-password", options.provider ?? "password", { currentPassword: options.currentPassword, newPassword: options.newPassword })
  // Nobody signed in: the server sends the browser to the sign-in page, with no error of its own.
  if (response.url !== null && response.error === undefined && !response.path.includes("/change-password/")) return { ok: false, error: "SessionRequired", url: response.url, status: response.status }
  return strip(response)
}
