/**
 * The end every sign-in shares, defined once: ask the `signIn` callback (and resolve the URL it
 * may answer through the `redirect` callback), write the user (where the flow has something to
 * write), issue the session (a database row or a JWT) and end signed in, on the new-user page or
 * not. Each sign-in machine spreads these states, actions and guards into its own definition, so
 * the inspector and the model tests see the same tail everywhere. The effects report what they
 * found; the guards here decide.
 *
 * @module
 */
import { and, assign, type EventObject } from "xstate"
import { AccessDenied, AuthError } from "../core/errors.js"
import type { AdapterUser } from "../adapters.js"
import { asError } from "../core/as-error.js"

/**
 * What the tail's guards need to know of the configuration: the session strategy, and whether
 * `pages.newUser` is set. A machine that runs in one request takes it as its `input`; a machine
 * resumed from a sealed snapshot takes it with the event that resumes it, so it is never sealed.
 */
export interface SignInTailPolicy {
  /** `session.strategy` is `"database"`. */
  databaseSessions: boolean
  /** `pages.newUser` is set. */
  newUserPage: boolean
  /**
   * Database sessions, and the provider signed in with has its tokens refreshed: an account linked
   * before keeps its tokens in its row, and a sign-in that brings new ones stores them there.
   * @default false
   */
  renewsStoredTokens?: boolean
  /**
   * Second factors are on (`secondFactor` in the configuration): before the session is written,
   * the tail looks up the user's second factor (`checkingSecondFactor`), and a user who has one,
   * or must have one, stops in `secondFactorRequired` until it passes.
   * @default false
   */
  secondFactor?: boolean
  /**
   * A passkey verified with user verification counts as both factors (`secondFactor.passkeyCountsAsTwoFactors`).
   * @default true
   */
  passkeyCountsAsTwoFactors?: boolean
}

/**
 * The initial context of a machine that takes the tail's policy as its input
 * (`{ policy: SignInTailPolicy }`, optional: without it, JWT sessions and no new-user page).
 *
 * @example
 * ```ts
 * createMachine({ context: ({ input }) => contextFromInput(input), … })
 * ```
 */
export function contextFromInput(input: unknown): { policy?: SignInTailPolicy } {
  const policy = (input as { policy?: SignInTailPolicy } | undefined)?.policy
  return policy ? { policy } : {}
}

/** What every sign-in machine's context records about how it ended. */
export interface SignInOutcomeContext {
  /** The configuration facts the tail's guards read (see {@link SignInTailPolicy}). */
  policy?: SignInTailPolicy
  isNewUser?: boolean
  /** The URL the `signIn` callback answered, before the `redirect` callback resolves it. */
  requestedRedirect?: string
  redirectTo?: string
  error?: unknown
  /** The second factors the user can pass, once the tail found one is due (`secondFactorRequired`). */
  secondFactorMethods?: SecondFactorMethod[]
}

/** A way to pass the second factor: an authenticator app's code, a backup code, or a code sent by email. */
export type SecondFactorMethod = "totp" | "backup" | "email"

/**
 * What the `findSecondFactor` effect found about the user who passed the first factor: how many
 * authenticator apps and backup codes they have, whether the configuration requires a second
 * factor of them, whether a code can be emailed to them, whether the first factor was a passkey
 * verified with user verification, and whether this browser holds a trusted-device cookie of the
 * user that still matches their factors.
 */
export interface SecondFactorFound {
  type: "secondFactor.found"
  factors: number
  backupCodes: number
  required: boolean
  emailCode: boolean
  /** The first factor was an email link: an emailed code would be the same factor again, so it is not offered. */
  firstFactorEmail: boolean
  passkeyVerified: boolean
  /** The trusted-device cookie's user, factors fingerprint and making time (epoch ms). */
  trustedDevice?: { userId: string; fingerprint: string; issuedAt: number }
  /** The user, their factors' fingerprint now, and when their sessions were last revoked (epoch ms), where they were. */
  current: { userId: string; fingerprint: string; revokedAt?: number }
}

