import { assign, setup } from "xstate"
import { parseEmailAddress, type EmailAddressProblem } from "../core/email-address.js"
import { checkingSignInStates, flowActions, signInTailGuards, type SignInCallbackEffect, type SignInCallbackEvent, type SignInOutcomeContext } from "./sign-in-tail.js"
import { limitingState, rateLimitActions, rateLimitedState, rateLimitGuards, type RateLimitContext, type RateLimitEffect, type RateLimitEvent } from "./rate-limit.js"
import type { FlowMeta } from "./run-flow.js"
import { csrfCheckingState, csrfRejectedState, type CsrfEffect, type CsrfEvent } from "./csrf-check.js"
import { flowMachine } from "./flow-machine.js"
import type { Concealed } from "../core/concealed.js"
import type { AdapterUser } from "../adapters.js"
import type { EmailCodeMode } from "../providers/email-config.js"

/**
 * Events of the email sign-in machine, each the outcome of the effect its state names: what the
 * normaliser returned or threw, what the database answered, what the mailer did. The machine's
 * guards decide what they mean.
 */
export type EmailSignInEvent =
  | CsrfEvent
  | { type: "email.normalized"; normalized: string }
  | { type: "normalizer.threw"; error: unknown }
  | RateLimitEvent
  | { type: "user.lookedUp"; user: AdapterUser | null }
  | { type: "lookup.failed"; error: unknown }
  | SignInCallbackEvent
  | { type: "token.stored"; mailedToken: Concealed<MailedToken> }
  | { type: "store.failed"; error: unknown }
  | { type: "code.made"; code: Concealed<string>; hash: string; expiresAt: number }
  | { type: "link.sent" }
  | { type: "send.failed"; error: unknown }
  | { type: "token.revoked" }
  | { type: "revoke.failed"; error: unknown }

/** The token an email link carries, as stored (hashed) and mailed, and until when it is valid. */
export interface MailedToken {
  token: string
  expires: Date
}

/** What the email sign-in machine takes as its input: the provider's `code` option. */
export interface EmailSignInInput {
  /** @default false */
  code?: EmailCodeMode
}

/**
 * Context of the email sign-in machine: the canonical address once the grammar accepted it (or
 * why it refused it), the user who has that address if there is one, and what ended the flow.
 * The token the link carries is {@link Concealed}: nothing that shows or serialises the context
 * sees it.
 */
export interface EmailSignInContext extends SignInOutcomeContext, RateLimitContext {
  email?: string
  problem?: EmailAddressProblem
  user?: AdapterUser
  /** The token stored, for the mail (and for revoking it when the mail fails). */
  mailedToken?: Concealed<MailedToken>
  /** The provider's `code` option. */
  codeMode?: "instead" | "beside"
  /** A link's token was stored (and so is revoked when the mail fails). */
  tokenStored?: boolean
  /** The code made for the mail, once made (with the provider's `code` option). */
  mailedCode?: Concealed<string>
  /** The code's keyed hash (what the sealed code flow keeps), and when it expires (epoch ms). */
  codeHash?: string
  codeExpiresAt?: number
}

/** Effects the email sign-in machine names, in the order a successful flow meets them. */
export type EmailSignInEffect = CsrfEffect | "normalizeEmail" | RateLimitEffect | "lookUpUser" | SignInCallbackEffect | "storeToken" | "makeCode" | "sendLink" | "revokeToken"

/**
 * Asking for a sign-in link, POST `/signin/<id>`: check CSRF, normalise the address (the
 * provider's normaliser; the machine holds its result to authflow's address grammar), count the
 * request against the rate limits (per client address and per address; over a budget ends in
 * `rateLimited` and no mail is sent), look up
 * who has it, ask the `signIn` callback (with `email.verificationRequest: true`), store the
 * hashed token, then send the link. A link goes to an address nobody has yet, as with Auth.js:
 * the `signIn` callback is where an app refuses strangers. A mail that could not be sent has its
 * token revoked, so no link the user was told failed can be followed later.
 *
 * With the provider's `code` option (the machine's input), a 6-digit code is made (`makingCode`)
 * and mailed instead of the link (`"instead"`: no token is stored) or beside it (`"beside"`), and
 * the flow ends in `codeSent`: the action then seals the email code machine in the browser.
 *
 * @example
 * ```ts
 * const done = await runFlow(emailSignInMachine, { checkCsrf, normalizeEmail, checkRateLimit, lookUpUser, askSignIn, resolveRedirect, storeToken, sendLink, revokeToken })
 * done.value // "linkSent"
 * ```
 */
