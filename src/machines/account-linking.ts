/**
 * Account linking, defined once: which user a provider account signs in, in the order the
 * checks run, as states, events and guards. The effects only look up (the user the account is
 * linked to and who the browser is signed in as, then who owns the profile's email) and report
 * what they found; the guards here decide: an account linked to another user than the one signed
 * in is refused; a new account links to the signed-in user only when they started the sign-in;
 * to the owner of its email only when the provider allows it; otherwise a user is created. A
 * machine that links accounts spreads {@link resolvingAccountStates} into its states and these
 * guards and actions into its `setup`, so the inspector and the model tests see each decision.
 *
 * @module
 */
import { assign, type EventObject } from "xstate"
import type { AdapterUser } from "../adapters.js"
import type { User } from "../base-types.js"

/** What the configuration allows, given with the request that resolves the account. */
export interface AccountLinkingPolicy {
  /** An adapter is configured: users and accounts are stored. */
  adapter: boolean
  /** The provider's `allowDangerousEmailAccountLinking`. */
  emailLinking: boolean
}

/** Why an account is not linked. */
export type NotLinkedReason = "linked-to-other-user" | "not-started-by-signed-in-user" | "email-taken"

/** What the sign-in will write once the `signIn` callback allows it. */
export type AccountPlan = "signInLinkedUser" | "linkToSignedInUser" | "linkToEmailOwner" | "createUser" | "noDatabase"

/**
 * What the lookups found, as the events the machine receives. `account.linked`: the account is
 * linked to `user` (and the browser is signed in as `signedInAs`, if anyone); `account.new`: it
 * is linked to nobody (and the browser is signed in as `signedIn`, if anyone); then, for a new
 * account in a browser signed in as nobody, `emailOwner.found` or `emailOwner.none`.
 */
export type AccountLinkingEvent =
  | { type: "account.linked"; user: AdapterUser; signedInAs?: string }
  | { type: "account.new"; signedIn?: AdapterUser }
  | { type: "emailOwner.found"; user: AdapterUser }
  | { type: "emailOwner.none" }
  | { type: "lookup.failed"; error: unknown }

/** The effects the account-linking states name. */
export type AccountLinkingEffect = "resolveAccount" | "findEmailOwner"

/** What a machine that links accounts keeps in its context. */
export interface AccountLinkingContext {
  /** The user the sign-in is for: the provider's user, the linked user once found, the stored user once written. */
  user?: User | AdapterUser
  /** What the sign-in will write (see {@link AccountPlan}). */
  plan?: AccountPlan
  /** The user a `linkTo…` plan links the account to. */
  linkTo?: AdapterUser
  notLinked?: NotLinkedReason
}

/**
 * The guards of account linking, for a machine's `setup({ guards })`.
 *
 * @param facts - Where the machine keeps the policy and the id of the user who started the sign-in.
 * @example
 * ```ts
 * setup({ guards: { ...accountLinkingGuards<OAuthContext, OAuthEvent>({ policy: (c) => c.policy, startedBy: (c) => c.checks?.startedBy }) } })
 * ```
 */
export function accountLinkingGuards<TContext extends AccountLinkingContext, TEvent extends EventObject>(facts: {
  policy: (context: TContext) => AccountLinkingPolicy | undefined
  startedBy: (context: TContext) => string | undefined
}) {
  type Args = { context: TContext; event: TEvent }
  const found = (event: TEvent) => event as unknown as AccountLinkingEvent
  return {
    /** Users and accounts are stored: the account is looked up (without an adapter every account is new, and nothing is written). */
    adapterPresent: ({ context }: Args) => facts.policy(context)?.adapter === true,
    /** The account is linked to a user, and the browser is signed in as another one. */
    signedInAsOther: ({ event }: Args) => {
      const linked = found(event)
      return linked.type === "account.linked" && linked.signedInAs !== undefined && linked.signedInAs !== linked.user.id
    },
    /** The browser is signed in, as the user who started this sign-in: the new account is theirs. */
    startedBySignedInUser: ({ context, event }: Args) => {
      const account = found(event)
      return account.type === "account.new" && account.signedIn !== undefined && account.signedIn.id === facts.startedBy(context)
    },
    /** The browser is signed in (as someone who did not start this sign-in). */
    signedIn: ({ event }: Args) => {
      const account = found(event)
      return account.type === "account.new" && account.signedIn !== undefined
    },
    /** The provider allows linking to an existing user with the same email. */
    emailLinkingAllowed: ({ context }: Args) => facts.policy(context)?.emailLinking === true,
  }
}

