/**
 * What every first-factor action adds for the sign-in tail's second-factor states: the answers
 * of `secondFactorRequired` and `secondFactorUnavailable` (the `findSecondFactor` effect comes
 * with `sessionEffects`). The second-factor code itself is loaded only when a sign-in
 * reaches it, so an app without second factors never loads it.
 *
 * @module
 */
import type { Answer } from "../../core/answer.js"
import type { AuthOptions } from "../../core/options.js"
import type { SignInOutcomeContext } from "../../machines/sign-in-tail.js"
import type { SignInOutcome } from "../issue-session.js"
import type { Cookie } from "../../types.js"

/**
 * The answers of the tail's second-factor finals for one action: `secondFactorRequired` starts the
 * second-factor flow (sealed, no session yet) and sends the user to its page;
 * `secondFactorUnavailable` is refused with `SecondFactorUnavailable` (both from the second-factor
 * flow's module, which only an app with second factors loads).
 *
 * @param signedIn - Who passed the first factor, and how, from the flow's context.
 * @param callbackUrl - Where the sign-in returns to once the second factor passed.
 * @example
 * ```ts
 * const outcomes = { ...secondFactorOutcomes(options, cookies, signedIn, () => options.callbackUrl), signedIn: … }
 * ```
 */
export function secondFactorOutcomes<TContext extends SignInOutcomeContext>(
  options: AuthOptions,
  cookies: Cookie[],
  signedIn: (context: TContext) => SignInOutcome,
  callbackUrl: (context: TContext) => string,
) {
  return {
    secondFactorRequired: async (context: TContext): Promise<Answer> =>
      (await import("./flow.js")).startSecondFactor(options, cookies, { ...signedIn(context), callbackUrl: callbackUrl(context), methods: context.secondFactorMethods ?? [] }),
    secondFactorUnavailable: async (context: TContext): Promise<Answer> => (await import("./flow.js")).secondFactorUnavailable(cookies, signedIn(context).account.provider),
  }
}
