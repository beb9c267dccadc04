import { and, assign, not, setup } from "xstate"
import { limitingState, rateLimitActions, rateLimitedState, rateLimitGuards, type RateLimitContext, type RateLimitEffect, type RateLimitEvent } from "./rate-limit.js"
import { csrfCheckingState, csrfRejectedState, type CsrfEffect, type CsrfEvent } from "./csrf-check.js"
import { flowMachine } from "./flow-machine.js"
import { claimingFlowState, flowReplayedState, type ClaimFlowEffect, type FlowClaimEvent } from "./flow-claim.js"
import type { FlowMeta } from "./run-flow.js"

/** What a request to `/factors` asks for. */
export type FactorsAction = "list" | "enrol" | "confirm" | "rename" | "remove" | "regenerate"

/** A request to `/factors`, as the route read it (the machine's guards decide what it may do). */
export interface FactorsRequest {
  /** What the form or JSON body asked for; anything else is `undefined`. */
  action?: FactorsAction
  /** The factor a rename or removal is about. */
  factorId?: string
  /** The name to give (enrolment or rename). */
  name?: string
  /** A code: confirming an enrolment, or proving the factor when the last one is removed. */
  code?: string
  /** What the flow reads of the configuration (never sealed). */
  policy: { maxAttempts: number }
}

/** A factor as the management flow sees it: no secret. */
export interface FactorSummary {
  id: string
  name: string
  createdAt: string
}

/** An enrolment waiting for its first code: the user, the secret (sealed at rest), and the code parameters. */
export interface PendingEnrolment {
  userId: string
  /** The name authenticator apps show for the account: the user's email, or their id. */
  accountName: string
  secret: string
  algorithm: "SHA-1" | "SHA-256" | "SHA-512"
  digits: number
  period: number
}

/** Events of the factor management flow: the request, and what each effect found. */
export type FactorsEvent =
  | { type: "request.received"; request: FactorsRequest }
  | CsrfEvent
  | RateLimitEvent
  | { type: "user.found"; userId: string; email?: string; factors: FactorSummary[]; backupCodes: number }
  | { type: "user.missing" }
  | { type: "user.failed"; error: unknown }
  | { type: "secret.generated"; enrolment: PendingEnrolment }
  | FlowClaimEvent
  | { type: "code.matched"; step: number }
  | { type: "code.unmatched" }
  | { type: "code.failed"; error: unknown }
  | { type: "factor.created"; factor: FactorSummary }
  | { type: "factor.renamed" }
  | { type: "factor.removed" }
  | { type: "backupCodes.generated"; codes: string[] }
  | { type: "write.failed"; error: unknown }

/** Context of the factor management flow. Sealed while an enrolment waits: the pending enrolment and its attempts. */
export interface FactorsContext extends RateLimitContext {
  request?: FactorsRequest
  userId?: string
  /** The signed-in user's email, as the session has it: the account name an enrolment shows. */
  email?: string
  factors?: FactorSummary[]
  backupCodes?: number
  enrolment?: PendingEnrolment
  attempts: number
  /** The time step of the code that confirmed the enrolment: the factor's first used step. */
  confirmedStep?: number
  /** The factor an enrolment created. */
  created?: FactorSummary
  /** Backup codes made in this request: shown once. */
  newBackupCodes?: string[]
  /** A code was refused in this request. */
  codeRefused?: boolean
  /** Who the attempts count against: the user. */
  rateLimitIdentity?: string
}

/** Effects the factor management machine names. */
export type FactorsEffect =
  | CsrfEffect
  | RateLimitEffect
  | ClaimFlowEffect
  | "findUser"
  | "generateSecret"
  | "checkEnrolmentCode"
  | "checkFactorCode"
  | "createFactor"
  | "renameFactor"
  | "removeFactor"
  | "generateBackupCodes"

/** A store or adapter that failed: the flow ends in `failed`, keeping the error. */
const failed = { target: "failed", actions: "recordError" } as const

const requested = (action: FactorsAction) => ({ context }: { context: FactorsContext }) => context.request?.action === action

