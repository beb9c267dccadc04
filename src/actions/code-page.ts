/**
 * GET `/verify-request?type=code`: the page where an emailed code is typed, for an email provider
 * with the `code` option or a Password provider whose `verifyBy` mails a code. The verify-request
 * page loads this module only when the query names such a provider, so an app without one never
 * loads it (nor the code page, nor the code flow's cookie names).
 *
 * @module
 */
import type { CoreKey } from "../core/i18n/messages.js"
import type { Translator } from "../core/i18n/translate.js"
import { onFirstUse } from "../core/on-first-use.js"
import type { AuthOptions } from "../core/options.js"
import type { RenderedPage } from "../pages/types.js"
import type { InternalProvider } from "../types.js"
import { codeFlowCookies, emailCodeCookies } from "./email-code-cookies.js"
import { triesLeftOf } from "./tries-left.js"

const emailCodePage = /* @__PURE__ */ onFirstUse(() => import("../pages/email-code.js"))

/**
 * The code page of `provider` in `text`'s language: the form posts to `/callback/<id>` (an email
 * provider) or to `/verify-email/<id>` (a Password provider, which also says how many tries are left).
 *
 * @example
 * ```ts
 * // GET /auth/verify-request?provider=email&type=code
 * const page = await renderCodePage(options, emailProvider, text) // "Enter your code"
 * ```
 */
export async function renderCodePage(options: AuthOptions, provider: InternalProvider, text: Translator<CoreKey>): Promise<RenderedPage> {
  const { query } = options.request
  const common = {
    url: options.origin,
    ...(options.csrfToken !== undefined && { csrfToken: options.csrfToken }),
    wrongCode: query.reason === "wrong-code",
    theme: options.theme,
    text,
  }
  const { renderEmailCodePage } = await emailCodePage()
  if (provider.type === "credentials") {
    // A Password provider's verification code: the form posts to `/verify-email/<id>`.
    const { flow } = codeFlowCookies(options, "password-code")
    const left = query.reason === "wrong-code" ? triesLeftOf(query) : undefined
    return renderEmailCodePage({
      ...common,
      action: `${options.baseUrl}/verify-email/${encodeURIComponent(provider.id)}`,
      waiting: Boolean(options.request.cookies[flow.name]),
      ...(left !== undefined && { triesLeft: left }),
      purpose: "verify-email",
    })
  }
  const { flow } = emailCodeCookies(options)
  return renderEmailCodePage({
    ...common,
    action: `${options.baseUrl}/callback/${encodeURIComponent(provider.id)}`,
    waiting: Boolean(options.request.cookies[flow.name]),
  })
}
