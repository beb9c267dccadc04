import { multiSessionMachine } from "../../machines/multi-session.js"
import { csrfCheckEffect } from "../../machines/csrf-check.js"
import { runFlow, type FlowEffects } from "../../machines/run-flow.js"
import { outcomeOf, type FlowOutcomes } from "../flow-outcomes.js"
import { MissingCSRF, SignOutError } from "../../core/errors.js"
import { errorAnswer, isErrorAnswer, type Answer } from "../../core/answer.js"
import { asError } from "../../core/as-error.js"
import { signOutAction } from "../signout.js"
import { accountNotFound } from "./accounts.js"
import { accountId, activate, endSession, readActive, readOthers, readSessionToken, withoutOverwritten, writeOthers, type OtherSession } from "./others.js"
import type { AuthOptions } from "../../core/options.js"
import type { Cookie } from "../../types.js"

/**
 * POST `/signout` with `multiSession` on. Without `account`: every account of the browser ends
 * (each other one: its database session deleted, `events.signOut`), then the active one through the
 * sign-out flow, and both cookies are cleared. With `account` (an id from `GET /sessions`): that
 * account alone ends; when it is the active one, the next other becomes active. An unknown account
 * is `AccountNotFound`.
 *
 * @example
 * ```ts
 * // POST /auth/signout  csrfToken=…&account=u2 → 302 to the callback URL; u2 signed out, the active one still in
 * ```
 */
export async function accountSignOut(options: AuthOptions, cookies: Cookie[]): Promise<Answer> {
  const account = options.request.body?.account
  let others: OtherSession[] = []
  let index = -1
  const effects: FlowEffects<typeof multiSessionMachine> = {
    ...csrfCheckEffect(options),
    findSignOutTarget: async () => {
      others = await readOthers(options)
      if (account === undefined || account === "") return { type: "target.all", others: others.length }
      const active = await readActive(options)
      if (active?.userId !== undefined && active.userId === account) return { type: "target.active", others: others.length }
      index = typeof account === "string" ? others.findIndex((other, at) => accountId(other, at) === account) : -1
      return index < 0 ? { type: "target.missing" } : { type: "target.other" }
    },
    endOthers: async () => {
      let failure: { error: unknown } | undefined
      for (const other of others) {
        try {
          await endSession(options, other.t)
        } catch (error) {
          failure ??= { error }
        }
      }
      return failure ? { type: "others.failed", error: failure.error } : { type: "others.ended" }
    },
    endOther: async () => {
      try {
        await endSession(options, others[index]!.t)
        return { type: "other.ended" }
      } catch (error) {
        return { type: "other.failed", error }
      }
    },
    findPrevious: () => ({ type: "marker.absent" }),
    dropOldest: () => ({ type: "oldest.dropped" }),
    keepPrevious: () => ({ type: "previous.kept" }),
    findAccount: () => ({ type: "account.missing" }),
    switchAccount: () => ({ type: "account.switched" }),
  }
  const logFailure = (error: unknown) => {
    if (error !== undefined) options.logger.error(new SignOutError(asError(error)))
  }
  /** The sign-out flow for the active session, and then `after`'s cookies in place of what it cleared. */
  const endActive = async (after: () => Promise<Cookie[]>): Promise<Answer> => {
    const answered = await signOutAction(options, cookies)
    if (isErrorAnswer(answered)) return answered
    const later = await after()
    return { ...answered, cookies: [...withoutOverwritten(answered.cookies ?? [], later), ...later] }
  }
  const unused = async (): Promise<Answer> => errorAnswer(new SignOutError("Not a sign-out"), cookies)
  const outcomes: FlowOutcomes<typeof multiSessionMachine, Promise<Answer>> = {
    csrfRejected: async () => errorAnswer(new MissingCSRF("CSRF token was missing during an action signout"), cookies),
    endAll: async ({ error }) => {
      logFailure(error)
      return endActive(() => writeOthers(options, []))
    },
    promoteNext: async () =>
      endActive(async () => {
        // The newest other that is still alive becomes active; any that are not leave too.
        for (let next = 0; next < others.length; next++) {
          const session = await readSessionToken(options, others[next]!.t)
          if (session) return [...activate(options, session), ...(await writeOthers(options, others.slice(next + 1)))]
        }
        return writeOthers(options, [])
      }),
    otherEnded: async ({ error }) => {
      logFailure(error)
      return { redirect: options.callbackUrl, cookies: [...cookies, ...(await writeOthers(options, others.filter((_, at) => at !== index)))] }
    },
    accountNotFound: async () => accountNotFound(options, cookies),
    replaced: unused,
    added: unused,
    keepFailed: unused,
    switched: unused,
    switchFailed: unused,
  }
  const input = { operation: "signOut" as const, policy: { maxAccounts: options.multiSession!.maxAccounts } }
  return outcomeOf(await runFlow(multiSessionMachine, effects, { inspect: options.config.inspect, input }), outcomes)
}
