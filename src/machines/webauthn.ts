import { assign, setup } from "xstate"
import { checkingSignInStates, flowActions, issuingSessionStates, persistingUserStates, signInTailGuards, type SignInOutcomeContext, type SignInTailEffect, type SignInTailEvent, type SignInTailPolicy } from "./sign-in-tail.js"
import { limitingState, rateLimitActions, rateLimitedState, rateLimitGuards, type RateLimitContext, type RateLimitEffect, type RateLimitEvent } from "./rate-limit.js"
import type { FlowMeta } from "./run-flow.js"
import { csrfCheckingState, csrfRejectedState, type CsrfEffect, type CsrfEvent } from "./csrf-check.js"
import { flowMachine } from "./flow-machine.js"
import type { AdapterAccount, AdapterAuthenticator, AdapterUser } from "../adapters.js"
import type { Account, User } from "../base-types.js"

/** The two WebAuthn ceremonies: create a credential, or prove possession of one. */
export type WebAuthnCeremony = "register" | "authenticate"

/** The user an options request is about: signed in, known by the email given, or new. */
export interface WebAuthnCandidate {
  /** Set for an existing user (signed in, or found by email); absent for a user to create. */
  id?: string
  email: string
  name?: string | null
}

/**
 * What a waiting WebAuthn flow keeps for the browser's answer, sealed in the challenge cookie:
 * the ceremony, its challenge, and for a registration the user the credential is for. Nothing is
 * kept on the server.
 */
export interface WebAuthnFlow {
  ceremony: WebAuthnCeremony
  /** base64url, as `@simplewebauthn/server` generated it. */
  challenge: string
  user?: WebAuthnCandidate
}

/**
 * What the verification effect read from the browser's response and what the library said of it.
 * Guards decide on these, in the order the fields are listed.
 */
export interface CeremonyFindings {
  /** `clientDataJSON.type`: `webauthn.create` for a registration, `webauthn.get` for an assertion. */
  type: string
  /** `clientDataJSON.challenge`. */
  challenge: string
  /** `clientDataJSON.origin`, for the logs. */
  origin: string
  /** The origin is one the relying party lists. */
  originExpected: boolean
  /** The authenticator data's RP ID hash is the hash of one of the relying party's ids. */
  rpIdExpected: boolean
  /** The UP flag of the authenticator data. */
  userPresent: boolean
  /** The UV flag of the authenticator data. */
  userVerified: boolean
  /** The provider requires user verification (`requireUserVerification`, true unless set false). */
  userVerificationRequired: boolean
  /** The signature counter in the response. */
  counter: number
  /** The counter stored with the credential (assertions only). */
  storedCounter?: number
  /** `@simplewebauthn/server`'s verdict on the whole response: signature, attestation, the checks above. */
  verified: boolean
  /** Registrations: the credential is registered already. */
  credentialTaken?: boolean
  /** The user this browser is signed in as now. */
  signedInAs?: string
  /** Assertions: the user the credential belongs to. */
  credentialOwner?: string
}

/** Who a verified response signs in, and with which account: the credential's owner, or the user a registration is for with its new passkey account. */
export interface WebAuthnSignIn {
  user: User
  account: Account
}

/** A registration's new authenticator, before it belongs to a user. */
export type NewAuthenticator = Omit<AdapterAuthenticator, "userId">

/** What a failed registration wrote, or was writing, to be undone: a user it created, or the passkey account it linked to an existing user. */
export type RegistrationUndo = { userId: string } | { account: AdapterAccount }

/** Which check refused the response, for the logs and the inspector. */
export type WebAuthnFailedCheck = "action" | "type" | "user-presence" | "user-verification" | "credential-taken" | "signed-in-user"