/**
 * Managing second factors, signed in (`/factors`): every request but reading the list checks
 * CSRF, and every one finds the signed-in user, then does what it asks. Enrolling generates a secret and waits in
 * `awaitingConfirmation` (sealed in the second-factor cookie, 5 minutes) until one correct code
 * confirms it; only then is the factor written, with 10 backup codes when the user has none.
 * Renaming and removing name one of the user's own factors; removing the last one takes a current
 * code from it. Regenerating replaces the backup codes. Every way it ends is a named final state.
 *
 * @example
 * ```ts
 * import { createActor } from "xstate"
 * const actor = createActor(factorsMachine).start()
 * actor.send({ type: "request.received", request: { action: "enrol", policy: { maxAttempts: 5 } } })
 * actor.getSnapshot().value // "validatingInput"
 * ```
 */
export const factorsMachine = flowMachine(setup({
  types: {
    context: {} as FactorsContext,
    events: {} as FactorsEvent,
    meta: {} as FlowMeta<FactorsEffect>,
  },
  actions: {
    ...rateLimitActions<FactorsContext, FactorsEvent>(),
    recordRequest: assign({ request: ({ event }) => (event.type === "request.received" ? event.request : undefined), codeRefused: () => undefined }),
    recordUser: assign(({ event }) =>
      event.type === "user.found" ? { userId: event.userId, email: event.email, factors: event.factors, backupCodes: event.backupCodes, rateLimitIdentity: event.userId } : {},
    ),
    recordEnrolment: assign({ enrolment: ({ event }) => (event.type === "secret.generated" ? event.enrolment : undefined), attempts: () => 0 }),
    recordRefusedCode: assign({ attempts: ({ context }) => context.attempts + 1, codeRefused: () => true }),
    recordStep: assign({ confirmedStep: ({ event }) => (event.type === "code.matched" ? event.step : undefined) }),
    recordCreated: assign({ created: ({ event }) => (event.type === "factor.created" ? event.factor : undefined) }),
    recordBackupCodes: assign({ newBackupCodes: ({ event }) => (event.type === "backupCodes.generated" ? event.codes : undefined) }),
    recordError: assign({ error: ({ event }) => (event as { error?: unknown }).error }),
  },
  guards: {
    ...rateLimitGuards<FactorsContext, FactorsEvent>(),
    listRequested: requested("list"),
    /** The request that starts the flow reads the list. */
    requestsList: ({ event }) => event.type === "request.received" && event.request.action === "list",
    enrolRequested: requested("enrol"),
    confirmRequested: requested("confirm"),
    renameRequested: requested("rename"),
    removeRequested: requested("remove"),
    regenerateRequested: requested("regenerate"),
    /** An enrolment waits in this flow. */
    enrolmentWaiting: ({ context }) => context.enrolment !== undefined,
    /** The waiting enrolment was started by the user signed in now. */
    enrolmentOfThisUser: ({ context }) => context.enrolment?.userId === context.userId,
    /** The factor named is one of the user's own. */
    ownFactor: ({ context }) => context.factors?.some((factor) => factor.id === context.request?.factorId) === true,
    /** The factor named is the user's last one. */
    lastFactor: ({ context }) => context.factors?.length === 1,
    /** The user has backup codes left: an enrolment keeps them. */
    hasBackupCodes: ({ context }) => (context.backupCodes ?? 0) > 0,
    /** The enrolment has attempts left after this refusal. */
    attemptsLeft: ({ context }) => context.attempts + 1 < (context.request?.policy.maxAttempts ?? 5),
  },
}).createMachine)({
  id: "factors",
  context: { attempts: 0 },
  initial: "awaitingRequest",
  states: {
    // A new flow receives its request at once; a sealed enrolment receives the confirming one.
    awaitingRequest: {
      on: {
        "request.received": [
          // Reading the list changes nothing: it needs a session, not a CSRF token.
          { guard: "requestsList", target: "findingUser", actions: "recordRequest" },
          { target: "validatingInput", actions: "recordRequest" },
        ],
      },
    },
    awaitingConfirmation: {
      on: { "request.received": { target: "claimingFlow", actions: "recordRequest" } },
    },
    // The sealed enrolment is used once: a copy of its cookie sent again is a replay.
    claimingFlow: claimingFlowState("validatingInput", failed),
    validatingInput: csrfCheckingState("findingUser"),
    findingUser: {
      meta: { effect: "findUser" },
      on: {
        "user.found": { target: "choosingAction", actions: "recordUser" },
        "user.missing": "signedOut",
        "user.failed": failed,
      },
    },
    choosingAction: {
      always: [
        { guard: "listRequested", target: "listed" },
        { guard: "enrolRequested", target: "generatingSecret" },
        { guard: and(["confirmRequested", "enrolmentWaiting", "enrolmentOfThisUser"]), target: "checkingRateLimit" },
        { guard: and(["confirmRequested", "enrolmentWaiting"]), target: "enrolmentOfOtherUser" },
        { guard: and(["renameRequested", "ownFactor"]), target: "renamingFactor" },
        { guard: and(["removeRequested", "ownFactor", "lastFactor"]), target: "checkingRateLimit" },
        { guard: and(["removeRequested", "ownFactor"]), target: "removingFactor" },
        { guard: and(["removeRequested", not("ownFactor")]), target: "unknownFactor" },
        { guard: and(["renameRequested", not("ownFactor")]), target: "unknownFactor" },
        { guard: "regenerateRequested", target: "generatingBackupCodes" },
        { target: "invalidRequest" },
      ],
    },
    generatingSecret: {
      meta: { effect: "generateSecret" },
      on: {
        "secret.generated": { target: "awaitingConfirmation", actions: "recordEnrolment" },
        "write.failed": failed,
      },
    },
    // Codes are counted against the user: an enrolment or a removal cannot be guessed through.
    checkingRateLimit: limitingState("checkingCode"),
    checkingCode: {
      always: [{ guard: "confirmRequested", target: "checkingEnrolmentCode" }, { target: "checkingFactorCode" }],
    },
    checkingEnrolmentCode: {
      meta: { effect: "checkEnrolmentCode" },
      on: {
        "code.matched": { target: "creatingFactor", actions: "recordStep" },
        "code.unmatched": [
          { guard: "attemptsLeft", target: "awaitingConfirmation", actions: "recordRefusedCode" },
          { target: "attemptsExhausted" },
        ],
      },
    },
    // The last factor goes only with a current code from it: whoever removes it holds it.
    checkingFactorCode: {
      meta: { effect: "checkFactorCode" },
      on: {
        "code.matched": "removingFactor",
        "code.unmatched": "removalRefused",
        // The factor store failed reading the factor or claiming the code's step.
        "code.failed": failed,
      },
    },
    creatingFactor: {
      meta: { effect: "createFactor" },
      on: {
        "factor.created": [
          { guard: "hasBackupCodes", target: "enrolled", actions: "recordCreated" },
          { target: "generatingBackupCodes", actions: "recordCreated" },
        ],
        "write.failed": failed,
      },
    },
    generatingBackupCodes: {
      meta: { effect: "generateBackupCodes" },
      on: {
        "backupCodes.generated": { target: "backupCodesShown", actions: "recordBackupCodes" },
        "write.failed": failed,
      },
    },
    renamingFactor: {
      meta: { effect: "renameFactor" },
      on: {
        "factor.renamed": "done",
        "write.failed": failed,
      },
    },
    removingFactor: {
      meta: { effect: "removeFactor" },
      on: {
        "factor.removed": "done",
        "write.failed": failed,
      },
    },
    ...csrfRejectedState,
    ...rateLimitedState,
    signedOut: { type: "final" },
    ...flowReplayedState,
    enrolmentOfOtherUser: { type: "final" },
    unknownFactor: { type: "final" },
    invalidRequest: { type: "final" },
    attemptsExhausted: { type: "final" },
    removalRefused: { type: "final" },
    listed: { type: "final" },
    enrolled: { type: "final" },
    backupCodesShown: { type: "final" },
    done: { type: "final" },
    failed: { type: "final" },
  },
})
