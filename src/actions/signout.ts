import { MissingCSRF, SignOutError } from "../core/errors.js"
import { emitEvent } from "../core/events.js"
import { onFirstUse } from "../core/on-first-use.js"
import { decodeSessionCookie, sessionStoreOf } from "../core/session-cookie.js"
import { metaOfToken } from "../core/session-lifetime.js"
import { signOutMachine } from "../machines/sign-out.js"
import { csrfCheckEffect } from "../machines/csrf-check.js"
import { runFlow, type FlowEffects } from "../machines/run-flow.js"
import { outcomeOf, type FlowOutcomes } from "./flow-outcomes.js"
import { errorAnswer, type Answer } from "../core/answer.js"
import type { AuthOptions } from "../core/options.js"
import type { Cookie, ResponseInternal } from "../types.js"
import { asError } from "../core/as-error.js"

// Deleting a database session's row, finding its ID token, and the provider's end-session endpoint
// (with the OAuth client under it): loaded by the first sign-out that takes one of those steps.
const sessionEnds = /* @__PURE__ */ onFirstUse(() => import("./signout-ends.js"))

/**
 * POST `/signout`: runs the sign-out machine. The session ends (the JWT is read for
 * `events.signOut`, or the database row is deleted), the session cookies are cleared, and the user
 * is sent to the callback URL, or first to the provider's end-session endpoint when the session came
 * from a provider with `endSessionAtProvider`, with the ID token as `id_token_hint` (from the JWT,
 * or from the user's account row for a database session). A failure to end the session is logged and the
 * cookies are cleared anyway.
 *
 * @example
 * ```ts
 * // POST /auth/signout  (csrfToken, callbackUrl) → 302 to the callback URL, session cookie emptied
 * ```
 */
export async function signOutAction(options: AuthOptions, cookies: Cookie[]): Promise<Answer> {
  const store = sessionStoreOf(options)
  const effects: FlowEffects<typeof signOutMachine> = {
    ...csrfCheckEffect(options),
    findSession: () => (store.value ? { type: "session.found", strategy: options.session.strategy } : { type: "session.none" }),
    decodeToken: async () => {
      try {
        const token = await decodeSessionCookie(options, store)
        await emitEvent(options.config, options.logger, "signOut", { token })
        const meta = token ? metaOfToken(token) : undefined
        return { type: "token.decoded", provider: meta?.provider, idToken: meta?.idToken }
      } catch (error) {
        return { type: "decode.failed", error }
      }
    },
    // A failure to load them is the step's own failure: the machine clears the cookies all the same.
    deleteSession: () => sessionEnds().then((ends) => ends.deleteSession(options, store), (error: unknown) => ({ type: "delete.failed", error })),
    findIdToken: (context) => sessionEnds().then((ends) => ends.findIdToken(options, context), (error: unknown) => ({ type: "accounts.failed", error })),
    findEndSession: (context) => sessionEnds().then((ends) => ends.findEndSession(options, context), (error: unknown) => ({ type: "discovery.failed", error })),
  }
  // The session's cookies, and (second factors on, one present) when and how its user authenticated.
  const authContext = options.cookies.authContext
  const cleared = () => [...store.clear(), ...(options.secondFactor && options.request.cookies[authContext.name] ? [{ name: authContext.name, value: "", options: { ...authContext.options, maxAge: 0 } }] : [])]
  const signedOut = (): ResponseInternal => ({ redirect: options.callbackUrl, cookies: [...cookies, ...cleared()] })
  const outcomes: FlowOutcomes<typeof signOutMachine, Answer> = {
    csrfRejected: () => errorAnswer(new MissingCSRF("CSRF token was missing during an action signout")),
    signedOut,
    signedOutAtProvider: ({ endSessionUrl }) => ({ redirect: endSessionUrl!, cookies: [...cookies, ...cleared()] }),
    signedOutLocally: ({ ended, error }) => {
      options.logger.warn("provider-logout-unavailable")
      options.logger.debug("provider-logout-unavailable", { provider: ended?.provider, ...(error !== undefined && { error: String(error) }) })
      return signedOut()
    },
    endFailed: ({ error }) => {
      options.logger.error(new SignOutError(asError(error)))
      return signedOut()
    },
  }
  const providersEndingSession = options.providers.filter((provider) => (provider.type === "oidc" || provider.type === "oauth") && provider.endSessionAtProvider).map((provider) => provider.id)
  const listsAccounts = typeof options.adapter?.listAccountsByUserId === "function"
  return outcomeOf(await runFlow(signOutMachine, effects, { inspect: options.config.inspect, input: { policy: { providersEndingSession, listsAccounts } } }), outcomes)
}