/** Events of the WebAuthn machine, each the outcome of the effect its state names (or the answer arriving). */
export type WebAuthnEvent =
  | { type: "options.requested"; action?: string }
  | { type: "user.found"; signedIn: boolean; exists: boolean; user?: WebAuthnCandidate }
  | { type: "lookup.failed"; error: unknown }
  /** The options are generated (`options`, answered to the browser) and the flow issued in the replay store (`issued`) or not. */
  | { type: "options.ready"; challenge: string; options: unknown; issued: boolean }
  | { type: "options.failed"; error: unknown }
  | { type: "ceremony.received"; action?: string; policy: SignInTailPolicy }
  | CsrfEvent
  | { type: "challenge.fresh" }
  | { type: "challenge.replayed"; error?: unknown }
  | { type: "challenge.failed"; error: unknown }
  | { type: "response.malformed"; error: unknown }
  | { type: "credential.unknown"; error: unknown }
  /**
   * The response as the verification read it: the findings the guards judge and, for a response
   * the library verified, who it signs in (`signIn`) and the authenticator it creates
   * (`registered`) or is checked against (`authenticator`).
   */
  | { type: "response.checked"; findings: CeremonyFindings; error?: unknown; signIn?: WebAuthnSignIn; registered?: NewAuthenticator; authenticator?: AdapterAuthenticator }
  | { type: "counter.updated" }
  | { type: "counter.failed"; error: unknown }
  | { type: "registration.undone" }
  | { type: "undo.failed"; error: unknown }
  /** The registration is stored: the user (created or existing) and the passkey account linked to them. */
  | { type: "user.persisted"; isNewUser: boolean; user: AdapterUser; account: AdapterAccount }
  | { type: "persist.failed"; error: unknown; undo?: RegistrationUndo }
  | RateLimitEvent
  | Exclude<SignInTailEvent, { type: "user.persisted" | "persist.failed" }>

/** The effects the WebAuthn machine names. */
export type WebAuthnEffect =
  | "readRequest"
  | RateLimitEffect
  | "findUser"
  | "prepareRegistration"
  | "prepareAuthentication"
  | CsrfEffect
  | "claimChallenge"
  | "verifyRegistration"
  | "verifyAuthentication"
  | "updateCounter"
  | "undoRegistration"
  | SignInTailEffect

/**
 * Context of the WebAuthn machine. `flow` is what the challenge cookie carries between the
 * requests (the only part sealed); the rest is what this request's effects found, each assigned
 * from the event that reported it.
 */
export interface WebAuthnContext extends SignInOutcomeContext, RateLimitContext {
  /** The action the options request asked for (`register`, `authenticate`, or none). */
  requested?: WebAuthnCeremony
  /** The user the options request is about (dropped once the options are issued, unless registering). */
  user?: WebAuthnCandidate
  flow?: WebAuthnFlow
  /** The action the answer was posted with. */
  postedAction?: string
  findings?: CeremonyFindings
  failedCheck?: WebAuthnFailedCheck
  /** The options request's answer: the generated options, and whether the replay store issued the flow. */
  options?: unknown
  flowIssued?: boolean
  /** Who the ceremony signs in, and with which account (the stored ones once a registration is written). */
  signIn?: WebAuthnSignIn
  registered?: NewAuthenticator
  /** The stored authenticator an assertion was checked against. */
  authenticator?: AdapterAuthenticator
  /** What a failed registration wrote, for `undoingRegistration`. */
  undo?: RegistrationUndo
}

const ceremonyTypes: Record<WebAuthnCeremony, string> = { register: "webauthn.create", authenticate: "webauthn.get" }

const findingsOf = (event: WebAuthnEvent): CeremonyFindings | undefined => (event.type === "response.checked" ? event.findings : undefined)

const refused = (check?: WebAuthnFailedCheck) => (check ? [{ type: "recordFailedCheck", params: { check } }, "recordError"] as const : ["recordError"] as const)

/**
 * The checks of a verified response, in order: each refusal is its own final state. The library
 * ran the same checks; a response every named check accepts but the library refuses has a bad
 * signature (or attestation). Only assertions have a stored counter; only registrations can meet
 * a credential registered already.
 */
