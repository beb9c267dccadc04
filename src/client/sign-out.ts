/**
 * `signOut` from the browser.
 *
 * @module
 */
import { announceSessionChange } from "./broadcast.js"
import { send } from "./fetch.js"
import { currentHref, navigate } from "./navigate.js"
import { getCsrfToken } from "./session.js"
import type { SignOutOptions } from "./types.js"

/**
 * Signs out: posts `{ csrfToken, callbackUrl }` to `<basePath>/signout`, tells the other tabs, and
 * goes to the page the server answers with (`redirectTo`, default the current page, as the
 * `redirect` callback allows it). With `redirect: false` it returns `{ url }` instead. With
 * `account` (`multiSession` on the server; an id from `listAccounts()`), only that account signs
 * out; without it, every account of the browser does.
 *
 * @example
 * ```ts
 * import { signOut } from "authflow/client"
 * await signOut({ redirectTo: "/" })
 * ```
 */
export async function signOut(options: SignOutOptions = {}): Promise<{ url: string } | undefined> {
  const { redirect = true } = options
  const target = options.redirectTo ?? options.callbackUrl ?? currentHref()
  const csrfToken = (await getCsrfToken()) ?? ""
  const { data } = await send<{ url?: string }>("signout", { form: { csrfToken, callbackUrl: target, ...(options.account !== undefined && { account: options.account }) } })
  const url = typeof data?.url === "string" ? data.url : target
  announceSessionChange("signout")
  if (redirect) {
    navigate(url)
    return undefined
  }
  return { url }
}
