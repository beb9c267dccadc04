import { multiSessionMachine } from "../../machines/multi-session.js"
import { runFlowWithCookies, type FlowEffects } from "../../machines/run-flow.js"
import { outcomeOf, type FlowOutcomes } from "../flow-outcomes.js"
import { asError } from "../../core/as-error.js"
import { SessionTokenError } from "../../core/errors.js"
import { endSession, readActive, readOthers, writeOthers, type OtherSession, type ReadSession } from "./others.js"
import type { AuthOptions } from "../../core/options.js"
import type { Cookie } from "../../types.js"

/**
 * The end of every sign-in with `multiSession` on (called by the session-writing effects once the
 * new session's cookie is written): runs the multi-session machine's `add` flow. With the
 * `add-account` marker and another user signed in before, that user's session moves into the
 * others cookie instead of being replaced (the oldest others drop past `maxAccounts`); the marker
 * is cleared in every case. Returns the cookies to add to the sign-in's answer.
 *
 * @example
 * ```ts
 * const cookies = [...sessionCookies, ...(await keepSignedInAccounts(options, user.id))]
 * ```
 */
export async function keepSignedInAccounts(options: AuthOptions, newUserId: string | undefined): Promise<Cookie[]> {
  const marker = options.cookies.addAccount
  const markerCleared: Cookie[] = options.request.cookies[marker.name] !== undefined ? [{ name: marker.name, value: "", options: { ...marker.options, maxAge: 0 } }] : []
  let previous: ReadSession | undefined
  let others: OtherSession[] = []
  const effects: FlowEffects<typeof multiSessionMachine> = {
    // Never reached by `add`: the sign-in checked its own CSRF token.
    checkCsrf: () => ({ type: "csrf.valid" }),
    findPrevious: async () => {
      if (!markerCleared.length) return { type: "marker.absent" }
      previous = (await readActive(options)) ?? undefined
      if (!previous) return { type: "previous.none" }
      // The new user is never also among the others: their new session replaces what was kept.
      others = (await readOthers(options)).filter((other) => other.u === undefined || other.u !== newUserId)
      const sameUser = previous.userId !== undefined && previous.userId === newUserId
      return { type: "previous.found", sameUser, accounts: others.length + 2 }
    },
    dropOldest: async ({ drop }) => {
      const dropped = others.slice(others.length - drop!)
      others = others.slice(0, others.length - drop!)
      try {
        // Signed out as if asked: a database session deleted, `events.signOut` fired.
        for (const other of dropped) await endSession(options, other.t)
        return { type: "oldest.dropped" }
      } catch (error) {
        return { type: "drop.failed", error }
      }
    },
    keepPrevious: async () => {
      try {
        const kept: OtherSession = { t: previous!.token, a: Date.now(), ...(previous!.userId !== undefined && { u: previous!.userId }) }
        return { type: "previous.kept", cookies: await writeOthers(options, [kept, ...others]) }
      } catch (error) {
        return { type: "keep.failed", error }
      }
    },
    findAccount: () => ({ type: "account.missing" }),
    switchAccount: () => ({ type: "account.switched" }),
    findSignOutTarget: () => ({ type: "target.missing" }),
    endOthers: () => ({ type: "others.ended" }),
    endOther: () => ({ type: "other.ended" }),
  }
  // The marker cleared, then the others cookie keeping the account signed in before (when it was kept).
  const done = (_: unknown, minted: readonly Cookie[]): Cookie[] => [...markerCleared, ...minted]
  const unused = done
  const outcomes: FlowOutcomes<typeof multiSessionMachine, Cookie[]> = {
    replaced: done,
    added: done,
    keepFailed: ({ error }, minted) => {
      options.logger.error(new SessionTokenError(asError(error)))
      return done(undefined, minted)
    },
    // Not reached by `add`.
    switched: unused,
    switchFailed: unused,
    accountNotFound: unused,
    endAll: unused,
    promoteNext: unused,
    otherEnded: unused,
    csrfRejected: unused,
  }
  const input = { operation: "add" as const, policy: { maxAccounts: options.multiSession!.maxAccounts } }
  return outcomeOf(await runFlowWithCookies(multiSessionMachine, effects, { inspect: options.config.inspect, input }), outcomes)
}
