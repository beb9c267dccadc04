import { assign, setup } from "xstate"
import { parseEmailAddress } from "../core/email-address.js"
import { contextFromInput, flowActions, issuingSessionStates, signInTailGuards, type SignInTailEffect, type SignInTailEvent } from "./sign-in-tail.js"
import type { FlowMeta } from "./run-flow.js"
import { flowMachine } from "./flow-machine.js"
import { emailUserActions, emailUserStates, emailUserGuards, plannedUser, type EmailUserContext, type EmailUserEvent } from "./email-user.js"

export type { EmailUserPlan } from "./email-user.js"

/**
 * What the database answered for the link's token (`useVerificationToken`): the row it deleted,
 * without the token hash, or `null` when it holds no row for that token and address. A used token
 * was deleted by its first use, so a second use finds no row either: "unknown" and "used" are the
 * same answer.
 */
export interface VerificationTokenRow {
  identifier: string
  expires: Date
}

/**
 * Events of the email verification machine, each the outcome of the effect its state names: what
 * the link carries, what the database answered and when, who has the address (and the id a user
 * the link creates gets), whom the browser's database session is for. The machine's guards decide
 * what they mean.
 */
export type EmailVerificationEvent =
  | { type: "link.read"; hasToken: boolean; email?: string }
  | { type: "token.used"; row: VerificationTokenRow | null; checkedAt: Date }
  | { type: "token.failed"; error: unknown }
  | EmailUserEvent
  | { type: "token.restored" }
  | { type: "restore.failed"; error: unknown }
  | SignInTailEvent

/**
 * Context of the email verification machine: the link's `email` parameter, the address the token
 * was issued for once accepted (and until when, to put it back as it was), the user the link signs
 * in, what the sign-in will write, and how the flow ended. The token never enters it.
 */
export interface EmailVerificationContext extends EmailUserContext {
  linkEmail?: string
  /** When the used token expires. */
  tokenExpires?: Date
  /** Where a failure after the token was used ends, once the token is put back. */
  failure?: EmailVerificationFailure
}

/** The final states of a failure after the link's token was used (and so is put back first). */
export type EmailVerificationFailure = "lookupFailed" | "persistFailed" | "sessionFailed"

/** Effects the email verification machine names, in the order a successful flow meets them. */
export type EmailVerificationEffect = "readLink" | "useToken" | "lookUpUser" | "findCurrentSession" | "endOtherSession" | "restoreToken" | SignInTailEffect

/** A write for the user failed after the token was used: the token goes back first. */
const failedWriting = { target: "restoringToken", actions: ["recordError", { type: "recordFailure", params: { failure: "persistFailed" } }] } as const

/**
 * Following a sign-in link, GET `/callback/<id>?token&email`: read the link, use its token (once:
 * the database deletes it), and refuse it, each refusal its own final state, when the link has no
 * token (`linkIncomplete`), the database has no such token for that address, never issued or
 * used already (`tokenUnknown`), it has expired (`tokenExpired`), it was issued for another
 * address than the link's (`identifierMismatch`), or for an address outside the grammar
 * (`identifierInvalid`). Then find who has the address (an existing user is marked verified, a new
 * one created), and the shared tail: the `signIn` callback, the write, the session. Nothing
 * depends on a cookie from the browser that asked for the link, so it works from another device.
 * With database sessions, a browser that follows the link while signed in as another user is
 * signed out of that session first (`findingCurrentSession`, `endingOtherSession`).
 *
 * A token is consumed only by a sign-in that succeeds (or that the `signIn` callback decides on):
 * when the database fails after the token was used (finding the user, writing it, writing the
 * session), `restoringToken` puts the token back before the flow ends failed, so the same link
 * works once the database does.
 *
 * @example
 * ```ts
 * const done = await runFlow(emailVerificationMachine, { readLink, useToken, lookUpUser, askSignIn, resolveRedirect, findCurrentSession, endOtherSession, persistUser, createSession, encodeToken, renewStoredTokens, restoreToken }, { input: { policy } })
 * done.value // "signedIn"
 * ```
 */