const responseChecks = <const TCeremony extends WebAuthnCeremony>(ceremony: TCeremony, next: string) => {
  const checks = [
    { guard: "wrongCeremonyType", target: "wrongCeremony", actions: [...refused("type"), "recordFindings"] },
    { guard: "challengeMismatch", target: "challengeMismatch", actions: ["recordError", "recordFindings"] },
    { guard: "wrongOrigin", target: "wrongOrigin", actions: ["recordError", "recordFindings"] },
    { guard: "wrongRpId", target: "wrongRpId", actions: ["recordError", "recordFindings"] },
    { guard: "userNotPresent", target: "userVerificationMissing", actions: [...refused("user-presence"), "recordFindings"] },
    { guard: "userNotVerified", target: "userVerificationMissing", actions: [...refused("user-verification"), "recordFindings"] },
    ...(ceremony === "authenticate" ? ([{ guard: "counterRegressed", target: "counterRegressed", actions: ["recordError", "recordFindings"] }] as const) : []),
    { guard: "notVerified", target: "badSignature", actions: ["recordError", "recordFindings"] },
    ...(ceremony === "register" ? ([{ guard: "credentialTaken", target: "accountNotLinked", actions: [...refused("credential-taken"), "recordFindings"] }] as const) : []),
    { guard: "signedInAsOther", target: "accountNotLinked", actions: [...refused("signed-in-user"), "recordFindings"] },
    { target: next, actions: "recordFindings" },
  ] as const
  return checks
}

/**
 * A WebAuthn (passkey) sign-in or registration, from GET `/webauthn-options/<id>` to the session,
 * as one machine over two requests:
 *
 * 1. The options request: read the requested action (a bad one is refused), count the request
 *    against the rate limit (`rateLimited` when over it), find who it is about
 *    (the signed-in user, the owner of the email given, a new user, or nobody), and decide as
 *    Auth.js v5 does: an explicit `authenticate` authenticates; `register` registers for a
 *    signed-in user adding an authenticator or for an unknown email; without an action an unknown
 *    email registers, a known one authenticates with its credentials, and no email authenticates
 *    with discoverable credentials. The options are generated and the flow waits in
 *    `awaitingCeremony`; that snapshot (the ceremony, the challenge, the user being registered) is
 *    sealed into the challenge cookie.
 * 2. The callback request restores it and sends `ceremony.received`: CSRF, the rate limit, then the challenge is
 *    claimed (used once, through the replay store; a store that cannot answer refuses it), the response verified, and guards name what is
 *    wrong with it (ceremony type, challenge, origin, RP ID, user presence or verification,
 *    counter, signature). An assertion records the new counter; then the shared tail.
 *
 * @example
 * ```ts
 * const waiting = await runFlow(webAuthnMachine, optionsEffects)
 * waiting.value // "awaitingCeremony"
 * ```
 * @see https://www.w3.org/TR/webauthn-3/#sctn-rp-operations
 */
