/**
 * Changing a Password account's email address from the browser: {@link changeEmail} posts the new
 * address and the current password; the server mails a link to the new address, which makes the
 * change when followed.
 *
 * @module
 */
import { send } from "./fetch.js"
import { getCsrfToken } from "./session.js"
import { errorOf } from "./sign-in.js"

/** Options of {@link changeEmail}. */
export interface ChangeEmailOptions {
  /** The address to move the account to. */
  newEmail: string
  /** The account's current password: the change asks for it again. */
  password: string
  /**
   * The Password provider's id.
   * @default "password"
   */
  provider?: string
}

/** What {@link changeEmail} answers. */
export interface ChangeEmailResponse {
  /** `true` when the request was taken: a link was mailed (the answer is the same whether the new address has an account). */
  ok: boolean
  /**
   * Why not: `MissingCSRF`, `InvalidEmail`, `SameEmail`, `CredentialsSignin` (wrong password),
   * `NoPassword`, `EmailSignin` (the mail failed), `RateLimited`, `SessionRequired` (nobody is
   * signed in), `Configuration`.
   */
  error: string | undefined
  /** Where the server sent the browser (the change page with `notice=` or `error=`, or the sign-in page). */
  url: string | null
  /** HTTP status of the request. */
  status: number
}

/**
 * Asks to move the signed-in user's Password account to `newEmail`, with their current password
 * (and the CSRF token). Nothing changes until the link mailed to the new address is followed; the
 * old address is told then.
 *
 * @example
 * ```ts
 * import { changeEmail } from "authflow/client"
 *
 * const result = await changeEmail({ newEmail: "ada@new.example", password: typed })
 * if (result.ok) showNotice("Check the new address's inbox for the link")
 * else if (result.error === "CredentialsSignin") showError("That password is not right")
 * ```
 */
export async function changeEmail(options: ChangeEmailOptions): Promise<ChangeEmailResponse> {
  const { newEmail, password, provider = "password" } = options
  const csrfToken = (await getCsrfToken()) ?? ""
  const { status, data } = await send<{ url?: unknown } | null>(`change-email/${encodeURIComponent(provider)}`, { form: { csrfToken, newEmail, password } })
  const url = typeof data?.url === "string" ? data.url : null
  if (url === null) return { ok: false, error: "Configuration", url, status }
  const { error } = errorOf(url)
  // Nobody signed in: the server sends the browser to the sign-in page, with no error of its own.
  const signIn = error === undefined && !new URL(url, "http://relative.invalid").pathname.includes("/change-email/")
  if (signIn) return { ok: false, error: "SessionRequired", url, status }
  return { ok: error === undefined, error, url, status }
}
