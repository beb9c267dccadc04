/**
 * The session-writing effects of the shared sign-in tail, defined once for every action whose
 * machine ends in it: `findSecondFactor` (the second factor's facts, before any session is written), `createSession` (a database session), `encodeToken` (a JWT) and
 * `renewStoredTokens` (the provider tokens a sign-in brought replace the stored ones). Each writes,
 * adds the cookies to the response and reports what happened; the machine chose which one runs.
 *
 * @module
 */
import { broughtProviderTokens, createDatabaseSession, encodeSessionToken, renewStoredTokens, type SignInOutcome } from "./issue-session.js"
import type { SignInTailEvent } from "../machines/sign-in-tail.js"
import type { AuthOptions } from "../core/options.js"
import type { Cookie } from "../types.js"

/** The events the second-factor lookup reports. */
export type SecondFactorEvent = Extract<SignInTailEvent, { type: "secondFactor.found" | "secondFactor.failed" }>

/** The events the session-writing effects report. */
export type SessionWriteEvent = Extract<SignInTailEvent, { type: "session.created" | "session.failed" | "token.encoded" | "encode.failed" | "storedTokens.renewed" | "storedTokens.failed" }>

/**
 * `createSession`, `encodeToken` and `renewStoredTokens` for one request: `signedIn` says, from the flow's context, who
 * signed in and how; the cookies they write go into `cookies`.
 *
 * @example
 * ```ts
 * const effects: FlowEffects<typeof credentialsSignInMachine> = {
 *   ...otherEffects,
 *   ...sessionEffects(options, cookies, ({ user }) => ({ user: user!, account })),
 * }
 * ```
 */
export function sessionEffects<TContext>(options: AuthOptions, cookies: Cookie[], signedIn: (context: TContext) => SignInOutcome) {
  return {
    // Loaded when a sign-in first reaches it: an app without second factors never does.
    findSecondFactor: async (context: TContext): Promise<SecondFactorEvent> => {
      try {
        return await (await import("./second-factor/find.js")).secondFactorFacts(options, signedIn(context))
      } catch (error) {
        return { type: "secondFactor.failed", error }
      }
    },
    createSession: async (context: TContext): Promise<SessionWriteEvent> => {
      try {
        const outcome = signedIn(context)
        cookies.push(...(await withAuthContext(options, outcome, await createDatabaseSession(options, outcome))))
        if (options.multiSession) cookies.push(...(await keepSignedInAccounts(options, outcome.user.id)))
        return { type: "session.created", providerTokens: broughtProviderTokens(outcome.account) }
      } catch (error) {
        return { type: "session.failed", error }
      }
    },
    renewStoredTokens: async (context: TContext): Promise<SessionWriteEvent> => {
      try {
        return await renewStoredTokens(options, signedIn(context).account)
      } catch (error) {
        return { type: "storedTokens.failed", error }
      }
    },
    encodeToken: async (context: TContext): Promise<SessionWriteEvent> => {
      try {
        const outcome = signedIn(context)
        cookies.push(...(await withAuthContext(options, outcome, await encodeSessionToken(options, outcome))))
        if (options.multiSession) cookies.push(...(await keepSignedInAccounts(options, outcome.user.id)))
        return { type: "token.encoded" }
      } catch (error) {
        return { type: "encode.failed", error }
      }
    },
  }
}

/** With `multiSession` on: the account signed in before stays beside the new one (loaded only then). */
async function keepSignedInAccounts(options: AuthOptions, userId: string | undefined): Promise<Cookie[]> {
  return (await import("./multi-session/add.js")).keepSignedInAccounts(options, userId)
}

/**
 * The session's cookies, with the auth-context cookie (when and how the user authenticated) beside
 * them where second factors are on and a session cookie was written. Loaded only then.
 */
async function withAuthContext(options: AuthOptions, outcome: SignInOutcome, sessionCookies: Cookie[]): Promise<Cookie[]> {
  const { name } = options.cookies.sessionToken
  if (!options.secondFactor || !sessionCookies.some((cookie) => cookie.name.startsWith(name) && cookie.value !== "")) return sessionCookies
  const { amrOf, authContextCookie } = await import("./second-factor/auth-context.js")
  return [...sessionCookies, await authContextCookie(options, { userId: outcome.user.id!, amr: amrOf(options, outcome.account, outcome.secondFactor) })]
}
