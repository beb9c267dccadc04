import { JWTSessionError } from "../core/errors.js"
import { emitEvent } from "../core/events.js"
import { refuseSessionUpdate } from "./rate-limit.js"
import { errorAnswer, noCacheHeaders, type ErrorAnswer } from "../core/answer.js"
import { decodeSessionCookie, sessionStoreOf, writeJwtSession } from "../core/session-cookie.js"
import { metaOfToken, sessionLife, sessionMetaClaim, type SessionMeta } from "../core/session-lifetime.js"
import { onFirstUse } from "../core/on-first-use.js"
import { takeTokensClaim, tokensClaim } from "../core/tokens-claim.js"
import type { AuthOptions } from "../core/options.js"
import { reissueWhenDue } from "../core/symbols.js"
import type { SessionStore } from "../core/cookies/session-store.js"
import type { Cookie, JWT, ResponseInternal, Session } from "../types.js"
import { asError } from "../core/as-error.js"
import { refreshesAny, revoked, sessionRefresh, withRefreshError, type SessionRead } from "./session-read.js"

// Shared and frozen: every session answer has the same headers.
const readHeaders: Readonly<Record<string, string>> = Object.freeze({ "Content-Type": "application/json", ...noCacheHeaders })
const updateHeaders: Readonly<Record<string, string>> = Object.freeze({ "Content-Type": "application/json" })

// The database read is loaded by the first session read of a `strategy: "database"` configuration.
const databaseSession = /* @__PURE__ */ onFirstUse(() => import("./session-database.js"))

/**
 * GET `/session` reads the session; POST `/session` (CSRF-checked by the caller) updates it with
 * the client's `data`, within the `session` rate limit (over it, the answer is the `RateLimited` error). A valid session is re-issued with a fresh expiry (sliding); an invalid one
 * reads as `null` and its cookies are cleared.
 *
 * @example
 * ```ts
 * const session = await (await fetch("/auth/session")).json() // Session | null
 * ```
 */
export async function sessionAction(
  options: AuthOptions,
  cookies: Cookie[],
  update?: { data: unknown },
): Promise<ResponseInternal<Session | null> | ErrorAnswer> {
  const limited = update && (await refuseSessionUpdate(options))
  if (limited) return errorAnswer(limited)
  const headers = update ? updateHeaders : readHeaders
  const store = sessionStoreOf(options)
  if (!store.value) return { status: 200, headers, body: null, cookies }
  const read = options.session.strategy === "jwt" ? await jwtSession(options, store, update) : await (await databaseSession()).databaseSession(options, store, update)
  return { status: 200, headers, body: read.body, cookies: [...cookies, ...read.cookies] }
}

async function jwtSession(options: AuthOptions, store: SessionStore, update: { data: unknown } | undefined): Promise<SessionRead> {
  // What is found before a failure is answered with it: the session read, the token issued again (then cleared).
  let body: Session | null = null
  let written: Cookie[] = []
  try {
    const { callbacks } = options
    const payload = await decodeSessionCookie(options, store)
    if (!payload) throw new TypeError("The session token could not be decoded")
    // Before the provider tokens are taken out of it: what an unchanged token would be written as.
    const claimsBefore = options.config.reissueWhenDue === reissueWhenDue ? claimsOf(payload) : undefined
    const now = Date.now()
    const recorded = metaOfToken(payload)
    const life = sessionLife(options.session, recorded, now, typeof payload.exp === "number" ? new Date(payload.exp * 1000) : undefined)
    if (!life.alive || (await revoked(options, payload.sub, recorded))) return { body, cookies: store.clear() }
    // The provider tokens ride outside the callbacks: they see the token Auth.js would give them.
    const claim = takeTokensClaim(payload)
    const refresh = claim && refreshesAny(options) ? await (await sessionRefresh()).refreshSessionTokens(options, { jwtClaim: claim, sub: payload.sub }) : undefined
    const token = await callbacks.jwt(update ? { token: payload, trigger: "update", session: update.data } : { token: payload })
    if (token === null) return { body, cookies: store.clear() }
    // A session signed in before its sign-in was recorded starts being counted now.
    if (options.session.recordsSignIn && options.session.absoluteMaxAge === undefined && !recorded) {
      token[sessionMetaClaim] = { signedInAt: now } satisfies SessionMeta
    } else if (recorded) token[sessionMetaClaim] = recorded
    // Without a refresh, the tokens go back as they came.
    const keptClaim = refresh ? refresh.claim : claim
    const stored = keptClaim ? { ...token, [tokensClaim]: keptClaim } : token
    const reissue = claimsBefore === undefined || update !== undefined || dueForReissue(payload, options.session.updateAge, now) || claimsOf(stored) !== claimsBefore
    // Not re-issued: the cookie keeps the expiry it has.
    const expires = reissue || typeof payload.exp !== "number" ? life.expires : new Date(Math.min(life.expires.valueOf(), payload.exp * 1000))
    const defaultSession: Session = {
      user: { name: token.name, email: token.email, image: token.picture },
      expires: expires.toISOString(),
    }
    const session = await withRefreshError((await callbacks.session({ session: defaultSession, token } as Parameters<typeof callbacks.session>[0])) as Session, refresh)
    body = session
    const capped = options.session.absoluteMaxAge !== undefined
    if (reissue) written = await writeJwtSession(options, store, stored, expires, capped ? Math.max(1, Math.ceil((expires.valueOf() - now) / 1000)) : undefined)
    await emitEvent(options.config, options.logger, "session", { session, token })
    return { body, cookies: written }
  } catch (error) {
    options.logger.error(new JWTSessionError(asError(error)))
    return { body, cookies: [...written, ...store.clear()] }
  }
}

/** A token's claims as written, in name order, less those every encoding renews (`iat`, `exp`, `jti`). */
function claimsOf(token: JWT): string {
  const names = Object.keys(token).filter((name) => name !== "iat" && name !== "exp" && name !== "jti" && token[name] !== undefined)
  return JSON.stringify(names.sort().map((name) => [name, token[name]]))
}

/** Whether the token was issued `updateAge` seconds ago or more (or does not say when). */
function dueForReissue(token: JWT, updateAge: number, now: number): boolean {
  return typeof token.iat !== "number" || now - token.iat * 1000 >= updateAge * 1000
}