/**
 * The events of the sign-in tail, each the outcome of the effect its state names. `session.created`
 * says whether the account signed in with brought provider tokens that can be refreshed (a refresh
 * token and an expiry); `storedTokens.renewed` whether the row's tokens were replaced;
 * `user.persisted` may carry the user as written.
 */
export type SignInTailEvent =
  | { type: "signIn.answered"; result: unknown }
  | { type: "signIn.threw"; error: unknown }
  | { type: "redirect.resolved"; url: string }
  | { type: "redirect.threw"; error: unknown }
  | { type: "user.persisted"; isNewUser: boolean; user?: AdapterUser }
  | { type: "persist.failed"; error: unknown }
  | { type: "session.created"; providerTokens?: boolean }
  | { type: "session.failed"; error: unknown }
  | { type: "storedTokens.renewed"; replaced: boolean }
  | { type: "storedTokens.failed"; error: unknown }
  | { type: "token.encoded" }
  | { type: "encode.failed"; error: unknown }
  | SecondFactorFound
  | { type: "secondFactor.failed"; error: unknown }

/** The events of asking the `signIn` callback, for a machine that uses only {@link checkingSignInStates} (asking for an email link). */
export type SignInCallbackEvent = Extract<SignInTailEvent, { type: "signIn.answered" | "signIn.threw" | "redirect.resolved" | "redirect.threw" }>

/** The effects the sign-in tail names. */
export type SignInTailEffect = "askSignIn" | "resolveRedirect" | "persistUser" | "findSecondFactor" | "createSession" | "encodeToken" | "renewStoredTokens"

/** The effects of asking the `signIn` callback, for a machine that uses only {@link checkingSignInStates}. */
export type SignInCallbackEffect = Extract<SignInTailEffect, "askSignIn" | "resolveRedirect">

/**
 * The named actions of every flow machine, for its `setup({ actions })`: `recordError` keeps the
 * event's `error`, `recordRedirect` its `url`, `recordNewUser` its `isNewUser`;
 * `recordRequestedRedirect` keeps the URL the `signIn` callback answered; `recordRefusal` records
 * `AccessDenied` for a falsy answer, `recordRefusalCause` an `AccessDenied` wrapping what a
 * callback threw.
 *
 * @example
 * ```ts
 * setup({ types: { context: {} as MyContext, events: {} as MyEvent }, actions: flowActions<MyContext, MyEvent>() })
 * ```
 */
export function flowActions<TContext extends SignInOutcomeContext, TEvent extends EventObject>() {
  return {
    recordError: assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => ({ error: (event as { error?: unknown }).error }) as Partial<TContext>),
    recordRedirect: assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => ({ redirectTo: (event as { url?: string }).url }) as Partial<TContext>),
    recordNewUser: assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => ({ isNewUser: (event as { isNewUser?: boolean }).isNewUser }) as Partial<TContext>),
    recordRequestedRedirect: assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => ({ requestedRedirect: (event as { result?: unknown }).result as string }) as Partial<TContext>),
    recordRefusal: assign<TContext, TEvent, undefined, TEvent, never>(() => ({ error: new AccessDenied("AccessDenied") }) as Partial<TContext>),
    recordRefusalCause: assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => ({ error: new AccessDenied(asError((event as { error?: unknown }).error)) }) as Partial<TContext>),
    recordSecondFactorMethods: assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => ({ secondFactorMethods: secondFactorMethodsOf(event) }) as Partial<TContext>),
  }
}

/**
 * The named guards of the sign-in tail, for a machine's `setup({ guards })`.
 *
 * @example
 * ```ts
 * setup({ guards: { ...signInTailGuards<MyContext, MyEvent>(), mine: () => true } })
 * ```
 */