export const webAuthnMachine = flowMachine(setup({
  types: {
    context: {} as WebAuthnContext,
    events: {} as WebAuthnEvent,
    meta: {} as FlowMeta<WebAuthnEffect>,
  },
  actions: {
    ...flowActions<WebAuthnContext, WebAuthnEvent>(),
    ...rateLimitActions<WebAuthnContext, WebAuthnEvent>(),
    recordFailedCheck: assign((_, params: { check: WebAuthnFailedCheck }) => ({ failedCheck: params.check })),
    recordFindings: assign(({ event }) => {
      if (event.type !== "response.checked") return { findings: undefined }
      const { findings, signIn, registered, authenticator } = event
      return { findings, ...(signIn && { signIn }), ...(registered && { registered }), ...(authenticator && { authenticator }) }
    }),
    recordStored: assign(({ event }) => (event.type === "user.persisted" ? { signIn: { user: event.user, account: event.account } } : {})),
    recordUndo: assign(({ event }) => (event.type === "persist.failed" && event.undo ? { undo: event.undo } : {})),
    issue: assign(({ context, event }, params: { ceremony: WebAuthnCeremony }) => {
      if (event.type !== "options.ready") return {}
      const { challenge, options, issued } = event
      const flow: WebAuthnFlow = params.ceremony === "register" && context.user ? { ceremony: "register", challenge, user: context.user } : { ceremony: params.ceremony, challenge }
      return { flow, user: undefined, requested: undefined, options, flowIssued: issued }
    }),
  },
  guards: {
    ...signInTailGuards<WebAuthnContext, WebAuthnEvent>(),
    ...rateLimitGuards<WebAuthnContext, WebAuthnEvent>(),
    /** The options request asked for something else than `register` or `authenticate`. */
    actionInvalid: ({ event }) => event.type === "options.requested" && event.action !== undefined && event.action !== "register" && event.action !== "authenticate",
    /** `authenticate` was asked for explicitly: always allowed. */
    authenticateAsked: ({ context }) => context.requested === "authenticate",
    /** `register` was asked for, by a signed-in user adding an authenticator or for an email nobody has. */
    registerAllowed: ({ context, event }) =>
      context.requested === "register" && event.type === "user.found" && event.user !== undefined && event.signedIn === event.exists && typeof event.user.email === "string" && event.user.email !== "",
    /** `register` was asked for and is not allowed (no user, or an existing user who is not signed in). */
    registerAsked: ({ context }) => context.requested === "register",
    /** No action, and someone is signed in: they must say what they want. */
    signedInWithoutAction: ({ event }) => event.type === "user.found" && event.signedIn,
    /** No action, and the email given belongs to nobody: register it. */
    newEmail: ({ event }) => event.type === "user.found" && event.user !== undefined && !event.exists && event.user.email !== "",
    /** The answer was posted for the other ceremony than the one the options were issued for. */
    actionMismatch: ({ context }) => context.postedAction !== context.flow?.ceremony,
    registering: ({ context }) => context.flow?.ceremony === "register",
    wrongCeremonyType: ({ context, event }) => findingsOf(event)?.type !== ceremonyTypes[context.flow!.ceremony],
    challengeMismatch: ({ context, event }) => findingsOf(event)?.challenge !== context.flow!.challenge,
    wrongOrigin: ({ event }) => findingsOf(event)?.originExpected !== true,
    wrongRpId: ({ event }) => findingsOf(event)?.rpIdExpected !== true,
    userNotPresent: ({ event }) => findingsOf(event)?.userPresent !== true,
    userNotVerified: ({ event }) => {
      const found = findingsOf(event)
      return found !== undefined && found.userVerificationRequired && !found.userVerified
    },
    /**
     * A counting authenticator's counter must grow; one that never counts (0 and 0) is allowed. A
     * stored counter of 0 allows any counter: the response starts the count, or does not count.
     */
    counterRegressed: ({ event }) => {
      const found = findingsOf(event)
      if (found?.storedCounter === undefined) return false
      return found.storedCounter > 0 && found.counter <= found.storedCounter
    },
    notVerified: ({ event }) => findingsOf(event)?.verified !== true,
    credentialTaken: ({ event }) => findingsOf(event)?.credentialTaken === true,
    /**
     * A registration finishes in a browser signed in as someone else than the user it was started
     * for (or signed in at all, for a new user); an assertion, in a browser signed in as someone
     * else than the credential's owner.
     */
    signedInAsOther: ({ context, event }) => {
      const found = findingsOf(event)
      if (context.flow?.ceremony === "register") return found?.signedInAs !== context.flow.user?.id
      return found?.signedInAs !== undefined && found.signedInAs !== found.credentialOwner
    },
  },
}).createMachine)({
  id: "webauthn",
  context: {},
  initial: "readingRequest",
  states: {
    readingRequest: {
      meta: { effect: "readRequest" },
      on: {
        "options.requested": [
          { guard: "actionInvalid", target: "invalidAction" },
          { target: "checkingRateLimit", actions: assign({ requested: ({ event }) => event.action as WebAuthnCeremony | undefined }) },
        ],
      },
    },
    checkingRateLimit: limitingState("findingUser"),
    findingUser: {
      meta: { effect: "findUser" },
      on: {
        "user.found": [
          { guard: "authenticateAsked", target: "preparingAuthentication", actions: assign({ user: ({ event }) => event.user }) },
          { guard: "registerAllowed", target: "preparingRegistration", actions: assign({ user: ({ event }) => event.user }) },
          { guard: "registerAsked", target: "invalidRequest" },
          { guard: "signedInWithoutAction", target: "invalidRequest" },
          { guard: "newEmail", target: "preparingRegistration", actions: assign({ user: ({ event }) => event.user }) },
          { target: "preparingAuthentication", actions: assign({ user: ({ event }) => event.user }) },
        ],
        "lookup.failed": { target: "optionsFailed", actions: "recordError" },
      },
    },
    preparingRegistration: {
      meta: { effect: "prepareRegistration" },
      on: {
        "options.ready": { target: "awaitingCeremony", actions: { type: "issue", params: { ceremony: "register" } } },
        "options.failed": { target: "optionsFailed", actions: "recordError" },
      },
    },
    preparingAuthentication: {
      meta: { effect: "prepareAuthentication" },
      on: {
        "options.ready": { target: "awaitingCeremony", actions: { type: "issue", params: { ceremony: "authenticate" } } },
        "options.failed": { target: "optionsFailed", actions: "recordError" },
      },
    },
    awaitingCeremony: {
      on: { "ceremony.received": { target: "validatingInput", actions: assign({ postedAction: ({ event }) => event.action, policy: ({ event }) => event.policy }) } },
    },
    validatingInput: csrfCheckingState("checkingCallbackRateLimit"),
    checkingCallbackRateLimit: limitingState("claimingChallenge"),
    claimingChallenge: {
      meta: { effect: "claimChallenge" },
      on: {
        "challenge.fresh": [
          { guard: "actionMismatch", target: "wrongCeremony", actions: { type: "recordFailedCheck", params: { check: "action" } } },
          { guard: "registering", target: "verifyingRegistration" },
          { target: "verifyingAuthentication" },
        ],
        "challenge.replayed": { target: "challengeReplayed", actions: "recordError" },
        // The replay store could not say (its database is down): refused, as a failed write is.
        "challenge.failed": { target: "persistFailed", actions: "recordError" },
      },
    },
    verifyingRegistration: {
      meta: { effect: "verifyRegistration" },
      on: {
        "response.malformed": { target: "responseMalformed", actions: "recordError" },
        "response.checked": responseChecks("register", "checkingSignIn"),
      },
    },
    verifyingAuthentication: {
      meta: { effect: "verifyAuthentication" },
      on: {
        "response.malformed": { target: "responseMalformed", actions: "recordError" },
        "credential.unknown": { target: "unknownCredential", actions: "recordError" },
        "response.checked": responseChecks("authenticate", "recordingCounter"),
      },
    },
    recordingCounter: {
      meta: { effect: "updateCounter" },
      on: {
        "counter.updated": "checkingSignIn",
        "counter.failed": { target: "persistFailed", actions: "recordError" },
      },
    },
    ...checkingSignInStates([{ guard: "registering", target: "persistingUser" }, { target: "issuingSession" }]),
    ...persistingUserStates,
    persistingUser: {
      ...persistingUserStates.persistingUser,
      on: {
        "user.persisted": { target: "issuingSession", actions: ["recordNewUser", "recordStored"] },
        "persist.failed": { target: "undoingRegistration", actions: ["recordError", "recordUndo"] },
      },
    },
    // Writing the registration failed part-way: what it wrote goes again (a user created for it, or
    // the passkey account linked to an existing user), so no account is left without its
    // authenticator. A failed undo is logged; either way the registration ends failed.
    undoingRegistration: {
      meta: { effect: "undoRegistration" },
      on: {
        "registration.undone": { target: "persistFailed" },
        "undo.failed": { target: "persistFailed" },
      },
    },
    ...issuingSessionStates(true, { firstFactor: "passkey" }),
    invalidAction: { type: "final" },
    invalidRequest: { type: "final" },
    optionsFailed: { type: "final" },
    ...csrfRejectedState,
    challengeReplayed: { type: "final" },
    wrongCeremony: { type: "final" },
    responseMalformed: { type: "final" },
    unknownCredential: { type: "final" },
    challengeMismatch: { type: "final" },
    wrongOrigin: { type: "final" },
    wrongRpId: { type: "final" },
    userVerificationMissing: { type: "final" },
    counterRegressed: { type: "final" },
    badSignature: { type: "final" },
    accountNotLinked: { type: "final" },
    ...rateLimitedState,
  },
})
