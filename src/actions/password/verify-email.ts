/**
 * GET `/verify-email/<id>?token=…`: the link a Password account's verification mail carries,
 * through the address verification machine (see {@link passwordVerifyEmailMachine}). Loaded when
 * the first one arrives.
 *
 * @module
 */
import { CallbackRouteError, PasswordLinkExpired, PasswordLinkInvalid } from "../../core/errors.js"
import { errorAnswer, type Answer } from "../../core/answer.js"
import { asError } from "../../core/as-error.js"
import { runFlow, type FlowEffects } from "../../machines/run-flow.js"
import { passwordVerifyEmailMachine } from "../../machines/password-verify-email.js"
import type { LinkEvent } from "../../machines/password-link.js"
import { outcomeOf, type FlowOutcomes } from "../flow-outcomes.js"
import { openPasswordLink, type PasswordLinkPurpose } from "./link-token.js"
import { addressStillBound, signInPageUrl } from "./mails.js"
import type { AuthOptions } from "../../core/options.js"
import type { Cookie, CredentialsConfig } from "../../types.js"

/**
 * The `openLink` effect of a link-following machine: the request's `token` opened for `purpose`,
 * reported with its claims (the binding kept aside for the user lookup), or why it cannot be used.
 *
 * @example
 * ```ts
 * const { openLink, bound } = linkOpener(options, "verify-email")
 * ```
 */
export function linkOpener(options: AuthOptions, purpose: PasswordLinkPurpose): { openLink: () => Promise<LinkEvent>; bound: () => string } {
  let bound = ""
  return {
    openLink: async () => {
      const opened = await openPasswordLink(options.secret, purpose, options.request.query.token)
      if (!opened.ok) return { type: `link.${opened.reason}` }
      bound = opened.claims.bound
      const { userId, email, newEmail } = opened.claims
      return { type: "link.opened", link: { userId, email, ...(newEmail !== undefined && { newEmail }) } }
    },
    bound: () => bound,
  }
}

/**
 * The answers of a link that cannot be used: `PasswordLinkInvalid` (with the reason) or
 * `PasswordLinkExpired`, on the sign-in page.
 *
 * @example
 * ```ts
 * const outcomes = { ...linkRefusals(provider, "verify-email", cookies), emailVerified: … }
 * ```
 */
export function linkRefusals(provider: CredentialsConfig, purpose: PasswordLinkPurpose, cookies: Cookie[]) {
  const invalid = (reason: string) => () => errorAnswer(new PasswordLinkInvalid(`The ${purpose} link cannot be used (${reason})`, { cause: { provider: provider.id, purpose, reason } }), cookies)
  return {
    linkMissing: invalid("missing"),
    linkInvalid: invalid("invalid"),
    linkStale: invalid("stale"),
    linkExpired: () => errorAnswer(new PasswordLinkExpired(`The ${purpose} link has expired`, { cause: { provider: provider.id, purpose } }), cookies),
  }
}

/**
 * Verifies the address a Password account's link was mailed to, then sends the user to the sign-in
 * page with `notice=email-verified` (the link does not sign in).
 *
 * @example
 * ```ts
 * // GET /auth/verify-email/password?token=… → 302 /auth/signin?notice=email-verified
 * return passwordVerifyEmail(options, provider, cookies)
 * ```
 */
export async function passwordVerifyEmail(options: AuthOptions, provider: CredentialsConfig, cookies: Cookie[]): Promise<Answer> {
  const adapter = options.adapter!
  const opener = linkOpener(options, "verify-email")
  const effects: FlowEffects<typeof passwordVerifyEmailMachine> = {
    openLink: opener.openLink,
    findLinkedUser: async ({ link }) => {
      try {
        const user = await adapter.getUser!(link!.userId)
        if (!user) return { type: "user.missing" }
        return { type: "user.found", bound: await addressStillBound(options.secret, opener.bound(), user.id, user.email), verified: user.emailVerified != null }
      } catch (error) {
        return { type: "lookup.failed", error }
      }
    },
    markVerified: async ({ link }) => {
      try {
        await adapter.updateUser!({ id: link!.userId, emailVerified: new Date() })
        return { type: "email.verified" }
      } catch (error) {
        return { type: "update.failed", error }
      }
    },
  }
  const outcomes: FlowOutcomes<typeof passwordVerifyEmailMachine, Answer> = {
    ...linkRefusals(provider, "verify-email", cookies),
    emailVerified: () => ({ redirect: signInPageUrl(options, { notice: "email-verified" }), cookies }),
    verifyFailed: ({ error }) => errorAnswer(new CallbackRouteError(asError(error), { cause: { provider: provider.id } }), cookies),
  }
  return outcomeOf(await runFlow(passwordVerifyEmailMachine, effects, { inspect: options.config.inspect }), outcomes)
}
