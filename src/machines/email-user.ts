/**
 * Who an email sign-in signs in, defined once for the link (the email verification machine) and
 * the emailed code (the email code machine): the user who has the address is verified, anyone else
 * is created; with database sessions, a browser signed in as another user is signed out of that
 * session first. Each machine spreads these actions, guards and states into its own definition.
 *
 * @module
 */
import { assign, type EventObject } from "xstate"
import type { AdapterUser } from "../adapters.js"
import { checkingSignInStates, persistingUserStates, type SignInOutcomeContext } from "./sign-in-tail.js"

/** What the sign-in will write once the `signIn` callback allows it. */
export type EmailUserPlan = "verifyExistingUser" | "createUser"

/** The events these pieces read: who has the address (and the id a new user gets), whose session the browser holds. */
export type EmailUserEvent =
  | { type: "user.lookedUp"; user: AdapterUser | null; newUserId: string }
  | { type: "lookup.failed"; error: unknown }
  | { type: "currentSession.found"; userId: string }
  | { type: "currentSession.none" }
  | { type: "currentSession.failed"; error: unknown }
  | { type: "otherSession.ended" }
  | { type: "otherSession.failed"; error: unknown }

/** What these pieces keep: the address signed in as, the user, and what the sign-in writes. */
export interface EmailUserContext extends SignInOutcomeContext {
  /** The address the sign-in is for, once accepted. */
  identifier?: string
  /** Who has the address, or the user the sign-in creates (not yet written); once written, as written. */
  user?: AdapterUser
  plan?: EmailUserPlan
}

/** The effects of the pieces. */
export type EmailUserEffect = "lookUpUser" | "findCurrentSession" | "endOtherSession"

/**
 * The actions: `plan` records who signs in (the user who has the address, or the one the sign-in
 * creates, with the id the lookup drew for it), `recordPersistedUser` the user as written.
 *
 * @example
 * ```ts
 * setup({ actions: { ...flowActions<C, E>(), ...emailUserActions<C, E>() } })
 * ```
 */
export function emailUserActions<TContext extends EmailUserContext, TEvent extends EventObject>() {
  return {
    plan: assign<TContext, TEvent, { plan: EmailUserPlan }, TEvent, never>(({ context, event }, params) => {
      if (event.type !== "user.lookedUp") return { plan: params.plan } as Partial<TContext>
      const { user, newUserId } = event as unknown as Extract<EmailUserEvent, { type: "user.lookedUp" }>
      return { plan: params.plan, user: user ?? { id: newUserId, email: context.identifier ?? "", emailVerified: null } } as Partial<TContext>
    }),
    recordPersistedUser: assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => {
      const user = event.type === "user.persisted" ? (event as { user?: AdapterUser }).user : undefined
      return (user ? { user } : {}) as Partial<TContext>
    }),
  }
}

/**
 * The guards.
 *
 * @example
 * ```ts
 * setup({ guards: { ...signInTailGuards<C, E>(), ...emailUserGuards<C, E>() } })
 * ```
 */
export function emailUserGuards<TContext extends EmailUserContext, TEvent extends EventObject>() {
  type Args = { context: TContext; event: TEvent }
  return {
    /** Someone already has the address. */
    userExists: ({ event }: Args) => event.type === "user.lookedUp" && (event as { user?: unknown }).user !== null,
    /**
     * The sign-in verifies a user who exists, with database sessions: a browser signed in as someone
     * else must not stay signed in as them once it signs in as this user.
     */
    verifiesOnDatabaseSessions: ({ context }: Args) => context.plan === "verifyExistingUser" && context.policy?.databaseSessions === true,
    /** The browser's database session is another user's. */
    sessionOfOtherUser: ({ context, event }: Args) => event.type === "currentSession.found" && (event as { userId?: string }).userId !== context.user?.id,
  }
}

/**
 * The two choices of `user.lookedUp`: verify the user who has the address, or create one.
 *
 * @example
 * ```ts
 * createMachine({ states: { lookingUpUser: { meta: { effect: "lookUpUser" }, on: { "user.lookedUp": plannedUser } } } })
 * ```
 */
export const plannedUser = [
  { guard: "userExists", target: "checkingSignIn", actions: { type: "plan", params: { plan: "verifyExistingUser" } } },
  { target: "checkingSignIn", actions: { type: "plan", params: { plan: "createUser" } } },
] as const

/**
 * Where an allowed sign-in goes: through the browser's current session (database sessions, an
 * existing user), or straight to the write.
 *
 * @example
 * ```ts
 * createMachine({ states: { ...checkingSignInStates(allowedEmailSignIn) } })
 * ```
 */
export const allowedEmailSignIn = [{ guard: "verifiesOnDatabaseSessions", target: "findingCurrentSession" }, { target: "persistingUser" }] as const

/**
 * `findingCurrentSession` and `endingOtherSession`: with database sessions, a browser signed in as
 * someone else is signed out of that session before the user is verified and signed in.
 *
 * @param failed - Where a failing database goes.
 * @example
 * ```ts
 * createMachine({ states: { ...currentSessionStates({ target: "persistFailed", actions: "recordError" }) } })
 * ```
 */
export function currentSessionStates<const TFailed>(failed: TFailed) {
  return {
    findingCurrentSession: {
      meta: { effect: "findCurrentSession" },
      on: {
        "currentSession.found": [{ guard: "sessionOfOtherUser", target: "endingOtherSession" }, { target: "persistingUser" }],
        "currentSession.none": "persistingUser",
        "currentSession.failed": failed,
      },
    },
    endingOtherSession: {
      meta: { effect: "endOtherSession" },
      on: {
        "otherSession.ended": "persistingUser",
        "otherSession.failed": failed,
      },
    },
  } as const
}

/**
 * From asking the `signIn` callback to writing the user, for a machine that found who has the
 * address (`plannedUser`): `checkingSignIn` and `resolvingRedirect`, then (database sessions, an
 * existing user) the browser's current session, then `persistingUser`, which records the user as
 * written and goes on to `issuingSession`. Every failing write goes to `failed`.
 *
 * @param failed - Where a failing database goes (the link puts its token back first).
 * @example
 * ```ts
 * createMachine({ states: { ...emailUserStates({ target: "persistFailed", actions: "recordError" }), ...issuingSessionStates(true) } })
 * ```
 */
export function emailUserStates<const TFailed>(failed: TFailed) {
  return {
    ...checkingSignInStates(allowedEmailSignIn),
    ...currentSessionStates(failed),
    ...persistingUserStates,
    persistingUser: {
      ...persistingUserStates.persistingUser,
      on: {
        "user.persisted": { target: "issuingSession", actions: ["recordNewUser", "recordPersistedUser"] },
        "persist.failed": failed,
      },
    },
  } as const
}