export const emailSignInMachine = flowMachine(setup({
  types: {
    context: {} as EmailSignInContext,
    events: {} as EmailSignInEvent,
    meta: {} as FlowMeta<EmailSignInEffect>,
  },
  actions: {
    ...flowActions<EmailSignInContext, EmailSignInEvent>(),
    ...rateLimitActions<EmailSignInContext, EmailSignInEvent>(),
    recordAddress: assign(({ event }) => {
      const parsed = event.type === "email.normalized" ? parseEmailAddress(event.normalized) : undefined
      return parsed?.ok ? { email: parsed.address } : {}
    }),
    recordProblem: assign(({ event }) => {
      const parsed = event.type === "email.normalized" ? parseEmailAddress(event.normalized) : undefined
      return parsed && !parsed.ok ? { problem: parsed.problem } : {}
    }),
    recordUser: assign(({ event }) => (event.type === "user.lookedUp" && event.user ? { user: event.user } : {})),
    recordMailedToken: assign(({ event }) => (event.type === "token.stored" ? { mailedToken: event.mailedToken, tokenStored: true } : {})),
    recordMailedCode: assign(({ event }) => (event.type === "code.made" ? { mailedCode: event.code, codeHash: event.hash, codeExpiresAt: event.expiresAt } : {})),
  },
  guards: {
    ...signInTailGuards<EmailSignInContext, EmailSignInEvent>(),
    ...rateLimitGuards<EmailSignInContext, EmailSignInEvent>(),
    /** The normaliser's result is an address of authflow's grammar (a user's normaliser is held to it too). */
    addressInGrammar: ({ event }) => event.type === "email.normalized" && parseEmailAddress(event.normalized).ok,
    /** Someone already has this address. */
    userExists: ({ event }) => event.type === "user.lookedUp" && event.user !== null,
    /** The provider mails a code instead of the link: no token is stored. */
    codeInstead: ({ context }) => context.codeMode === "instead",
    /** The provider mails a code beside the link. */
    codeBeside: ({ context }) => context.codeMode === "beside",
    /** A code was made for the mail: the browser goes on to type it. */
    codeMailed: ({ context }) => context.codeHash !== undefined,
    /** A link's token was stored for the mail (and so is revoked when the mail fails). */
    tokenStored: ({ context }) => context.tokenStored === true,
  },
}).createMachine)({
  id: "email-sign-in",
  context: ({ input }) => {
    // Optional (`{ code }`, the provider's option): without it, links only.
    const code = (input as EmailSignInInput | undefined)?.code
    return code ? { codeMode: code } : {}
  },
  initial: "validatingInput",
  states: {
    validatingInput: csrfCheckingState("normalizing"),
    normalizing: {
      meta: { effect: "normalizeEmail" },
      on: {
        "email.normalized": [
          { guard: "addressInGrammar", target: "checkingRateLimit", actions: "recordAddress" },
          { target: "emailRejected", actions: "recordProblem" },
        ],
        "normalizer.threw": { target: "emailRejected", actions: "recordError" },
      },
    },
    checkingRateLimit: limitingState("lookingUpUser"),
    lookingUpUser: {
      meta: { effect: "lookUpUser" },
      on: {
        // Either way the `signIn` callback decides: a link goes to a new address unless it refuses.
        "user.lookedUp": [{ guard: "userExists", target: "checkingSignIn", actions: "recordUser" }, { target: "checkingSignIn" }],
        "lookup.failed": { target: "lookupFailed", actions: "recordError" },
      },
    },
    ...checkingSignInStates([{ guard: "codeInstead", target: "makingCode" }, { target: "storingToken" }]),
    storingToken: {
      meta: { effect: "storeToken" },
      on: {
        "token.stored": [
          { guard: "codeBeside", target: "makingCode", actions: "recordMailedToken" },
          { target: "sendingLink", actions: "recordMailedToken" },
        ],
        "store.failed": { target: "storeFailed", actions: "recordError" },
      },
    },
    makingCode: {
      meta: { effect: "makeCode" },
      on: { "code.made": { target: "sendingLink", actions: "recordMailedCode" } },
    },
    // One mail: the link, the code, or both.
    sendingLink: {
      meta: { effect: "sendLink" },
      on: {
        "link.sent": [{ guard: "codeMailed", target: "codeSent" }, { target: "linkSent" }],
        "send.failed": [
          { guard: "tokenStored", target: "revokingToken", actions: "recordError" },
          { target: "sendFailed", actions: "recordError" },
        ],
      },
    },
    revokingToken: {
      meta: { effect: "revokeToken" },
      on: {
        "token.revoked": "sendFailed",
        // The mail's failure is what the user is told about; the revocation's is logged by the adapter.
        "revoke.failed": "sendFailed",
      },
    },
    linkSent: { type: "final" },
    codeSent: { type: "final" },
    ...csrfRejectedState,
    emailRejected: { type: "final" },
    lookupFailed: { type: "final" },
    accessDenied: { type: "final" },
    redirected: { type: "final" },
    storeFailed: { type: "final" },
    sendFailed: { type: "final" },
    ...rateLimitedState,
  },
})