export function signInTailGuards<TContext extends SignInOutcomeContext, TEvent extends EventObject>() {
  type Args = { context: TContext; event: TEvent }
  // The `signIn` callback's answer; any other event answers nothing (`undefined`), which neither guard below accepts.
  const answer = (event: TEvent) => (event.type === "signIn.answered" ? (event as { result?: unknown }).result : undefined)
  return {
    /** The `signIn` callback answered a URL (a string): the user is sent there, through the `redirect` callback. */
    answeredUrl: ({ event }: Args) => typeof answer(event) === "string",
    /** The `signIn` callback answered `true` (any truthy answer that is not a URL): the sign-in goes on. */
    answeredTrue: ({ event }: Args) => typeof answer(event) !== "string" && Boolean(answer(event)),
    /** The callback threw an `AuthError`: the refusal keeps it as it is (any other error is wrapped in `AccessDenied`). */
    threwAuthError: ({ event }: Args) => (event.type === "signIn.threw" || event.type === "redirect.threw") && (event as { error?: unknown }).error instanceof AuthError,
    /** Sessions are database rows (`session.strategy: "database"`), not JWTs. */
    databaseSessions: ({ context }: Args) => context.policy?.databaseSessions === true,
    /** The sign-in created its user and `pages.newUser` is set: the user is sent there first. */
    newUserPage: ({ context }: Args) => context.isNewUser === true && context.policy?.newUserPage === true,
    /** The session is written, the sign-in brought provider tokens, and the provider's stored tokens are refreshed: they are replaced by the new ones. */
    renewsStoredTokens: ({ context, event }: Args) =>
      event.type === "session.created" && (event as { providerTokens?: boolean }).providerTokens === true && context.policy?.renewsStoredTokens === true,
    /** Second factors are on in the configuration: the tail looks the user's up before writing the session. */
    secondFactorEnabled: ({ context }: Args) => context.policy?.secondFactor === true,
    /** The first factor was a passkey verified with user verification, and such a passkey counts as both factors. */
    passkeyCountsAsTwoFactors: ({ context, event }: Args) => found(event)?.passkeyVerified === true && context.policy?.passkeyCountsAsTwoFactors !== false,
    /** This browser holds the user's trusted-device cookie, made while the user's factors were the ones they have now, and after their sessions were last revoked. */
    deviceTrusted: ({ event }: Args) => {
      const facts = found(event)
      const device = facts?.trustedDevice
      return device !== undefined && device.userId === facts!.current.userId && device.fingerprint === facts!.current.fingerprint && device.issuedAt > (facts!.current.revokedAt ?? 0)
    },
    /** The user has an authenticator app or backup codes: the second factor is due. */
    hasSecondFactor: ({ event }: Args) => {
      const facts = found(event)
      return facts !== undefined && (facts.factors > 0 || facts.backupCodes > 0)
    },
    /** The configuration requires a second factor of this user, who has none enrolled, and a code can be emailed to them (a machine whose first factor is an email has no such rule). */
    requiredByEmailCode: ({ event }: Args) => {
      const facts = found(event)
      return facts?.required === true && facts.emailCode
    },
    /** The configuration requires a second factor of this user, who has no way to pass one. */
    requiredWithoutMethod: ({ event }: Args) => found(event)?.required === true,
  }
}

function found(event: EventObject): SecondFactorFound | undefined {
  return event.type === "secondFactor.found" ? (event as SecondFactorFound) : undefined
}

/** The second factors a user can pass, from what `findSecondFactor` found. */
function secondFactorMethodsOf(event: EventObject): SecondFactorMethod[] {
  const facts = found(event)
  if (!facts) return []
  return [...(facts.factors > 0 ? (["totp"] as const) : []), ...(facts.backupCodes > 0 ? (["backup"] as const) : []), ...(facts.emailCode && !facts.firstFactorEmail ? (["email"] as const) : [])]
}

