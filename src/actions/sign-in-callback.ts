import type { AuthOptions } from "../core/options.js"
import type { SignInCallbackParams } from "../types.js"

/** What the `signIn` callback did, as the event the sign-in machines receive: the machine decides what it means. */
export type SignInAnswerEvent = { type: "signIn.answered"; result: unknown } | { type: "signIn.threw"; error: unknown }

/** What the `redirect` callback did with the URL the `signIn` callback answered. */
export type RedirectResolvedEvent = { type: "redirect.resolved"; url: string } | { type: "redirect.threw"; error: unknown }

/**
 * Asks the `signIn` callback whether a sign-in may go on, and reports its answer (or what it
 * threw) as it is. The sign-in tail's guards decide: `true` allows, a URL redirects, anything
 * else refuses.
 *
 * @example
 * ```ts
 * const answer = await askSignIn(options, { user, account, credentials }) // { type: "signIn.answered", result: true }
 * ```
 */
export async function askSignIn(options: AuthOptions, params: SignInCallbackParams): Promise<SignInAnswerEvent> {
  try {
    return { type: "signIn.answered", result: await options.callbacks.signIn(params) }
  } catch (error) {
    return { type: "signIn.threw", error }
  }
}

/**
 * Resolves the URL the `signIn` callback answered through the `redirect` callback.
 *
 * @example
 * ```ts
 * await resolveRedirect(options, "/welcome") // { type: "redirect.resolved", url: "https://app.example/welcome" }
 * ```
 */
export async function resolveRedirect(options: AuthOptions, url: string): Promise<RedirectResolvedEvent> {
  try {
    return { type: "redirect.resolved", url: await options.callbacks.redirect({ url, baseUrl: options.origin }) }
  } catch (error) {
    return { type: "redirect.threw", error }
  }
}