/**
 * The actions of account linking, for a machine's `setup({ actions })`: `plan` records what the
 * sign-in will write (and, for a link, `linkTo` from the event: the signed-in user or the email's
 * owner); `signInLinkedUser` makes the linked user the one who signs in; `refuseLink` records why
 * an account is not linked.
 *
 * @example
 * ```ts
 * setup({ actions: { ...accountLinkingActions<OAuthContext, OAuthEvent>() } })
 * ```
 */
export function accountLinkingActions<TContext extends AccountLinkingContext, TEvent extends EventObject>() {
  const found = (event: TEvent) => event as unknown as AccountLinkingEvent
  const linkTargetOf = (event: AccountLinkingEvent): AdapterUser | undefined =>
    event.type === "account.new" ? event.signedIn : event.type === "emailOwner.found" ? event.user : undefined
  return {
    plan: assign<TContext, TEvent, { plan: AccountPlan }, TEvent, never>(({ event }, params) => {
      const linkTo = linkTargetOf(found(event))
      return { plan: params.plan, ...(linkTo && { linkTo }) } as Partial<TContext>
    }),
    signInLinkedUser: assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => {
      const linked = found(event)
      return { plan: "signInLinkedUser", ...(linked.type === "account.linked" && { user: linked.user }) } as Partial<TContext>
    }),
    refuseLink: assign<TContext, TEvent, { reason: NotLinkedReason }, TEvent, never>((_, params) => ({ notLinked: params.reason }) as Partial<TContext>),
  }
}

/**
 * `resolvingAccount` (who the account is linked to, and who is signed in) and
 * `findingEmailOwner` (who owns the profile's email, for a new account while nobody is signed
 * in), in that order. An allowed account goes to `allowed` with its plan; a refused one ends in
 * `accountNotLinked`; a failed lookup in `failed`.
 *
 * @param allowed - The state an allowed account goes to (the `signIn` callback).
 * @param failed - The final state of a failed lookup.
 * @example
 * ```ts
 * createMachine({ states: { ...resolvingAccountStates("checkingSignIn", "persistFailed"), accountNotLinked: { type: "final" }, … } })
 * ```
 */
export function resolvingAccountStates<const TAllowed extends string, const TFailed extends string>(allowed: TAllowed, failed: TFailed) {
  const plan = (value: AccountPlan) => ({ type: "plan", params: { plan: value } }) as const
  const refuse = (reason: NotLinkedReason) => ({ type: "refuseLink", params: { reason } }) as const
  const lookupFailed = { target: failed, actions: "recordError" } as const
  return {
    resolvingAccount: {
      meta: { effect: "resolveAccount" },
      on: {
        "account.linked": [
          { guard: "signedInAsOther", target: "accountNotLinked", actions: refuse("linked-to-other-user") },
          { target: allowed, actions: "signInLinkedUser" },
        ],
        "account.new": [
          { guard: "startedBySignedInUser", target: allowed, actions: plan("linkToSignedInUser") },
          { guard: "signedIn", target: "accountNotLinked", actions: refuse("not-started-by-signed-in-user") },
          { target: "findingEmailOwner" },
        ],
        "lookup.failed": lookupFailed,
      },
    },
    findingEmailOwner: {
      meta: { effect: "findEmailOwner" },
      on: {
        "emailOwner.found": [
          { guard: "emailLinkingAllowed", target: allowed, actions: plan("linkToEmailOwner") },
          { target: "accountNotLinked", actions: refuse("email-taken") },
        ],
        "emailOwner.none": { target: allowed, actions: plan("createUser") },
        "lookup.failed": lookupFailed,
      },
    },
  } as const
}
