import { and, assign, setup } from "xstate"
import { flowMachine } from "./flow-machine.js"
import type { FlowMeta } from "./run-flow.js"
import type { SecondFactorMethod } from "./sign-in-tail.js"
import type { User } from "../types.js"

/**
 * What a step-up asks of the signed-in user, from `/step-up`'s query (or `requireRecentAuth`):
 * an authentication no older than `maxAge` seconds, and, with `factor: "second"`, one that passed a
 * second factor.
 */
export interface StepUpDemand {
  /** Seconds since the user last authenticated. */
  maxAge: number
  /** `"second"`: the last authentication passed a second factor (`amr` holds `mfa`). */
  factor: "any" | "second"
  /** Where the user goes once the demand is met. */
  callbackUrl: string
}

/** When and how the user last authenticated, as the auth-context cookie says. */
export interface StepUpAuthContext {
  userId: string
  /** Epoch milliseconds. */
  authTime: number
  amr: string[]
}

/**
 * What the `findStepUp` effect found: the signed-in user, their auth context, when their sessions
 * were last revoked, how many authenticator apps and backup codes they have, whether a code can be
 * emailed to them, and the clock.
 */
export interface StepUpFound {
  type: "stepUp.found"
  user: User
  authContext?: StepUpAuthContext
  /** When the user's sessions were revoked ("sign out everywhere", a back-channel logout), epoch ms. */
  revokedAt?: number
  factors: number
  backupCodes: number
  emailCode: boolean
  now: number
}

/** Events of the step-up flow: what its one effect found. */
export type StepUpEvent = StepUpFound | { type: "stepUp.signedOut" } | { type: "stepUp.failed"; error: unknown }

/** Context of the step-up flow. */
export interface StepUpContext extends StepUpDemand {
  user?: User
  authContext?: StepUpAuthContext
  /** The second factors the user can pass, once a step-up through one is due. */
  methods?: SecondFactorMethod[]
  error?: unknown
}

/** Effects the step-up machine names. */
export type StepUpEffect = "findStepUp"

const found = (event: StepUpEvent): StepUpFound | undefined => (event.type === "stepUp.found" ? event : undefined)

/** The second factors the user can pass, from what `findStepUp` found. */
function methodsOf(facts: StepUpFound | undefined): SecondFactorMethod[] {
  if (!facts) return []
  return [...(facts.factors > 0 ? (["totp"] as const) : []), ...(facts.backupCodes > 0 ? (["backup"] as const) : []), ...(facts.emailCode ? (["email"] as const) : [])]
}

/**
 * A step-up, one request: is the signed-in user's last authentication recent enough (and strong
 * enough) for what they are about to do? `findStepUp` reports the user, their auth context and the
 * factors they have; the guards decide. A recent one ends in `recent` (the user goes on); a user
 * with a second factor proves it again (`secondFactorRequired`: the second-factor flow starts in
 * step-up mode, the session untouched); one without signs in again (`reauthenticationRequired`),
 * unless a second factor was demanded (`secondFactorUnavailable`). Nobody signed in:
 * `signInRequired`.
 *
 * @example
 * ```ts
 * import { createActor } from "xstate"
 * const actor = createActor(stepUpMachine, { input: { maxAge: 300, factor: "any", callbackUrl: "/settings" } }).start()
 * actor.getSnapshot().value // "findingUser"
 * actor.send({ type: "stepUp.signedOut" })
 * actor.getSnapshot().value // "signInRequired"
 * ```
 */
export const stepUpMachine = flowMachine(setup({
  types: {
    context: {} as StepUpContext,
    events: {} as StepUpEvent,
    input: {} as StepUpDemand,
    meta: {} as FlowMeta<StepUpEffect>,
  },
  actions: {
    recordUser: assign(({ event }) => {
      const facts = found(event)
      return facts ? { user: facts.user, ...(facts.authContext && { authContext: facts.authContext }) } : {}
    }),
    recordMethods: assign({ methods: ({ event }) => methodsOf(found(event)) }),
    recordError: assign({ error: ({ event }) => (event.type === "stepUp.failed" ? event.error : undefined) }),
  },
  guards: {
    /** The auth-context cookie names the signed-in user (not one who signed in before in this browser). */
    contextOfThisUser: ({ event }) => {
      const facts = found(event)
      return facts?.authContext !== undefined && facts.authContext.userId === facts.user.id
    },
    /** The user authenticated no longer than `maxAge` seconds ago. */
    authenticatedWithinMaxAge: ({ context, event }) => {
      const facts = found(event)
      return facts?.authContext !== undefined && facts.now - facts.authContext.authTime <= context.maxAge * 1000
    },
    /** The user's sessions were not revoked after they authenticated. */
    notRevokedSince: ({ event }) => {
      const facts = found(event)
      return facts?.authContext !== undefined && (facts.revokedAt === undefined || facts.revokedAt < facts.authContext.authTime)
    },
    /** Any factor will do, or a second factor was demanded and passed. */
    factorSatisfied: ({ context, event }) => context.factor === "any" || (found(event)?.authContext?.amr.includes("mfa") ?? false),
    /** The user can pass a second factor now. */
    hasSecondFactor: ({ event }) => methodsOf(found(event)).length > 0,
    /** The demand is for a second factor, which signing in again does not give. */
    demandsSecondFactor: ({ context }) => context.factor === "second",
  },
}).createMachine)({
  id: "step-up",
  context: ({ input }) => ({ maxAge: input.maxAge, factor: input.factor, callbackUrl: input.callbackUrl }),
  initial: "findingUser",
  states: {
    findingUser: {
      meta: { effect: "findStepUp" },
      on: {
        "stepUp.signedOut": "signInRequired",
        "stepUp.found": [
          { guard: and(["contextOfThisUser", "authenticatedWithinMaxAge", "notRevokedSince", "factorSatisfied"]), target: "recent", actions: "recordUser" },
          { guard: "hasSecondFactor", target: "secondFactorRequired", actions: ["recordUser", "recordMethods"] },
          { guard: "demandsSecondFactor", target: "secondFactorUnavailable", actions: "recordUser" },
          { target: "reauthenticationRequired", actions: "recordUser" },
        ],
        "stepUp.failed": { target: "failed", actions: "recordError" },
      },
    },
    recent: { type: "final" },
    secondFactorRequired: { type: "final" },
    secondFactorUnavailable: { type: "final" },
    reauthenticationRequired: { type: "final" },
    signInRequired: { type: "final" },
    failed: { type: "final" },
  },
})
