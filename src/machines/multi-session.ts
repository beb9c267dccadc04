import { assign, setup } from "xstate"
import type { FlowMeta } from "./run-flow.js"
import { csrfCheckingState, csrfRejectedState, type CsrfEffect, type CsrfEvent } from "./csrf-check.js"
import { flowMachine } from "./flow-machine.js"

/**
 * What a multi-session flow does: keep the signed-in account beside one that just signed in
 * (`add`, run at the end of every sign-in), make another account active (`switch`, POST
 * `/sessions/switch`), or sign out one account or all of them (`signOut`, POST `/signout`).
 */
export type MultiSessionOperation = "add" | "switch" | "signOut"

/** What the multi-session machine reads of the configuration: how many accounts a browser keeps. */
export interface MultiSessionPolicy {
  /** @default 5 */
  maxAccounts: number
}

/** The machine's input: the operation, and the policy. */
export interface MultiSessionInput {
  operation: MultiSessionOperation
  policy?: MultiSessionPolicy
}

/** Context of a multi-session flow: the operation, the policy, how many accounts to drop, what failed. */
export interface MultiSessionContext {
  operation: MultiSessionOperation
  policy: MultiSessionPolicy
  /** How many of the oldest other accounts an added account pushes out. */
  drop?: number
  error?: unknown
}

/**
 * Events of the multi-session flows, each the outcome of the effect its state names.
 *
 * - `findPrevious` (add): no `add-account` marker came with the sign-in, nobody was signed in
 *   before it, or who was: whether it is the user who just signed in, and how many accounts the
 *   browser would hold with it kept (the new one, the previous one, and the others but those of the
 *   new user).
 * - `findAccount` (switch): the account asked for is the active one, another signed-in one, or none.
 * - `findSignOutTarget` (sign-out): all accounts (no `account` given), the active one, another one,
 *   or none of them; with how many others the browser holds.
 */
export type MultiSessionEvent =
  | CsrfEvent
  | { type: "marker.absent" }
  | { type: "previous.none" }
  | { type: "previous.found"; sameUser: boolean; accounts: number }
  | { type: "oldest.dropped" }
  | { type: "drop.failed"; error: unknown }
  | { type: "previous.kept" }
  | { type: "keep.failed"; error: unknown }
  | { type: "account.active" }
  | { type: "account.found" }
  | { type: "account.missing" }
  | { type: "account.switched" }
  | { type: "switch.failed"; error: unknown }
  | { type: "target.all"; others: number }
  | { type: "target.active"; others: number }
  | { type: "target.other" }
  | { type: "target.missing" }
  | { type: "others.ended" }
  | { type: "others.failed"; error: unknown }
  | { type: "other.ended" }
  | { type: "other.failed"; error: unknown }

/** Effects the multi-session machine names. */
export type MultiSessionEffect =
  | CsrfEffect
  | "findPrevious"
  | "dropOldest"
  | "keepPrevious"
  | "findAccount"
  | "switchAccount"
  | "findSignOutTarget"
  | "endOthers"
  | "endOther"

/**
 * The multi-session flows (`multiSession` in the configuration), where every decision about a
 * browser's several accounts is made.
 *
 * - **add** (after a sign-in wrote its session): without the `add-account` marker, or with nobody
 *   signed in before, or the same user signing in again, the new session simply replaces the
 *   previous one (`replaced`). Otherwise the previous active session moves into the others cookie
 *   (`added`), first dropping the oldest others when the browser would hold more than
 *   `maxAccounts` (`droppingOldest`; a database session is deleted; a failed delete is logged and
 *   the account still leaves the browser). A cookie that cannot be written ends in `keepFailed`.
 * - **switch** (POST `/sessions/switch`, CSRF-checked): the account asked for becomes active and
 *   the active one moves into the others (`switched`); the active one asked for changes nothing;
 *   an unknown one ends in `accountNotFound`.
 * - **signOut** (POST `/signout`, CSRF-checked): without `account`, every other account ends
 *   (`endingOthers`) and then the active one (`endAll`: the sign-out machine runs); the active one
 *   with others ends and the next other becomes active (`promoteNext`); another one ends alone
 *   (`otherEnded`); an unknown one ends in `accountNotFound`.
 *
 * @example
 * ```ts
 * const actor = createActor(multiSessionMachine, { input: { operation: "add", policy: { maxAccounts: 2 } } }).start()
 * actor.send({ type: "previous.found", sameUser: false, accounts: 3 })
 * actor.getSnapshot().value // "droppingOldest"
 * ```
 */
