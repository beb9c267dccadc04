import { MissingCSRF, SignOutError } from "../core/errors.js"
import { emitEvent } from "../core/events.js"
import { onFirstUse } from "../core/on-first-use.js"
import { decodeSessionCookie, sessionStoreOf } from "../core/session-cookie.js"
import { metaOfDatabaseToken, metaOfToken } from "../core/session-lifetime.js"
import { signOutMachine } from "../machines/sign-out.js"
import { csrfCheckEffect } from "../machines/csrf-check.js"
import { runFlow, type FlowEffects } from "../machines/run-flow.js"
import { outcomeOf, type FlowOutcomes } from "./flow-outcomes.js"
import { errorAnswer, type Answer } from "../core/answer.js"
import type { AuthOptions } from "../core/options.js"
import type { Cookie, ResponseInternal } from "../types.js"
import { asError } from "../core/as-error.js"

// The provider's discovery (and the OAuth client under it) is loaded by the first sign-out that
// ends a session at its provider.
const discovery = onFirstUse(() => import("../core/oauth/discovery.js"))

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
    deleteSession: async () => {
      try {
        const session = await options.adapter!.deleteSession!(store.value!)
        await emitEvent(options.config, options.logger, "signOut", { session })
        const userId = session && typeof session.userId === "string" ? session.userId : undefined
        return { type: "session.deleted", provider: metaOfDatabaseToken(store.value!)?.provider, userId }
      } catch (error) {
        return { type: "delete.failed", error }
      }
    },
    findIdToken: async ({ ended }) => {
      try {
        const accounts = await options.adapter!.listAccountsByUserId!(ended!.userId!)
        const idTokens = accounts.flatMap((account) => (account.provider === ended!.provider && typeof account.id_token === "string" ? [account.id_token] : []))
        return { type: "accounts.listed", idTokens }
      } catch (error) {
        return { type: "accounts.failed", error }
      }
    },
    findEndSession: async ({ ended }) => {
      const provider = options.providers.find((candidate) => candidate.id === ended?.provider)
      try {
        if (provider?.type !== "oidc" && provider?.type !== "oauth") return { type: "endSession.missing" }
        const server = await (await discovery()).authorizationServer(provider)
        if (typeof server.end_session_endpoint !== "string") return { type: "endSession.missing" }
        const url = new URL(server.end_session_endpoint)
        if (ended?.idToken) url.searchParams.set("id_token_hint", ended.idToken)
        if (provider.clientId) url.searchParams.set("client_id", provider.clientId)
        url.searchParams.set("post_logout_redirect_uri", options.callbackUrl)
        return { type: "endSession.found", url: url.href }
      } catch (error) {
        return { type: "discovery.failed", error }
      }
    },
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