export const emailVerificationMachine = flowMachine(setup({
  types: {
    context: {} as EmailVerificationContext,
    events: {} as EmailVerificationEvent,
    meta: {} as FlowMeta<EmailVerificationEffect>,
  },
  actions: {
    ...flowActions<EmailVerificationContext, EmailVerificationEvent>(),
    recordLinkEmail: assign(({ event }) => (event.type === "link.read" && event.email !== undefined ? { linkEmail: event.email } : {})),
    recordIdentifier: assign(({ event }) => (event.type === "token.used" && event.row ? { identifier: event.row.identifier, tokenExpires: new Date(event.row.expires) } : {})),
    ...emailUserActions<EmailVerificationContext, EmailVerificationEvent>(),
    recordFailure: assign((_, params: { failure: EmailVerificationFailure }) => ({ failure: params.failure })),
  },
  guards: {
    ...signInTailGuards<EmailVerificationContext, EmailVerificationEvent>(),
    /** The link carries a token to use. */
    linkHasToken: ({ event }) => event.type === "link.read" && event.hasToken,
    /** The database has no row for this token and address: never issued, or used already. */
    noTokenRow: ({ event }) => event.type === "token.used" && event.row === null,
    /** The token's `expires` is before the moment the database answered (or is no date at all). */
    tokenExpired: ({ event }) => event.type === "token.used" && event.row !== null && !(new Date(event.row.expires).getTime() >= event.checkedAt.getTime()),
    /** The link names an address and the token was issued for another one. */
    identifierMismatch: ({ context, event }) => event.type === "token.used" && context.linkEmail !== undefined && event.row?.identifier !== context.linkEmail,
    /**
     * The token was issued for an address outside the grammar, or not in its canonical form (a
     * token stored before the grammar existed, or by other code): nobody is signed in as it.
     */
    identifierOutsideGrammar: ({ event }) => {
      if (event.type !== "token.used" || !event.row) return false
      const parsed = parseEmailAddress(event.row.identifier)
      return !parsed.ok || parsed.address !== event.row.identifier
    },
    ...emailUserGuards<EmailVerificationContext, EmailVerificationEvent>(),
    /** The failure the token was put back for happened finding the user. */
    failedLookingUp: ({ context }) => context.failure === "lookupFailed",
    /** The failure the token was put back for happened writing the user. */
    failedPersisting: ({ context }) => context.failure === "persistFailed",
  },
}).createMachine)({
  id: "email-verification",
  context: ({ input }) => contextFromInput(input),
  initial: "readingLink",
  states: {
    readingLink: {
      meta: { effect: "readLink" },
      on: {
        "link.read": [{ guard: "linkHasToken", target: "usingToken", actions: "recordLinkEmail" }, { target: "linkIncomplete" }],
      },
    },
    usingToken: {
      meta: { effect: "useToken" },
      on: {
        "token.used": [
          { guard: "noTokenRow", target: "tokenUnknown" },
          { guard: "tokenExpired", target: "tokenExpired" },
          { guard: "identifierMismatch", target: "identifierMismatch" },
          { guard: "identifierOutsideGrammar", target: "identifierInvalid" },
          { target: "lookingUpUser", actions: "recordIdentifier" },
        ],
        "token.failed": { target: "tokenLookupFailed", actions: "recordError" },
      },
    },
    lookingUpUser: {
      meta: { effect: "lookUpUser" },
      on: {
        "user.lookedUp": plannedUser,
        "lookup.failed": { target: "restoringToken", actions: ["recordError", { type: "recordFailure", params: { failure: "lookupFailed" } }] },
      },
    },
    ...emailUserStates(failedWriting),
    ...issuingSessionStates(true, { firstFactor: "email", failure: { target: "restoringToken", actions: ["recordError", { type: "recordFailure", params: { failure: "sessionFailed" } }] } }),
    // The database failed after the token was used: the token goes back, whether or not that works
    // (a failed restore is logged), and the flow ends in the failure it came from.
    restoringToken: {
      meta: { effect: "restoreToken" },
      on: {
        "token.restored": [{ guard: "failedLookingUp", target: "lookupFailed" }, { guard: "failedPersisting", target: "persistFailed" }, { target: "sessionFailed" }],
        "restore.failed": [{ guard: "failedLookingUp", target: "lookupFailed" }, { guard: "failedPersisting", target: "persistFailed" }, { target: "sessionFailed" }],
      },
    },
    linkIncomplete: { type: "final" },
    tokenUnknown: { type: "final" },
    tokenExpired: { type: "final" },
    identifierMismatch: { type: "final" },
    identifierInvalid: { type: "final" },
    tokenLookupFailed: { type: "final" },
    lookupFailed: { type: "final" },
  },
})
