/**
 * The cookies of an emailed code's flow, apart from the machine (the code page reads whether the
 * browser holds one without loading the flow): the flow cookie's name with `.email-code`, and the
 * binding cookie's with `.email-code`, both living as long as the code.
 *
 * @module
 */
import type { AuthOptions } from "../core/options.js"
import type { FlowCookies } from "./flow-cookie.js"

/** Seconds an emailed sign-in code (and the flow waiting for it) lives. */
export const EMAIL_CODE_MAX_AGE = 10 * 60

/**
 * The flow and binding cookies of an emailed code's flow.
 *
 * @example
 * ```ts
 * emailCodeCookies(options).flow.name // "__Secure-authflow.flow.email-code"
 * ```
 */
export function emailCodeCookies(options: Pick<AuthOptions, "cookies">): FlowCookies {
  const { flow, flowBinding } = options.cookies
  return {
    flow: { name: `${flow.name}.email-code`, options: { ...flow.options, maxAge: EMAIL_CODE_MAX_AGE } },
    binding: { name: `${flowBinding.name}.email-code`, options: { ...flowBinding.options, maxAge: EMAIL_CODE_MAX_AGE } },
  }
}
