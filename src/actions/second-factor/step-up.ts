/**
 * `/step-up`: a signed-in user proves, for a sensitive action, that they authenticated recently
 * (and, when asked, with a second factor), without ending their session. The step-up machine
 * decides from what `findStepUp` found: a recent authentication goes on to the callback URL; a user
 * with a second factor proves it again through the second-factor flow in step-up mode; one without
 * signs in again. `Accept: application/json` only asks: the answer says whether the demand is met
 * and what a browser sent here would do, and nothing is started.
 *
 * @module
 */
import { errorAnswer, type Answer } from "../../core/answer.js"
import { CallbackRouteError, SecondFactorUnavailable } from "../../core/errors.js"
import { asError } from "../../core/as-error.js"
import { revocationStoreOf } from "../../core/revocation-store.js"
import { runFlow, type FlowEffects } from "../../machines/run-flow.js"
import { stepUpMachine, type StepUpContext, type StepUpDemand } from "../../machines/step-up.js"
import { outcomeOf, type FlowOutcomes } from "../flow-outcomes.js"
import { readAuthContext } from "./auth-context.js"
import { startSecondFactor } from "./flow.js"
import { sessionUser } from "./session-user.js"
import type { AuthOptions } from "../../core/options.js"
import type { Cookie, ResponseInternal } from "../../types.js"

/** Seconds a step-up accepts when `/step-up` is given no `maxAge`. */
export const DEFAULT_STEP_UP_MAX_AGE = 5 * 60

/** What `/step-up` answers a JSON request: whether the demand is met, and what a browser sent there would do. */
export interface StepUpStatus {
  recent: boolean
  /** When the user last authenticated (ISO 8601), once the demand is met. */
  authTime?: string
  amr?: string[]
  /** `"second-factor"`: prove a second factor; `"signin"`: sign in (again); `"unavailable"`: a second factor was demanded of a user who has none. */
  next?: "second-factor" | "signin" | "unavailable"
}

/** The demand in `/step-up`'s query, or the one-line reason it cannot be read. */
function demandOf(options: AuthOptions): StepUpDemand | string {
  const { maxAge, factor } = options.request.query
  const seconds = maxAge === undefined ? DEFAULT_STEP_UP_MAX_AGE : /^\d{1,9}$/.test(maxAge) ? Number(maxAge) : undefined
  if (seconds === undefined) return `/step-up takes maxAge in whole seconds, such as /step-up?maxAge=300 (got "${maxAge}")`
  if (factor !== undefined && factor !== "any" && factor !== "second") return `/step-up takes factor "any" or "second" (got "${factor}")`
  return { maxAge: seconds, factor: factor ?? "any", callbackUrl: options.callbackUrl }
}

function effects(options: AuthOptions): FlowEffects<typeof stepUpMachine> {
  const adapter = options.adapter!
  return {
    findStepUp: async () => {
      try {
        const user = await sessionUser(options)
        if (!user) return { type: "stepUp.signedOut" }
        const [authContext, factors, backupCodes] = await Promise.all([readAuthContext(options), adapter.listFactorsByUserId!(user.id), adapter.countBackupCodes!(user.id)])
        const revokedAt = authContext ? await revocationStoreOf(options.config).revokedAt([`user:${user.id}`]) : undefined
        return {
          type: "stepUp.found",
          user,
          ...(authContext && { authContext }),
          ...(revokedAt !== undefined && { revokedAt }),
          factors: factors.length,
          backupCodes,
          emailCode: options.secondFactor!.sendCode !== undefined && typeof user.email === "string" && user.email !== "",
          now: Date.now(),
        }
      } catch (error) {
        return { type: "stepUp.failed", error }
      }
    },
  }
}

function outcomes(options: AuthOptions, cookies: Cookie[], asJson: boolean): FlowOutcomes<typeof stepUpMachine, Answer | Promise<Answer>> {
  const json = (status: StepUpStatus): ResponseInternal => ({ status: 200, body: status, headers: { "Content-Type": "application/json", "Cache-Control": "private, no-cache, no-store" }, cookies })
  const signIn = ({ callbackUrl }: StepUpContext): Answer => {
    if (asJson) return json({ recent: false, next: "signin" })
    const page = options.pages.signIn ?? `${options.baseUrl}/signin`
    return { redirect: `${page}${page.includes("?") ? "&" : "?"}${new URLSearchParams({ callbackUrl })}`, cookies }
  }
  return {
    recent: ({ callbackUrl, authContext }) => (asJson ? json({ recent: true, authTime: new Date(authContext!.authTime).toISOString(), amr: authContext!.amr }) : { redirect: callbackUrl, cookies }),
    secondFactorRequired: ({ user, authContext, callbackUrl, methods }) => {
      if (asJson) return json({ recent: false, next: "second-factor" })
      // The amr the user has stays in the renewed context: only a context of this user counts.
      const amr = authContext !== undefined && authContext.userId === user!.id ? authContext.amr : []
      return startSecondFactor(options, cookies, { user: user!, account: { provider: "step-up", type: "credentials", providerAccountId: user!.id! }, callbackUrl, methods: methods!, stepUp: { amr } })
    },
    secondFactorUnavailable: () =>
      asJson ? json({ recent: false, next: "unavailable" }) : errorAnswer(new SecondFactorUnavailable("A second factor was demanded of this user, who has no authenticator app or backup codes, and no code can be emailed to them"), cookies),
    reauthenticationRequired: signIn,
    signInRequired: signIn,
    failed: ({ error }) => errorAnswer(error instanceof Error && "type" in error ? error : new CallbackRouteError(asError(error), { cause: { provider: "step-up" } }), cookies),
  }
}

/**
 * GET `/step-up?maxAge=300&factor=second&callbackUrl=/settings`: sends the signed-in user on to
 * `callbackUrl` when they authenticated within `maxAge` seconds (with a second factor, for
 * `factor=second`), and otherwise through a second factor again (the session stays), or to sign in.
 * With `Accept: application/json` it only answers {@link StepUpStatus}.
 *
 * @example
 * ```ts
 * // GET /auth/step-up?maxAge=300&callbackUrl=/settings → 302 /auth/second-factor?methods=totp,backup
 * ```
 */
export async function stepUpAction(options: AuthOptions, cookies: Cookie[]): Promise<Answer> {
  const demand = demandOf(options)
  const asJson = (options.request.headers.get("accept") ?? "").includes("application/json")
  // A query the route cannot read is the caller's mistake, answered where it was made: 400 and the fix.
  if (typeof demand === "string") return { status: 400, body: asJson ? { error: demand } : demand, headers: { "Content-Type": asJson ? "application/json" : "text/plain; charset=utf-8" }, cookies }
  const snapshot = await runFlow(stepUpMachine, effects(options), { inspect: options.config.inspect, input: demand })
  return outcomeOf(snapshot, outcomes(options, cookies, asJson))
}