export const multiSessionMachine = flowMachine(setup({
  types: {
    context: {} as MultiSessionContext,
    events: {} as MultiSessionEvent,
    input: {} as MultiSessionInput,
    meta: {} as FlowMeta<MultiSessionEffect>,
  },
  actions: {
    recordError: assign({ error: ({ event }) => (event as { error?: unknown }).error }),
    recordDrop: assign({ drop: ({ context, event }) => (event.type === "previous.found" ? event.accounts - context.policy.maxAccounts : 0) }),
  },
  guards: {
    adding: ({ context }) => context.operation === "add",
    switching: ({ context }) => context.operation === "switch",
    /** The user who signed in is the one who was signed in: their new session replaces the old one. */
    sameUser: ({ event }) => event.type === "previous.found" && event.sameUser,
    /** Keeping the previous account would hold more accounts than `maxAccounts`. */
    overLimit: ({ context, event }) => event.type === "previous.found" && event.accounts > context.policy.maxAccounts,
    /** The browser holds other accounts besides the active one. */
    hasOthers: ({ event }) => (event.type === "target.all" || event.type === "target.active") && event.others > 0,
  },
}).createMachine)({
  id: "multi-session",
  context: ({ input }) => ({ operation: input.operation, policy: input.policy ?? { maxAccounts: 5 } }),
  initial: "choosing",
  states: {
    choosing: {
      always: [{ guard: "adding", target: "findingPrevious" }, { guard: "switching", target: "checkingSwitch" }, { target: "checkingSignOut" }],
    },
    findingPrevious: {
      meta: { effect: "findPrevious" },
      on: {
        "marker.absent": "replaced",
        "previous.none": "replaced",
        "previous.found": [
          { guard: "sameUser", target: "replaced" },
          { guard: "overLimit", target: "droppingOldest", actions: "recordDrop" },
          { target: "keepingPrevious" },
        ],
      },
    },
    droppingOldest: {
      meta: { effect: "dropOldest" },
      on: {
        "oldest.dropped": "keepingPrevious",
        // Logged where it failed: the account leaves this browser all the same.
        "drop.failed": { target: "keepingPrevious", actions: "recordError" },
      },
    },
    keepingPrevious: {
      meta: { effect: "keepPrevious" },
      on: {
        "previous.kept": "added",
        "keep.failed": { target: "keepFailed", actions: "recordError" },
      },
    },
    checkingSwitch: csrfCheckingState("findingAccount"),
    findingAccount: {
      meta: { effect: "findAccount" },
      on: {
        "account.active": "switched",
        "account.found": "switchingAccount",
        "account.missing": "accountNotFound",
      },
    },
    switchingAccount: {
      meta: { effect: "switchAccount" },
      on: {
        "account.switched": "switched",
        "switch.failed": { target: "switchFailed", actions: "recordError" },
      },
    },
    checkingSignOut: csrfCheckingState("findingSignOutTarget"),
    findingSignOutTarget: {
      meta: { effect: "findSignOutTarget" },
      on: {
        "target.all": [{ guard: "hasOthers", target: "endingOthers" }, { target: "endAll" }],
        "target.active": [{ guard: "hasOthers", target: "promoteNext" }, { target: "endAll" }],
        "target.other": "endingOther",
        "target.missing": "accountNotFound",
      },
    },
    endingOthers: {
      meta: { effect: "endOthers" },
      on: {
        "others.ended": "endAll",
        // Logged: the browser forgets them anyway.
        "others.failed": { target: "endAll", actions: "recordError" },
      },
    },
    endingOther: {
      meta: { effect: "endOther" },
      on: {
        "other.ended": "otherEnded",
        "other.failed": { target: "otherEnded", actions: "recordError" },
      },
    },
    replaced: { type: "final" },
    added: { type: "final" },
    keepFailed: { type: "final" },
    switched: { type: "final" },
    switchFailed: { type: "final" },
    accountNotFound: { type: "final" },
    endAll: { type: "final" },
    promoteNext: { type: "final" },
    otherEnded: { type: "final" },
    ...csrfRejectedState,
  },
})