/**
 * Where an allowed sign-in goes next: straight to the session, through writing the user first, or
 * (asking for an email link, where nobody is signed in yet) to the machine's own next step.
 */
type AllowedTransition = string | readonly { guard?: string; target: string }[]

type AllowedTarget<TAllowed> = TAllowed extends string ? TAllowed : TAllowed extends readonly { target: infer TTarget }[] ? TTarget : never

function allowedTransitions<const TAllowed extends AllowedTransition>(allowed: TAllowed) {
  if (typeof allowed === "string") return [{ guard: "answeredTrue", target: allowed }] as const
  return (allowed as readonly { guard?: string; target: string }[]).map(({ guard, target }) => ({ guard: guard === undefined ? "answeredTrue" : and(["answeredTrue", guard]), target }))
}

/**
 * `checkingSignIn`: asks the `signIn` callback (a machine enters it when it knows who signs in),
 * and `resolvingRedirect`: resolves the URL it answered through the `redirect` callback. `true`
 * goes on; a URL is resolved and the user redirected there; anything else is refused with
 * `AccessDenied`. An `AuthError` either callback throws is kept; any other error becomes
 * `AccessDenied` wrapping it.
 *
 * @param allowed - Where an allowed sign-in leads: `"persistingUser"`, `"issuingSession"`, another state of the machine, or guarded choices.
 * @example
 * ```ts
 * createMachine({ states: { ...checkingSignInStates("issuingSession"), ...issuingSessionStates(true) } })
 * ```
 */
export function checkingSignInStates<const TAllowed extends AllowedTransition>(allowed: TAllowed) {
  const threw = [
    { guard: "threwAuthError", target: "accessDenied", actions: "recordError" },
    { target: "accessDenied", actions: "recordRefusalCause" },
  ] as const
  return {
    checkingSignIn: {
      meta: { effect: "askSignIn" },
      on: {
        "signIn.answered": [
          ...(allowedTransitions(allowed) as unknown as readonly { guard: "answeredTrue"; target: AllowedTarget<TAllowed> }[]),
          { guard: "answeredUrl", target: "resolvingRedirect", actions: "recordRequestedRedirect" },
          { target: "accessDenied", actions: "recordRefusal" },
        ],
        "signIn.threw": threw,
      },
    },
    resolvingRedirect: {
      meta: { effect: "resolveRedirect" },
      on: {
        "redirect.resolved": { target: "redirected", actions: "recordRedirect" },
        "redirect.threw": threw,
      },
    },
  } as const
}

/**
 * `persistingUser` (create or link the user, then issue the session) and its failure, for the
 * machines that write a user.
 *
 * @example
 * ```ts
 * createMachine({ states: { ...checkingSignInStates("persistingUser"), ...persistingUserStates, ...issuingSessionStates(true) } })
 * ```
 */
export const persistingUserStates = {
  persistingUser: {
    meta: { effect: "persistUser" },
    on: {
      "user.persisted": { target: "issuingSession", actions: "recordNewUser" },
      "persist.failed": { target: "persistFailed", actions: "recordError" },
    },
  },
  persistFailed: { type: "final" },
} as const

/** Where a failed session write goes, and what it records on the way. */
export interface SessionFailureTransition {
  readonly target: string
  readonly actions?: unknown
}

