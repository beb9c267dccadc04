/**
 * The sign-out's steps beyond clearing a JWT cookie: deleting a database session's row, finding a
 * database session's ID token in its user's accounts, and finding the provider's end-session
 * endpoint. Loaded by the first sign-out that takes one of them: an app with JWT sessions and no
 * provider that ends its sessions (a credentials-only app) never does.
 *
 * @module
 */
import { emitEvent } from "../core/events.js"
import { onFirstUse } from "../core/on-first-use.js"
import { metaOfDatabaseToken } from "../core/session-lifetime.js"
import type { SessionStore } from "../core/cookies/session-store.js"
import type { AuthOptions } from "../core/options.js"
import type { SignOutContext, SignOutEvent } from "../machines/sign-out.js"

// The provider's discovery (and the OAuth client under it) is loaded by the first sign-out that
// ends a session at its provider.
const discovery = /* @__PURE__ */ onFirstUse(() => import("../core/oauth/discovery.js"))

/**
 * The `deleteSession` effect: deletes the database session's row, fires `events.signOut`, and
 * reports the provider and the user the row named.
 *
 * @example
 * ```ts
 * await deleteSession(options, store) // { type: "session.deleted", provider: "corp", userId: "u1" }
 * ```
 */
export async function deleteSession(options: AuthOptions, store: SessionStore): Promise<SignOutEvent> {
  try {
    const session = await options.adapter!.deleteSession!(store.value!)
    await emitEvent(options.config, options.logger, "signOut", { session })
    const userId = session && typeof session.userId === "string" ? session.userId : undefined
    return { type: "session.deleted", provider: metaOfDatabaseToken(store.value!)?.provider, userId }
  } catch (error) {
    return { type: "delete.failed", error }
  }
}

/**
 * The `findIdToken` effect: the ID tokens the ended session's user holds at its provider, from
 * the user's account rows.
 *
 * @example
 * ```ts
 * await findIdToken(options, { ended: { provider: "corp", userId: "u1" } }) // { type: "accounts.listed", idTokens: ["eyJ…"] }
 * ```
 */
export async function findIdToken(options: AuthOptions, { ended }: Pick<SignOutContext, "ended">): Promise<SignOutEvent> {
  try {
    const accounts = await options.adapter!.listAccountsByUserId!(ended!.userId!)
    const idTokens = accounts.flatMap((account) => (account.provider === ended!.provider && typeof account.id_token === "string" ? [account.id_token] : []))
    return { type: "accounts.listed", idTokens }
  } catch (error) {
    return { type: "accounts.failed", error }
  }
}

/**
 * The `findEndSession` effect: the provider's end-session URL from its metadata, with the ID
 * token as `id_token_hint`, the client ID and the callback URL to come back to.
 *
 * @example
 * ```ts
 * await findEndSession(options, { ended: { provider: "corp", idToken: "eyJ…" } }) // { type: "endSession.found", url: "https://idp.test/logout?…" }
 * ```
 */
export async function findEndSession(options: AuthOptions, { ended }: Pick<SignOutContext, "ended">): Promise<SignOutEvent> {
  const provider = options.providers.find((candidate) => candidate.id === ended?.provider)
  try {
    if (provider?.type !== "oidc" && provider?.type !== "oauth") return { type: "endSession.missing" }
    const server = await (await discovery()).authorizationServer(provider)
    if (typeof server.end_session_endpoint !== "string") return { type: "endSession.missing" }
    const url = new URL(server.end_session_endpoint)
    if (ended?.idToken) url.searchParams.set("id_token_hint", ended.idToken)
    if (provider.clientId) url.searchParams.set("client_id", provider.clientId)
    url.searchParams.set("post_logout_redirect_uri", options.callbackUrl)
    return { type: "endSession.found", url: url.href }
  } catch (error) {
    return { type: "discovery.failed", error }
  }
}
