/**
 * The session-writing effects of the shared sign-in tail, defined once for every action whose
 * machine ends in it: `findSecondFactor` (the second factor's facts, before any session is written), `createSession` (a database session), `encodeToken` (a JWT) and
 * `renewStoredTokens` (the provider tokens a sign-in brought replace the stored ones). Each writes
 * and reports what happened, with the cookies it minted (a `CookieReport`: the run returns them
 * to the outcome table); the machine chose which one runs.
 *
 * @module
 */
import { encodeSessionToken, type SignInOutcome } from "./issue-session.js"
import { onFirstUse } from "../core/on-first-use.js"
import type { SignInTailEvent } from "../machines/sign-in-tail.js"
import type { AuthOptions } from "../core/options.js"
import type { Reported } from "../machines/run-flow.js"
import type { Cookie } from "../types.js"

/** The events the second-factor lookup reports. */
export type SecondFactorEvent = Extract<SignInTailEvent, { type: "secondFactor.found" | "secondFactor.failed" }>

/** The events the session-writing effects report, with the cookies they minted (a `CookieReport`). */
export type SessionWriteEvent = Reported<Extract<SignInTailEvent, { type: "session.created" | "session.failed" | "token.encoded" | "encode.failed" | "storedTokens.renewed" | "storedTokens.failed" }>>

/** The database session's writes, loaded by the first sign-in that writes one: JWT sessions never need them. */
const databaseSessionWrites = /* @__PURE__ */ onFirstUse(() => import("./issue-database-session.js"))

/**
 * `createSession`, `encodeToken` and `renewStoredTokens` for one request: `signedIn` says, from the flow's context, who
 * signed in and how. The cookies they write come back with their events (run the flow with
 * `runFlowWithCookies`, and set them in the outcome table).
 *
 * @example
 * ```ts
 * const effects: FlowEffects<typeof credentialsSignInMachine> = {
 *   ...otherEffects,
 *   ...sessionEffects(options, ({ user }) => ({ user: user!, account })),
 * }
 * ```
 */
export function sessionEffects<TContext>(options: AuthOptions, signedIn: (context: TContext) => SignInOutcome) {
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
      // Keeping the account signed in before can fail once the session is written: its cookies are set all the same.
      let cookies: Cookie[] = []
      try {
        const outcome = signedIn(context)
        const { broughtProviderTokens, createDatabaseSession } = await databaseSessionWrites()
        cookies = await withAuthContext(options, outcome, await createDatabaseSession(options, outcome))
        if (options.multiSession) cookies = [...cookies, ...(await keepSignedInAccounts(options, outcome.user.id))]
        return { type: "session.created", providerTokens: broughtProviderTokens(outcome.account), cookies }
      } catch (error) {
        return { type: "session.failed", error, cookies }
      }
    },
    renewStoredTokens: async (context: TContext): Promise<SessionWriteEvent> => {
      try {
        return await (await databaseSessionWrites()).renewStoredTokens(options, signedIn(context).account)
      } catch (error) {
        return { type: "storedTokens.failed", error }
      }
    },
    encodeToken: async (context: TContext): Promise<SessionWriteEvent> => {
      let cookies: Cookie[] = []
      try {
        const outcome = signedIn(context)
        cookies = await withAuthContext(options, outcome, await encodeSessionToken(options, outcome))
        if (options.multiSession) cookies = [...cookies, ...(await keepSignedInAccounts(options, outcome.user.id))]
        return { type: "token.encoded", cookies }
      } catch (error) {
        return { type: "encode.failed", error, cookies }
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
