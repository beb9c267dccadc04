/**
 * The sign-in tail's writes that only database sessions make: the session row and its cookie
 * (`createSession`), and the stored provider tokens a sign-in renews (`renewStoredTokens`). Loaded
 * by the first sign-in that writes a database session: an app with JWT sessions (a credentials
 * app without an adapter) never loads it.
 *
 * @module
 */
import { databaseToken } from "../core/session-lifetime.js"
import { compensate } from "../core/adapter-calls.js"
import { sessionStoreOf } from "../core/session-cookie.js"
import { keptTokens } from "../core/tokens-claim.js"
import { asError } from "../core/as-error.js"
import { announce, signInMeta, type SignInOutcome } from "./issue-session.js"
import type { AuthOptions } from "../core/options.js"
import type { Account, Cookie } from "../types.js"
import type { AdapterSession } from "../adapters.js"
import type { SignInTailEvent } from "../machines/sign-in-tail.js"

/**
 * Ends a successful sign-in with database sessions: writes the session row and its token cookie,
 * then fires `events.signIn`.
 *
 * @example
 * ```ts
 * const cookies = await createDatabaseSession(options, { user, account, profile, isNewUser })
 * ```
 */
export async function createDatabaseSession(options: AuthOptions, outcome: SignInOutcome): Promise<Cookie[]> {
  const adapter = options.adapter!
  const generated = options.session.generateSessionToken()
  const meta = options.session.recordsSignIn ? await signInMeta(options, outcome) : undefined
  const sessionToken = meta ? databaseToken(generated, meta) : generated
  let session: AdapterSession
  try {
    session = await adapter.createSession!({ sessionToken, userId: outcome.user.id!, expires: new Date(Date.now() + options.session.maxAge * 1000) })
  } catch (error) {
    // The write may have landed though its answer did not (a timeout, a malformed answer): no
    // session row may outlive a sign-in that failed. A failing delete is logged by the adapter wrapper.
    await compensate(() => adapter.deleteSession?.(sessionToken))
    throw error
  }
  const cookies = sessionStoreOf(options).write(session.sessionToken, { expires: session.expires })
  await announce(options, outcome)
  return cookies
}

/**
 * Whether the account signed in with brought provider tokens that can be refreshed (a refresh
 * token and an expiry): what `session.created` reports for the `renewsStoredTokens` guard.
 *
 * @example
 * ```ts
 * broughtProviderTokens({ provider: "github", refresh_token: "r", expires_at: 1700000000, … }) // true
 * ```
 */
export function broughtProviderTokens(account: Account): boolean {
  return keptTokens(account) !== undefined
}

/**
 * The `renewStoredTokens` effect: a sign-in brings fresh provider tokens; an account linked before
 * keeps its old ones in the row (the sign-in writes no account). The fresh ones replace them,
 * compare-and-set on the stored refresh token like a refresh, so a revoked refresh token does not
 * outlive the sign-in that replaced it. A row that holds these tokens already (the sign-in just
 * linked it) or none is left as it is. A failure is logged; the machine signs the user in anyway.
 *
 * @example
 * ```ts
 * await renewStoredTokens(options, account) // { type: "storedTokens.renewed", replaced: true }
 * ```
 */
export async function renewStoredTokens(options: AuthOptions, account: Account): Promise<Extract<SignInTailEvent, { type: "storedTokens.renewed" | "storedTokens.failed" }>> {
  try {
    const adapter = options.adapter
    if (!adapter?.getAccount || !adapter.updateAccountTokens) throw new TypeError("Renewing stored provider tokens needs the adapter methods getAccount and updateAccountTokens")
    const fresh = keptTokens(account)
    const row = await adapter.getAccount(account.providerAccountId, account.provider)
    if (!fresh || typeof row?.refresh_token !== "string" || row.refresh_token === fresh.refresh_token) return { type: "storedTokens.renewed", replaced: false }
    const tokens = { ...fresh, ...(typeof account.id_token === "string" && { id_token: account.id_token }) } as Parameters<typeof adapter.updateAccountTokens>[2]
    const replaced = await adapter.updateAccountTokens({ provider: account.provider, providerAccountId: account.providerAccountId }, row.refresh_token, tokens)
    return { type: "storedTokens.renewed", replaced }
  } catch (error) {
    options.logger.error(asError(error))
    return { type: "storedTokens.failed", error }
  }
}
