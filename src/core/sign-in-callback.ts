import { AccessDenied, AuthError } from "./errors.js"
import type { AuthOptions } from "./options.js"
import type { SignInCallbackParams } from "../types.js"

/** The `signIn` callback's decision, as the event the sign-in machines receive. */
export type SignInDecisionEvent =
  | { type: "signIn.allowed" }
  | { type: "signIn.denied"; error: AuthError }
  | { type: "signIn.redirect"; url: string }

/**
 * Asks the `signIn` callback whether a sign-in may go on. `true` allows; a string redirects there
 * (through the `redirect` callback); anything falsy denies with `AccessDenied`. An AuthError the
 * callback throws is kept as it is; any other error becomes `AccessDenied` wrapping it.
 *
 * @example
 * ```ts
 * const decision = await decideSignIn(options, { user, account, credentials })
 * if (decision.type === "signIn.denied") throw decision.error
 * ```
 */
export async function decideSignIn(options: AuthOptions, params: SignInCallbackParams): Promise<SignInDecisionEvent> {
  try {
    const result = await options.callbacks.signIn(params)
    if (typeof result === "string") {
      return { type: "signIn.redirect", url: await options.callbacks.redirect({ url: result, baseUrl: options.origin }) }
    }
    if (!result) return { type: "signIn.denied", error: new AccessDenied("AccessDenied") }
    return { type: "signIn.allowed" }
  } catch (error) {
    if (error instanceof AuthError) return { type: "signIn.denied", error }
    return { type: "signIn.denied", error: new AccessDenied(error instanceof Error ? error : new Error(String(error))) }
  }
}
