/**
 * The session-writing effects of the shared sign-in tail, defined once for every action whose
 * machine ends in it: `createSession` (a database session) and `encodeToken` (a JWT). Each writes,
 * adds the cookies to the response and reports what happened; the machine chose which one runs.
 *
 * @module
 */
import { createDatabaseSession, encodeSessionToken, type SignInOutcome } from "./issue-session.js"
import type { AuthOptions } from "../core/options.js"
import type { Cookie } from "../types.js"

/** The events the session-writing effects report. */
export type SessionWriteEvent =
  | { type: "session.created" }
  | { type: "session.failed"; error: unknown }
  | { type: "token.encoded" }
  | { type: "encode.failed"; error: unknown }

/**
 * `createSession` and `encodeToken` for one request: `signedIn` says, from the flow's context, who
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
    createSession: async (context: TContext): Promise<SessionWriteEvent> => {
      try {
        cookies.push(...(await createDatabaseSession(options, signedIn(context))))
        return { type: "session.created" }
      } catch (error) {
        return { type: "session.failed", error }
      }
    },
    encodeToken: async (context: TContext): Promise<SessionWriteEvent> => {
      try {
        cookies.push(...(await encodeSessionToken(options, signedIn(context))))
        return { type: "token.encoded" }
      } catch (error) {
        return { type: "encode.failed", error }
      }
    },
  }
}
