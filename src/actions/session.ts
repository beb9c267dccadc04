import { JWTSessionError, SessionTokenError } from "../core/errors.js"
import { emitEvent } from "../core/events.js"
import { noCacheHeaders } from "../core/response.js"
import { sessionStoreOf, writeJwtSession } from "../core/session-cookie.js"
import type { AuthOptions } from "../core/options.js"
import type { Cookie, JWT, ResponseInternal, Session } from "../types.js"

// Shared and frozen: every session answer has the same headers.
const readHeaders: Readonly<Record<string, string>> = Object.freeze({ "Content-Type": "application/json", ...noCacheHeaders })
const updateHeaders: Readonly<Record<string, string>> = Object.freeze({ "Content-Type": "application/json" })

/**
 * GET `/session` reads the session; POST `/session` (CSRF-checked by the caller) updates it with
 * the client's `data`. A valid session is re-issued with a fresh expiry (sliding); an invalid one
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
): Promise<ResponseInternal<Session | null>> {
  const response: ResponseInternal<Session | null> = {
    status: 200,
    headers: update ? updateHeaders : readHeaders,
    body: null,
    cookies,
  }
  const store = sessionStoreOf(options)
  if (!store.value) return response
  if (options.session.strategy === "jwt") {
    try {
      const { jwt, callbacks } = options
      const payload = await jwt.decode({ token: store.value, secret: jwt.secret, salt: options.cookies.sessionToken.name })
      if (!payload) throw new TypeError("The session token could not be decoded")
      const token = await callbacks.jwt({
        token: payload,
        ...(update && { trigger: "update" as const, session: update.data }),
      })
      if (token === null) {
        cookies.push(...store.clear())
        return response
      }
      const expires = new Date(Date.now() + options.session.maxAge * 1000)
      const defaultSession: Session = {
        user: { name: token.name, email: token.email, image: token.picture },
        expires: expires.toISOString(),
      }
      const session = (await callbacks.session({ session: defaultSession, token } as Parameters<typeof callbacks.session>[0])) as Session
      response.body = session
      cookies.push(...(await writeJwtSession(options, store, token, expires)))
      await emitEvent(options.config, options.logger, "session", { session, token })
    } catch (error) {
      options.logger.error(new JWTSessionError(asError(error)))
      cookies.push(...store.clear())
    }
    return response
  }
  return databaseSession(options, cookies, response, store.value, update)
}

async function databaseSession(
  options: AuthOptions,
  cookies: Cookie[],
  response: ResponseInternal<Session | null>,
  sessionToken: string,
  update: { data: unknown } | undefined,
): Promise<ResponseInternal<Session | null>> {
  const adapter = options.adapter!
  const store = sessionStoreOf(options)
  try {
    const found = await adapter.getSessionAndUser!(sessionToken)
    if (found && found.session.expires.valueOf() < Date.now()) {
      await adapter.deleteSession!(sessionToken)
    }
    if (!found || found.session.expires.valueOf() < Date.now()) {
      cookies.push(...store.clear())
      return response
    }
    const { session, user } = found
    const { maxAge, updateAge } = options.session
    const now = Date.now()
    const newExpires = new Date(now + maxAge * 1000)
    if (session.expires.valueOf() - maxAge * 1000 + updateAge * 1000 <= now) {
      await adapter.updateSession!({ sessionToken, expires: newExpires })
    }
    const body = (await options.callbacks.session({
      // The row goes to the callback as it is (a Date `expires`), as Auth.js passes it.
      session: { ...session, user } as unknown as Session,
      user,
      token: undefined as unknown as JWT,
      ...(update && { newSession: update.data, trigger: "update" as const }),
    })) as Session
    response.body = body
    cookies.push(...store.write(sessionToken, { expires: newExpires }))
    await emitEvent(options.config, options.logger, "session", { session: body })
  } catch (error) {
    options.logger.error(new SessionTokenError(asError(error)))
  }
  return response
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error))
}
