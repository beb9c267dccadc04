/**
 * The cookies and the page of an emailed code's flow, apart from the machine (the code page reads whether the
 * browser holds one without loading the flow): the flow cookie's name with `.email-code`, and the
 * binding cookie's with `.email-code`, both living 15 minutes: longer than the code (10 minutes),
 * so a code typed late is refused as expired, not as a lost sign-in.
 *
 * @module
 */
import type { AuthOptions } from "../core/options.js"
import type { FlowCookies } from "./flow-cookie.js"

/**
 * Seconds the flow waiting for an emailed code lives (the code itself lives 10 minutes).
 *
 * @example
 * ```ts
 * emailCodeCookies(options).flow.options.maxAge === EMAIL_CODE_FLOW_MAX_AGE // true
 * ```
 */
export const EMAIL_CODE_FLOW_MAX_AGE = 15 * 60

/**
 * The flow and binding cookies of an emailed code's flow.
 *
 * @example
 * ```ts
 * emailCodeCookies(options).flow.name // "__Secure-authflow.flow.email-code"
 * ```
 */
export function emailCodeCookies(options: Pick<AuthOptions, "cookies">): FlowCookies {
  return codeFlowCookies(options, "email-code")
}

/**
 * The flow and binding cookies of a kind of flow waiting for an emailed code: the flow cookie's
 * and the binding cookie's names with `.<kind>`, both living 15 minutes. Each kind has cookies of
 * its own, so a code waiting for one purpose is never resumed by another's route.
 *
 * @example
 * ```ts
 * codeFlowCookies(options, "password-code").flow.name // "__Secure-authflow.flow.password-code"
 * ```
 */
export function codeFlowCookies(options: Pick<AuthOptions, "cookies">, kind: string): FlowCookies {
  const { flow, flowBinding } = options.cookies
  return {
    flow: { name: `${flow.name}.${kind}`, options: { ...flow.options, maxAge: EMAIL_CODE_FLOW_MAX_AGE } },
    binding: { name: `${flowBinding.name}.${kind}`, options: { ...flowBinding.options, maxAge: EMAIL_CODE_FLOW_MAX_AGE } },
  }
}

/**
 * The page where an emailed code is typed: `<basePath>/verify-request?provider=<id>&type=code`
 * (`pages.verifyRequest` gets the same query).
 *
 * @example
 * ```ts
 * emailCodePage("https://app.example/auth", "email") // "https://app.example/auth/verify-request?provider=email&type=code"
 * ```
 */
export function emailCodePage(baseUrl: string, providerId: string): string {
  return `${baseUrl}/verify-request?${new URLSearchParams({ provider: providerId, type: "code" })}`
}
