/**
 * The token-refresh machine on its own, driven with the events its effects send: where each answer
 * leads, and what the context keeps (the tokens to use, the failure, the claim, the wait, the
 * retries) for the effects after it and for the session read that reports it.
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { tokenRefreshContext, tokenRefreshMachine, type ProviderTokens, type TokenRefreshEvent, type TokenRefreshInput } from "../../src/machines/token-refresh.js"
import { rowClaimMarker } from "../../src/core/row-claim.js"
import { effectsByState, finalStates } from "./effects.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/token-refresh.js", async (load) => (await import("./load-per-test.js")).perTestExports("token-refresh", await load()))
loadMachinesPerTest("token-refresh")

const at = 1_000_000
const seconds = at / 1000
const skew = 60
const due: ProviderTokens = { access_token: "at-1", refresh_token: "rt-1", expires_at: seconds + 10, token_type: "bearer" }
const other: ProviderTokens = { access_token: "at-other", refresh_token: "rt-other", expires_at: seconds + 5000, token_type: "bearer" }

/** The machine after these events, from its start with this input. */
function after(input: Partial<TokenRefreshInput>, ...events: TokenRefreshEvent[]) {
  const actor = createActor(tokenRefreshMachine, { input: { skew, at, tokens: due, ...input } }).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

const entered: TokenRefreshEvent = { type: "run.entered" }
/** A row lock flow, the row read again as due, up to its claim. */
const rowRead = (tokens: ProviderTokens, readAt = at): TokenRefreshEvent => ({ type: "row.read", tokens, at: readAt })

describe("token-refresh machine", () => {
  it("ends its flows in these final states", () => {
    expect(finalStates(tokenRefreshMachine)).toEqual(["absent", "failed", "fresh", "joined", "joinedFailure", "persisted"])
  })

  it("names the effect each state waits on (the engine performs it by that name)", () => {
    expect(effectsByState(tokenRefreshMachine)).toEqual({
      loadingTokens: "readRow",
      "refreshing.enteringRun": "enterRun",
      "refreshing.awaitingRun": "awaitRun",
      "refreshing.claimingInStore": "claimInStore",
      "refreshing.checkingBackOff": "readRecentFailure",
      "refreshing.swappingClaim": "swapClaim",
      "refreshing.rereadingRow": "readRow",
      "refreshing.awaitingWinner": "awaitWinner",
      "refreshing.claimed": "requestGrant",
      "refreshing.granted": "persist",
      "refreshing.releasing": "release",
    })
  })

  it("ends in a final state on each outcome", () => {
    const outcomes = [
      after({ tokens: undefined }),
      after({ tokens: { ...due, expires_at: seconds + 5000 } }),
      after({}, { type: "run.running" }, { type: "run.settled", result: { tokens: other } }),
      after({}, { type: "run.running" }, { type: "run.settled", result: { failure: "revoked" } }),
      after({}, entered, { type: "claim.won" }, { type: "grant.answered", tokens: other }, { type: "persist.done" }),
      after({}, entered, { type: "claim.failed", error: new Error("down") }),
    ]
    expect(outcomes.map((snapshot) => [snapshot.value, snapshot.status])).toEqual([
      ["absent", "done"],
      ["fresh", "done"],
      ["joined", "done"],
      ["joinedFailure", "done"],
      ["persisted", "done"],
      ["failed", "done"],
    ])
  })

  it("starts from its input: one retry, the store lock, a 30 s claim, the row read again only with the row lock", () => {
    expect(tokenRefreshContext({ skew, at })).toEqual({ skew, retries: 1, lock: "store", claimMs: 30_000, at, reread: false })
    expect(tokenRefreshContext({ skew, at, tokens: due, lock: "row", claimMs: 5, retries: 3 })).toEqual({ skew, retries: 3, lock: "row", claimMs: 5, tokens: due, at, reread: true })
    expect("tokens" in tokenRefreshContext({ skew, at, tokens: undefined })).toBe(false)
  })

  it("keeps tokens that outlive the skew, refreshes those within it, and has nothing to do without tokens", () => {
    expect(after({ tokens: undefined }).value).toBe("absent")
    expect(after({ tokens: { ...due, expires_at: seconds + skew + 1 } }).value).toBe("fresh")
    // Exactly at the skew: due.
    expect(after({ tokens: { ...due, expires_at: seconds + skew } }).value).toEqual({ refreshing: "enteringRun" })
    expect(after({ tokens: { ...due, expires_at: seconds + skew + 1 }, at: at + 999 }).value).toBe("fresh")
    expect(after({ tokens: { ...due, expires_at: seconds + skew + 1 }, at: at + 1000 }).value).toEqual({ refreshing: "enteringRun" })
    // The clock is read in whole seconds.
    expect(after({ tokens: { ...due, expires_at: seconds + skew + 0.5 }, at: at + 700 }).value).toBe("fresh")
    // No expiry at all: refreshed.
    expect(after({ tokens: { access_token: "at-1", refresh_token: "rt-1", token_type: "bearer" } }).value).toEqual({ refreshing: "enteringRun" })
    const none = after({ tokens: { access_token: "at-1", expires_at: seconds + 10, token_type: "bearer" } })
    expect([none.value, none.context.failure]).toEqual(["failed", "no-refresh-token"])
    const empty = after({ tokens: { ...due, refresh_token: "" } })
    expect([empty.value, empty.context.failure]).toEqual(["failed", "no-refresh-token"])
  })

  it("reads the row again before it refreshes the listing's tokens, and decides on the row as read", () => {
    expect(after({ lock: "row" }).value).toBe("loadingTokens")
    const fresh = after({ lock: "row" }, rowRead({ ...due, expires_at: seconds + 5000 }, at + 1))
    expect([fresh.value, fresh.context.tokens?.expires_at, fresh.context.at, fresh.context.reread]).toEqual(["fresh", seconds + 5000, at + 1, false])
    const stillDue = after({ lock: "row" }, rowRead(due))
    expect([stillDue.value, stillDue.context.reread]).toEqual([{ refreshing: "enteringRun" }, false])
    expect(after({ lock: "row" }, { type: "row.missing" }).value).toBe("absent")
    const down = new Error("down")
    const failed = after({ lock: "row" }, { type: "row.failed", error: down })
    expect([failed.value, failed.context.failure, failed.context.error]).toEqual(["failed", "unavailable", down])
  })

  it("joins the refresh already running in the process: its tokens, its failure, or unavailable when it gave nothing", () => {
    expect(after({}, { type: "run.running" }).value).toEqual({ refreshing: "awaitingRun" })
    const joined = after({}, { type: "run.running" }, { type: "run.settled", result: { tokens: other } })
    expect([joined.value, joined.context.refreshed, joined.context.failure]).toEqual(["joined", other, undefined])
    const revoked = after({}, { type: "run.running" }, { type: "run.settled", result: { failure: "revoked" } })
    expect([revoked.value, revoked.context.failure, revoked.context.refreshed]).toEqual(["joinedFailure", "revoked", undefined])
  })

  it("claims in the store: a won claim sends the grant, a busy one waits, a done one is joined, a failed one fails", () => {
    expect(after({}, entered).value).toEqual({ refreshing: "claimingInStore" })
    expect(after({}, entered, { type: "claim.won" }).value).toEqual({ refreshing: "claimed" })
    expect(after({}, entered, { type: "claim.busy" }).value).toEqual({ refreshing: "awaitingWinner" })
    const done = after({}, entered, { type: "claim.done", result: { tokens: other } })
    expect([done.value, done.context.refreshed]).toEqual(["joined", other])
    const unopened = after({}, entered, { type: "claim.done" })
    expect([unopened.value, unopened.context.failure]).toEqual(["joinedFailure", "unavailable"])
    const down = new Error("store down")
    const failed = after({}, entered, { type: "claim.failed", error: down })
    expect([failed.value, failed.context.failure, failed.context.error]).toEqual(["failed", "unavailable", down])
  })

  it("reads the row's claim: a live one is waited for, an outlived one taken over (at its very end too), none claimed", () => {
    const claimedBy = (until: number) => after({ lock: "row" }, rowRead({ ...due, refresh_token: rowClaimMarker("rt-1", until, "ab") }), entered)
    const live = claimedBy(at + 1)
    expect([live.value, live.context.takeOver]).toEqual([{ refreshing: "awaitingWinner" }, undefined])
    const ending = claimedBy(at)
    expect([ending.value, ending.context.takeOver]).toEqual([{ refreshing: "checkingBackOff" }, true])
    const stale = claimedBy(at - 1)
    expect([stale.value, stale.context.takeOver]).toEqual([{ refreshing: "checkingBackOff" }, true])
    const unclaimed = after({ lock: "row" }, rowRead(due), entered)
    expect([unclaimed.value, unclaimed.context.takeOver]).toEqual([{ refreshing: "checkingBackOff" }, undefined])
  })

  it("backs off from a failure published a moment ago, and swaps its claim into the row otherwise", () => {
    const toBackOff = [rowRead(due), entered] as const
    const found = after({ lock: "row" }, ...toBackOff, { type: "backOff.found", failure: "revoked" })
    expect([found.value, found.context.failure]).toEqual(["joinedFailure", "revoked"])
    const down = new Error("down")
    const failed = after({ lock: "row" }, ...toBackOff, { type: "claim.failed", error: down })
    expect([failed.value, failed.context.failure, failed.context.error]).toEqual(["failed", "unavailable", down])
    const marker = rowClaimMarker("rt-1", at + 30_000, "cd")
    const swapped = after({ lock: "row" }, ...toBackOff, { type: "backOff.none" }, { type: "claim.swapped", claimToken: marker })
    expect([swapped.value, swapped.context.claimToken]).toEqual([{ refreshing: "claimed" }, marker])
    const swapFailed = after({ lock: "row" }, ...toBackOff, { type: "backOff.none" }, { type: "claim.failed", error: down })
    expect([swapFailed.value, swapFailed.context.error]).toEqual(["failed", down])
  })

  it("reads the row again after a lost swap: a claim is waited for, other tokens joined, the same tokens mean a failed refresh", () => {
    const lost = [rowRead(due), entered, { type: "backOff.none" }, { type: "claim.lost" }] as const
    expect(after({ lock: "row" }, ...lost).value).toEqual({ refreshing: "rereadingRow" })
    const claimed = after({ lock: "row" }, ...lost, rowRead({ ...due, refresh_token: rowClaimMarker("rt-1", at + 500, "ef") }))
    expect(claimed.value).toEqual({ refreshing: "awaitingWinner" })
    const refreshed = after({ lock: "row" }, ...lost, rowRead(other))
    expect([refreshed.value, refreshed.context.refreshed]).toEqual(["joined", other])
    // Only the expiry changed: refreshed too.
    const reExpired = after({ lock: "row" }, ...lost, rowRead({ ...due, expires_at: seconds + 4000 }))
    expect(reExpired.value).toBe("joined")
    // Only the access token changed: refreshed too.
    expect(after({ lock: "row" }, ...lost, rowRead({ ...due, access_token: "at-2" })).value).toBe("joined")
    const putBack = after({ lock: "row" }, ...lost, rowRead(due))
    expect([putBack.value, putBack.context.failure, putBack.context.refreshed]).toEqual(["joinedFailure", "unavailable", undefined])
    const unlinked = after({ lock: "row" }, ...lost, { type: "row.missing" })
    expect([unlinked.value, unlinked.context.failure, (unlinked.context.error as Error).message]).toEqual(["failed", "unavailable", "The account was unlinked during the refresh"])
    const down = new Error("down")
    const failed = after({ lock: "row" }, ...lost, { type: "row.failed", error: down })
    expect([failed.value, failed.context.failure, failed.context.error]).toEqual(["failed", "unavailable", down])
  })

  it("waits for the store's winner from the first busy answer, for as long as a claim is held, then claims once more, then fails", () => {
    const busy = (when: number): TokenRefreshEvent => ({ type: "winner.busy", at: when })
    const waiting = [entered, { type: "claim.busy" }] as const
    const first = after({ claimMs: 100 }, ...waiting, busy(at + 10))
    expect([first.value, first.context.waitingSince]).toEqual([{ refreshing: "awaitingWinner" }, at + 10])
    const second = after({ claimMs: 100 }, ...waiting, busy(at + 10), busy(at + 109))
    expect([second.value, second.context.waitingSince, second.context.retries]).toEqual([{ refreshing: "awaitingWinner" }, at + 10, 1])
    const retried = after({ claimMs: 100 }, ...waiting, busy(at + 10), busy(at + 110))
    expect([retried.value, retried.context.retries, retried.context.waitingSince, retried.context.at]).toEqual([{ refreshing: "claimingInStore" }, 0, undefined, at + 110])
    const gaveUp = after({ claimMs: 100 }, ...waiting, busy(at + 10), busy(at + 110), { type: "claim.busy" }, busy(at + 120), busy(at + 220))
    expect([gaveUp.value, gaveUp.context.failure]).toEqual(["failed", "unavailable"])
    const stillWaiting = after({ claimMs: 100 }, ...waiting, busy(at + 10), busy(at + 110), { type: "claim.busy" }, busy(at + 120), busy(at + 219))
    expect(stillWaiting.value).toEqual({ refreshing: "awaitingWinner" })
  })

  it("joins the winner's result, and claims again (once) when the winner is gone", () => {
    const waiting = [entered, { type: "claim.busy" }] as const
    const done = after({}, ...waiting, { type: "winner.done", result: { tokens: other } })
    expect([done.value, done.context.refreshed]).toEqual(["joined", other])
    const failedThere = after({}, ...waiting, { type: "winner.done", result: { failure: "not-persisted" } })
    expect([failedThere.value, failedThere.context.failure]).toEqual(["joinedFailure", "not-persisted"])
    const gone = after({}, ...waiting, { type: "winner.gone", at: at + 7 })
    expect([gone.value, gone.context.retries, gone.context.at]).toEqual([{ refreshing: "claimingInStore" }, 0, at + 7])
    const goneTwice = after({}, ...waiting, { type: "winner.gone", at: at + 7 }, { type: "claim.busy" }, { type: "winner.gone", at: at + 9 })
    expect([goneTwice.value, goneTwice.context.failure]).toEqual(["failed", "unavailable"])
    const noRetry = after({ retries: 0 }, ...waiting, { type: "winner.gone", at: at + 7 })
    expect([noRetry.value, noRetry.context.at]).toEqual(["failed", at])
  })

  it("waits on the row: other tokens are joined, the same unclaimed tokens a failure, an outlived claim claimed again", () => {
    const live = rowClaimMarker("rt-1", at + 1_000, "ab")
    const waiting = [rowRead({ ...due, refresh_token: live }), entered] as const
    expect(after({ lock: "row", claimMs: 100 }, ...waiting).value).toEqual({ refreshing: "awaitingWinner" })
    const joined = after({ lock: "row", claimMs: 100 }, ...waiting, rowRead(other, at + 5))
    expect([joined.value, joined.context.refreshed]).toEqual(["joined", other])
    const putBack = after({ lock: "row", claimMs: 100 }, ...waiting, rowRead(due, at + 5))
    expect([putBack.value, putBack.context.failure]).toEqual(["joinedFailure", "unavailable"])
    const stillHeld = after({ lock: "row", claimMs: 100 }, ...waiting, rowRead({ ...due, refresh_token: live }, at + 5))
    expect([stillHeld.value, stillHeld.context.waitingSince]).toEqual([{ refreshing: "awaitingWinner" }, at + 5])
    // Still claimed, whatever else the row holds: still waiting.
    const reclaimed = after({ lock: "row", claimMs: 100 }, ...waiting, rowRead({ ...other, refresh_token: live }, at + 5))
    expect([reclaimed.value, reclaimed.context.refreshed]).toEqual([{ refreshing: "awaitingWinner" }, undefined])
    // The claim ran out while waiting: claimed again, from where the wait ended.
    const outlived = after({ lock: "row", claimMs: 100_000 }, ...waiting, rowRead({ ...due, refresh_token: live }, at + 1_000))
    expect([outlived.value, outlived.context.retries, outlived.context.at, outlived.context.waitingSince]).toEqual([{ refreshing: "checkingBackOff" }, 0, at + 1_000, undefined])
    // Held for longer than a claim is held: claimed again too.
    const tooLong = after({ lock: "row", claimMs: 100 }, ...waiting, rowRead({ ...due, refresh_token: live }, at + 5), rowRead({ ...due, refresh_token: live }, at + 105))
    expect([tooLong.value, tooLong.context.retries, tooLong.context.at]).toEqual([{ refreshing: "awaitingWinner" }, 0, at + 105])
    const noRetry = after({ lock: "row", claimMs: 100, retries: 0 }, ...waiting, rowRead({ ...due, refresh_token: live }, at + 1_000))
    expect([noRetry.value, noRetry.context.failure]).toEqual(["failed", "unavailable"])
  })

  it("keeps the granted tokens, with the old refresh token when the provider rotates none", () => {
    const claimed = [entered, { type: "claim.won" }] as const
    const rotated = after({}, ...claimed, { type: "grant.answered", tokens: { access_token: "at-2", refresh_token: "rt-2", token_type: "bearer" } })
    expect([rotated.value, rotated.context.refreshed]).toEqual([{ refreshing: "granted" }, { access_token: "at-2", refresh_token: "rt-2", token_type: "bearer" }])
    const kept = after({}, ...claimed, { type: "grant.answered", tokens: { access_token: "at-2", token_type: "bearer" } })
    expect(kept.context.refreshed).toEqual({ access_token: "at-2", refresh_token: "rt-1", token_type: "bearer" })
  })

  it("tells a refused refresh token (invalid_grant) from an unavailable provider, and releases the claim either way", () => {
    const claimed = [entered, { type: "claim.won" }] as const
    const refusal = { error: "invalid_grant" }
    const revoked = after({}, ...claimed, { type: "grant.failed", error: refusal })
    expect([revoked.value, revoked.context.failure, revoked.context.error]).toEqual([{ refreshing: "releasing" }, "revoked", refusal])
    for (const error of [{ error: "server_error" }, new Error("network"), null, undefined, "invalid_grant"]) {
      const unavailable = after({}, ...claimed, { type: "grant.failed", error })
      expect([unavailable.value, unavailable.context.failure, unavailable.context.error], String(error)).toEqual([{ refreshing: "releasing" }, "unavailable", error])
    }
    expect(after({}, ...claimed, { type: "grant.failed", error: refusal }, { type: "release.done" }).value).toBe("failed")
  })

  it("ends persisted once the new tokens are stored, and not-persisted when they are not", () => {
    const granted = [entered, { type: "claim.won" }, { type: "grant.answered", tokens: { access_token: "at-2", token_type: "bearer" } }] as const
    expect(after({}, ...granted, { type: "persist.done" }).value).toBe("persisted")
    const lost = after({}, ...granted, { type: "persist.lost" })
    expect([lost.value, lost.context.failure, "error" in lost.context]).toEqual(["failed", "not-persisted", false])
    const down = new Error("down")
    const failed = after({}, ...granted, { type: "persist.failed", error: down })
    expect([failed.value, failed.context.failure, failed.context.error]).toEqual(["failed", "not-persisted", down])
  })
})