/** Options of {@link issuingSessionStates}. */
export interface IssuingSessionOptions<TFailure extends SessionFailureTransition = SessionFailureTransition> {
  /**
   * Where writing the session (the database row, or the JWT) failing goes, defined once for both
   * (a machine that must undo something first sends it there).
   * @default { target: "sessionFailed", actions: "recordError" }
   */
  failure?: TFailure
  /**
   * After a database session is written, replace the provider tokens stored for the account by
   * the ones the sign-in brought (`renewingStoredTokens`), when the `renewsStoredTokens` guard
   * says so. For machines whose sign-ins bring provider tokens (OAuth).
   * @default false
   */
  renewsStoredTokens?: boolean
  /**
   * Check for a second factor before the session is written (`checkingSecondFactor`, when the
   * `secondFactorEnabled` guard says so). Off for the second-factor flow itself, which issues the
   * session once the factor passed.
   * @default true
   */
  checksSecondFactor?: boolean
  /**
   * What the first factor was, for the rules of `checkingSecondFactor`: a machine carries only the
   * rules its first factor can meet, so every transition it has can fire.
   * - `"passkey"`: a passkey verified with user verification may count as both factors.
   * - `"email"`: an emailed link or code; an emailed second code would be the same factor again, so
   *   a required user without an authenticator app is refused, not emailed a code.
   * - `"other"`: a password, an OAuth provider, `authorize`.
   * @default "other"
   */
  firstFactor?: FirstFactorKind
}

/**
 * What the first factor was, as the second-factor check's rules tell it apart (see {@link IssuingSessionOptions.firstFactor}).
 *
 * @example
 * ```ts
 * const firstFactor: FirstFactorKind = "email" // a sign-in by an emailed link: no second code is emailed
 * createMachine({ states: { ...issuingSessionStates(true, { firstFactor }) } })
 * ```
 */
export type FirstFactorKind = "passkey" | "email" | "other"

const sessionFailed = { target: "sessionFailed", actions: "recordError" } as const

type SignedInTransitions<TCreatesUsers extends boolean> = TCreatesUsers extends true
  ? readonly [{ readonly guard: "newUserPage"; readonly target: "signedInNewUser" }, { readonly target: "signedIn" }]
  : readonly [{ readonly target: "signedIn" }]

type RenewingStates<TCreatesUsers extends boolean> = {
  readonly renewingStoredTokens: {
    readonly meta: { readonly effect: "renewStoredTokens" }
    readonly on: { readonly "storedTokens.renewed": SignedInTransitions<TCreatesUsers>; readonly "storedTokens.failed": SignedInTransitions<TCreatesUsers> }
  }
}

/**
 * `issuingSession` chooses the strategy: `creatingSession` writes a database session, or
 * `encodingToken` runs the `jwt` callback and writes the JWT. Either then fires `events.signIn`.
 * With `renewsStoredTokens`, a database session whose sign-in brought provider tokens goes
 * through `renewingStoredTokens` first (the guard of the same name decides), which stores them;
 * whether that works or not, the user is signed in. The finals of the tail: `signedIn`,
 * `signedInNewUser` (for a machine that creates users: the user was created and `pages.newUser`
 * is set), `accessDenied`, `redirected`, `sessionFailed`.
 *
 * @param createsUsers - The machine may create users: a created user goes to `signedInNewUser` when `pages.newUser` is set.
 * @param options - Where a failed session write goes (defined once for both writes), and whether stored provider tokens are renewed.
 * @example
 * ```ts
 * createMachine({ states: { ...checkingSignInStates("issuingSession"), ...issuingSessionStates(false) } })
 * createMachine({ states: { ...issuingSessionStates(true, { failure: { target: "restoringToken", actions: "recordError" } }) } })
 * ```
 */
export function issuingSessionStates<
  const TCreatesUsers extends boolean,
  const TFailure extends SessionFailureTransition = typeof sessionFailed,
  const TRenews extends boolean = false,
  const TChecks extends boolean = true,
