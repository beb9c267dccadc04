/** Reading a sign-in's answer: does it wait for a second factor, and which? */
import type { SecondFactorMethod } from "./types.js"

const allMethods: ReadonlySet<string> = new Set<SecondFactorMethod>(["totp", "backup", "email"])

/**
 * The second factors a sign-in waits for, read from where it sent the browser (the `url` of
 * `signIn(…, { redirect: false })`): the second-factor page names them in `methods`. `undefined`
 * when the URL is not that page.
 *
 * @example
 * ```ts
 * import { secondFactorMethods, signIn } from "authflow/client"
 *
 * const result = await signIn("credentials", { username, password, redirect: false })
 * const methods = secondFactorMethods(result?.url) // ["totp", "backup"] while the sign-in waits
 * ```
 */
export function secondFactorMethods(url: string | null | undefined): SecondFactorMethod[] | undefined {
  if (!url) return undefined
  let named: string | null
  try {
    named = new URL(url, "http://relative.invalid").searchParams.get("methods")
  } catch {
    return undefined
  }
  const methods = (named ?? "").split(",").filter((method): method is SecondFactorMethod => allMethods.has(method))
  return methods.length ? methods : undefined
}
