/**
 * Who is signed in on this request, for the flows that start from a session rather than a first
 * factor (`/factors`, `/step-up`): the JWT's subject, email and name, or the database session's user.
 *
 * @module
 */
import { decodeSessionCookie, sessionStoreOf } from "../../core/session-cookie.js"
import { revocationKeys, revocationStoreOf } from "../../core/revocation-store.js"
import { metaOfToken } from "../../core/session-lifetime.js"
import type { AuthOptions } from "../../core/options.js"
import type { User } from "../../types.js"

/**
 * The signed-in user of this request (with an `id`), or `undefined` when nobody is: no session
 * cookie, one that does not open, a JWT ended by a revocation (a back-channel logout, a password
 * change), or an expired session row.
 *
 * @example
 * ```ts
 * const user = await sessionUser(options) // { id: "u1", email: "ada@example.test", name: "Ada" }
 * ```
 */
export async function sessionUser(options: AuthOptions): Promise<(User & { id: string }) | undefined> {
  const store = sessionStoreOf(options)
  if (!store.value) return undefined
  if (options.session.strategy === "jwt") {
    const token = await decodeSessionCookie(options, store)
    if (typeof token?.sub !== "string" || token.sub === "") return undefined
    if (options.session.revocable) {
      const meta = metaOfToken(token)
      const at = await revocationStoreOf(options.config).revokedAt(revocationKeys(token.sub, meta))
      if (at !== undefined && (!meta || meta.signedInAt < at)) return undefined
    }
    return { id: token.sub, ...(typeof token.email === "string" && { email: token.email }), ...(typeof token.name === "string" && { name: token.name }) }
  }
  const found = await options.adapter!.getSessionAndUser!(store.value)
  return found && found.session.expires.valueOf() > Date.now() && found.user.id ? { ...found.user, id: found.user.id } : undefined
}
