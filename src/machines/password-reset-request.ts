import { assign, setup } from "xstate"
import { csrfCheckingState, csrfRejectedState, type CsrfEffect, type CsrfEvent } from "./csrf-check.js"
import { flowMachine } from "./flow-machine.js"
import { limitingState, rateLimitActions, rateLimitedState, rateLimitGuards, type RateLimitContext, type RateLimitEffect, type RateLimitEvent } from "./rate-limit.js"
import type { FlowMeta } from "./run-flow.js"

/** What the forgot-password form carries (the `readRequest` effect): the address in its canonical form, or what is wrong with it. */
export type ResetRequestReadEvent = { type: "request.read"; email?: string; emailProblem?: string }

/** The code a reset mail carried (`resetBy: "code"` or `"both"`), as the flow that waits for it keeps it: the keyed hash of the password hash it replaces, the code's keyed hash, its expiry (epoch ms). */
export interface PendingResetCode {
  bound: string
  codeHash: string
  expiresAt: number
}

/** What a reset request follows: whether the mail carries a code typed in this browser (`resetBy: "code"` or `"both"`). */
export interface ResetRequestPolicy {
  /** @default false */
  resetsByCode: boolean
}

/** Events of a reset request: what each effect found. */
export type PasswordResetRequestEvent =
  | CsrfEvent
  | ResetRequestReadEvent
  | RateLimitEvent
  | { type: "account.found"; user: { id: string; email: string }; hash: string }
  | { type: "account.unknown" }
  | { type: "lookup.failed"; error: unknown }
  | { type: "mail.sent"; code?: PendingResetCode }
  | { type: "mail.failed"; error: unknown; code?: PendingResetCode }
  | { type: "dummyLink.sealed"; code?: PendingResetCode }

/** Context of a reset request. */
export interface PasswordResetRequestContext extends RateLimitContext {
  /** The canonical address typed, once read. */
  email?: string
  rateLimitIdentity?: string
  /** The account the address names, and the hash the link is bound to. */
  user?: { id: string; email: string }
  hash?: string
  /** The mail could not be sent (logged; the answer is the same). */
  mailFailed?: boolean
  policy?: ResetRequestPolicy
  /** The code the mail carried (or the stand-in no code satisfies), for the flow that waits for it. */
  pendingCode?: PendingResetCode
}

/** Effects the reset request machine names. */
export type PasswordResetRequestEffect = CsrfEffect | "readRequest" | RateLimitEffect | "findAccount" | "mailResetLink" | "sealDummyLink"

const read = (event: PasswordResetRequestEvent) => (event.type === "request.read" ? event : undefined)

/**
 * A forgotten password, POST `/forgot-password/<id>` with `csrfToken` and `email`: check CSRF,
 * read the address (not one: `requestRefused`), count the request (per client and per address,
 * the `password-reset` budget), and look the address's password account up. A known one is mailed
 * a reset link (one hour, bound to the password hash it replaces, so it works once and dies when
 * the password changes); an unknown address, or one without a password, pays the same sealing and
 * keyed-hash work (`sealingDummyLink`) and mails nothing. Both end in `resetSent`, as does a mail
 * that failed (logged): the answer does not tell whether an address has an account. Where resets
 * are by code (`resetBy: "code"` or `"both"`, `resetsByCode`), the mail carries a 6-digit code and
 * all three end in `codeSent` instead, with the code's hash (or, for an unknown address, a
 * stand-in no code satisfies) for the flow that waits for it in this browser.
 *
 * @example
 * ```ts
 * import { createActor } from "xstate"
 * const actor = createActor(passwordResetRequestMachine).start()
 * actor.send({ type: "csrf.valid" })
 * actor.send({ type: "request.read", email: "ada@example.test" })
 * actor.send({ type: "rateLimit.counted", hits: [] })
 * actor.send({ type: "account.unknown" })
 * actor.send({ type: "dummyLink.sealed" })
 * actor.getSnapshot().value // "resetSent"
 * ```
 */
export const passwordResetRequestMachine = flowMachine(setup({
  types: {
    context: {} as PasswordResetRequestContext,
    events: {} as PasswordResetRequestEvent,
    input: {} as { policy?: ResetRequestPolicy } | undefined,
    meta: {} as FlowMeta<PasswordResetRequestEffect>,
  },
  actions: {
    ...rateLimitActions<PasswordResetRequestContext, PasswordResetRequestEvent>(),
    recordError: assign({ error: ({ event }) => (event as { error?: unknown }).error }),
    recordRequest: assign(({ event }) => (read(event)?.email !== undefined ? { email: read(event)!.email!, rateLimitIdentity: read(event)!.email! } : {})),
    recordAccount: assign(({ event }) => (event.type === "account.found" ? { user: event.user, hash: event.hash } : {})),
    recordMailFailure: assign({ mailFailed: () => true, error: ({ event }) => (event as { error?: unknown }).error }),
    recordCode: assign({ pendingCode: ({ event }) => (event as { code?: PendingResetCode }).code }),
  },
  guards: {
    ...rateLimitGuards<PasswordResetRequestContext, PasswordResetRequestEvent>(),
    /** The address is missing or not one authflow accepts. */
    /** The mail carries a code typed in this browser (`resetBy: "code"` or `"both"`): the flow waits for it there. */
    resetsByCode: ({ context }) => context.policy?.resetsByCode === true,
    emailInvalid: ({ event }) => read(event) !== undefined && (read(event)!.email === undefined || read(event)!.emailProblem !== undefined),
  },
}).createMachine)({
  id: "password-reset-request",
  context: ({ input }) => (input?.policy ? { policy: input.policy } : {}),
  initial: "validatingInput",
  states: {
    validatingInput: csrfCheckingState("readingRequest"),
    readingRequest: {
      meta: { effect: "readRequest" },
      on: {
        "request.read": [{ guard: "emailInvalid", target: "requestRefused" }, { target: "checkingRateLimit", actions: "recordRequest" }],
      },
    },
    checkingRateLimit: limitingState("findingAccount"),
    findingAccount: {
      meta: { effect: "findAccount" },
      on: {
        "account.found": { target: "mailingResetLink", actions: "recordAccount" },
        // Nobody, or nobody with a password: the same work, no mail, the same answer.
        "account.unknown": "sealingDummyLink",
        "lookup.failed": { target: "requestFailed", actions: "recordError" },
      },
    },
    mailingResetLink: {
      meta: { effect: "mailResetLink" },
      on: {
        "mail.sent": { target: "deciding", actions: "recordCode" },
        // Logged; answered as a sent mail, which an unknown address is answered with too.
        "mail.failed": { target: "deciding", actions: ["recordMailFailure", "recordCode"] },
      },
    },
    sealingDummyLink: {
      meta: { effect: "sealDummyLink" },
      on: { "dummyLink.sealed": { target: "deciding", actions: "recordCode" } },
    },
    // Each reports the code it mailed (or the stand-in no code satisfies) where the reset is by code.
    deciding: {
      always: [{ guard: "resetsByCode", target: "codeSent" }, { target: "resetSent" }],
    },
    ...csrfRejectedState,
    ...rateLimitedState,
    requestRefused: { type: "final" },
    resetSent: { type: "final" },
    // The browser goes on to the page that takes the code and the new password.
    codeSent: { type: "final" },
    requestFailed: { type: "final" },
  },
})
