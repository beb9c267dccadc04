/**
 * Finding who is signed in, for the Password provider's signed-in flows (change the password,
 * change the address), defined once: a state whose effect (`findSessionUser`) reports the signed-in
 * user with the address their account has now, nobody, or a failure. The machines spread it in,
 * so the inspector and the model tests see the same three ways out everywhere.
 *
 * @module
 */
import { assign } from "xstate"

/** The signed-in user, with the address their account has now (a JWT carries the one it was issued with). */
export interface SessionUser {
  id: string
  email: string
}

/** What the `findSessionUser` effect reports. */
export type SessionUserEvent = { type: "session.user"; user: SessionUser } | { type: "session.none" } | { type: "session.failed"; error: unknown }

/** The effect a session-finding state names. */
export type SessionUserEffect = "findSessionUser"

/** Context of a machine that acts for the signed-in user: the user, and the rate limiter's identity (their address). */
export interface SessionUserContext {
  user?: SessionUser
  rateLimitIdentity?: string
}

/**
 * A state that finds the signed-in user (`findSessionUser`) and goes on to `next` with them
 * recorded (`recordUser`, which also makes their address the rate limiter's identity); nobody
 * signed in ends in `signInRequired`, a failure in `failed` (with `recordError`).
 *
 * @param next - The state a signed-in user goes to.
 * @param failed - The final state of a failed lookup.
 * @example
 * ```ts
 * createMachine({ states: { findingSession: findingSessionState("checkingRateLimit", "changeFailed"), signInRequired: { type: "final" }, … } })
 * ```
 */
export function findingSessionState<const TNext extends string, const TFailed extends string>(next: TNext, failed: TFailed) {
  return {
    meta: { effect: "findSessionUser" },
    on: {
      "session.user": { target: next, actions: "recordUser" },
      "session.none": "signInRequired",
      "session.failed": { target: failed, actions: "recordError" },
    },
  } as const
}

/**
 * The named action of a machine acting for the signed-in user, for its `setup({ actions })`:
 * `recordUser` keeps the user and counts the rate limit on their address.
 *
 * @example
 * ```ts
 * setup({ actions: { ...sessionUserActions<MyContext, MyEvent>() } })
 * ```
 */
export function sessionUserActions<TContext extends SessionUserContext, TEvent extends { type: string }>() {
  return {
    recordUser: assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => {
      const { user } = event as { user?: SessionUser }
      return (user ? { user, rateLimitIdentity: user.email } : {}) as Partial<TContext>
    }),
  }
}