>(createsUsers: TCreatesUsers, options: { failure?: TFailure; renewsStoredTokens?: TRenews; checksSecondFactor?: TChecks; firstFactor?: FirstFactorKind } = {}) {
  const signedIn = (createsUsers ? [{ guard: "newUserPage", target: "signedInNewUser" }, { target: "signedIn" }] : [{ target: "signedIn" }]) as unknown as SignedInTransitions<TCreatesUsers>
  const failure = (options.failure ?? sessionFailed) as TFailure
  const renews = options.renewsStoredTokens === true
  const created = (renews ? [{ guard: "renewsStoredTokens", target: "renewingStoredTokens" }, ...signedIn] : signedIn) as TRenews extends true
    ? readonly [{ readonly guard: "renewsStoredTokens"; readonly target: "renewingStoredTokens" }, ...SignedInTransitions<TCreatesUsers>]
    : SignedInTransitions<TCreatesUsers>
  const renewing = (renews
    ? { renewingStoredTokens: { meta: { effect: "renewStoredTokens" }, on: { "storedTokens.renewed": signedIn, "storedTokens.failed": signedIn } } }
    : {}) as TRenews extends true ? RenewingStates<TCreatesUsers> : {}
  const finals = {
    signedIn: { type: "final" },
    accessDenied: { type: "final" },
    redirected: { type: "final" },
    sessionFailed: { type: "final" },
  } as const
  const writingSession = [{ guard: "databaseSessions", target: "creatingSession" }, { target: "encodingToken" }] as const
  const checks = options.checksSecondFactor !== false
  const secondFactor = (checks ? secondFactorCheckStates(failure, options.firstFactor ?? "other") : {}) as TChecks extends false ? {} : ReturnType<typeof secondFactorCheckStates<TFailure>>
  return {
    issuingSession: {
      always: (checks ? [{ guard: "secondFactorEnabled", target: "checkingSecondFactor" }, ...writingSession] : writingSession) as TChecks extends false
        ? typeof writingSession
        : readonly [{ readonly guard: "secondFactorEnabled"; readonly target: "checkingSecondFactor" }, ...typeof writingSession],
    },
    ...secondFactor,
    creatingSession: {
      meta: { effect: "createSession" },
      on: {
        "session.created": created,
        "session.failed": failure,
      },
    },
    encodingToken: {
      meta: { effect: "encodeToken" },
      on: {
        "token.encoded": signedIn,
        "encode.failed": failure,
      },
    },
    ...renewing,
    ...finals,
    ...((createsUsers ? { signedInNewUser: { type: "final" } } : {}) as TCreatesUsers extends true ? { readonly signedInNewUser: { readonly type: "final" } } : {}),
  } as const
}

/**
 * `checkingSecondFactor`: before the session is written, looks up the user's second factor
 * (`findSecondFactor`). A passkey verified with user verification counts as both factors (unless
 * the configuration says otherwise); a trusted device of the user whose factors did not change
 * since skips it; a user with an authenticator app or backup codes, or one the configuration
 * requires a factor of who can be emailed a code, stops in `secondFactorRequired` (no session is
 * written: the second-factor flow takes over); a required user with no way to pass one ends in
 * `secondFactorUnavailable`; anyone else goes on to the session. Only the rules `firstFactor` can
 * meet are there: the passkey's for a passkey, no emailed code after an email.
 */
function secondFactorCheckStates<const TFailure extends SessionFailureTransition>(failure: TFailure, firstFactor: FirstFactorKind) {
  const writingSession = [{ guard: "databaseSessions", target: "creatingSession" }, { target: "encodingToken" }] as const
  const required = { target: "secondFactorRequired", actions: "recordSecondFactorMethods" } as const
  return {
    checkingSecondFactor: {
      meta: { effect: "findSecondFactor" },
      on: {
        "secondFactor.found": [
          ...(firstFactor === "passkey" ? [{ guard: "passkeyCountsAsTwoFactors", target: "writingSession" } as const] : []),
          { guard: "deviceTrusted", target: "writingSession" },
          { guard: "hasSecondFactor", ...required },
          ...(firstFactor === "email" ? [] : [{ guard: "requiredByEmailCode", ...required } as const]),
          { guard: "requiredWithoutMethod", target: "secondFactorUnavailable" },
          { target: "writingSession" },
        ],
        "secondFactor.failed": failure,
      },
    },
    writingSession: { always: writingSession },
    secondFactorRequired: { type: "final" },
    secondFactorUnavailable: { type: "final" },
  } as const
}
