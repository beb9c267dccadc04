import { MissingCSRF, SignOutError } from "../core/errors.js"
import { emitEvent } from "../core/events.js"
import { sessionStoreOf } from "../core/session-cookie.js"
import { signOutMachine } from "../machines/sign-out.js"
import { runFlow, type FlowEffects } from "../machines/run-flow.js"
import { notAnOutcome, outcomeOf, type FlowOutcomes } from "./flow-outcomes.js"
import type { AuthOptions } from "../core/options.js"
import type { Cookie, ResponseInternal } from "../types.js"

/**
 * POST `/signout`: runs the sign-out machine. The session ends (the JWT is read for
 * `events.signOut`, or the database row is deleted), the session cookies are cleared, and the user
 * is sent to the callback URL. A failure to end the session is logged and the cookies are cleared
 * anyway.
 *
 * @example
 * ```ts
 * // POST /auth/signout  (csrfToken, callbackUrl) → 302 to the callback URL, session cookie emptied
 * ```
 */
export async function signOutAction(options: AuthOptions, cookies: Cookie[]): Promise<ResponseInternal> {
  const store = sessionStoreOf(options)
  const effects: FlowEffects<typeof signOutMachine> = {
    checkCsrf: () => ({ type: options.csrfTokenVerified ? "csrf.valid" : "csrf.invalid" }),
    findSession: () => (store.value ? { type: "session.found", strategy: options.session.strategy } : { type: "session.none" }),
    decodeToken: async () => {
      try {
        const { jwt } = options
        const token = await jwt.decode({ token: store.value, secret: jwt.secret, salt: options.cookies.sessionToken.name })
        await emitEvent(options.config, options.logger, "signOut", { token })
        return { type: "token.decoded" }
      } catch (error) {
        return { type: "decode.failed", error }
      }
    },
    deleteSession: async () => {
      try {
        const session = await options.adapter!.deleteSession!(store.value!)
        await emitEvent(options.config, options.logger, "signOut", { session })
        return { type: "session.deleted" }
      } catch (error) {
        return { type: "delete.failed", error }
      }
    },
  }
  const signedOut = (): ResponseInternal => ({ redirect: options.callbackUrl, cookies: [...cookies, ...store.clear()] })
  const outcomes: FlowOutcomes<typeof signOutMachine, ResponseInternal> = {
    validatingInput: notAnOutcome,
    findingSession: notAnOutcome,
    decodingToken: notAnOutcome,
    deletingSession: notAnOutcome,
    csrfRejected: () => {
      throw new MissingCSRF("CSRF token was missing during an action signout")
    },
    signedOut,
    endFailed: ({ error }) => {
      options.logger.error(new SignOutError(error instanceof Error ? error : new Error(String(error))))
      return signedOut()
    },
  }
  return outcomeOf(await runFlow(signOutMachine, effects, { inspect: options.config.inspect }), outcomes)
}
