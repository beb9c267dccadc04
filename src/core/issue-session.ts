import { emitEvent } from "./events.js"
import { sessionStoreOf, writeJwtSession } from "./session-cookie.js"
import type { AuthOptions } from "./options.js"
import type { Account, Cookie, Profile, User } from "../types.js"

/** Who signed in, how, and whether the user is new (unknown for credentials: no database is involved). */
export interface SignInOutcome {
  user: User
  account: Account
  profile?: Profile
  isNewUser?: boolean
}

/**
 * Ends a successful sign-in: writes the session (a database row and its token, or the JWT after
 * the `jwt` callback with `trigger` signIn or signUp), then fires `events.signIn`.
 *
 * @example
 * ```ts
 * cookies.push(...(await issueSession(options, { user, account, profile, isNewUser })))
 * ```
 */
export async function issueSession(options: AuthOptions, outcome: SignInOutcome): Promise<Cookie[]> {
  const { user, account, profile, isNewUser } = outcome
  const store = sessionStoreOf(options)
  let cookies: Cookie[]
  if (options.session.strategy === "database") {
    const session = await options.adapter!.createSession!({
      sessionToken: options.session.generateSessionToken(),
      userId: user.id!,
      expires: new Date(Date.now() + options.session.maxAge * 1000),
    })
    cookies = store.write(session.sessionToken, { expires: session.expires })
  } else {
    const token = await options.callbacks.jwt({
      token: { name: user.name, email: user.email, picture: user.image, sub: user.id },
      user,
      account,
      ...(profile && { profile }),
      isNewUser: isNewUser ?? false,
      trigger: isNewUser ? "signUp" : "signIn",
    })
    cookies = await writeJwtSession(options, store, token)
  }
  await emitEvent(options.config, options.logger, "signIn", { user, account, ...(profile && { profile }), ...(isNewUser !== undefined && { isNewUser }) })
  return cookies
}

/**
 * Where a completed sign-in goes: `pages.newUser` (with the callback URL) for a user it created,
 * else the callback URL.
 *
 * @example
 * ```ts
 * return { redirect: afterSignIn(options, isNewUser, callbackUrl), cookies }
 * ```
 */
export function afterSignIn(options: AuthOptions, isNewUser: boolean | undefined, callbackUrl: string): string {
  const newUserPage = options.pages.newUser
  if (!isNewUser || !newUserPage) return callbackUrl
  return `${newUserPage}${newUserPage.includes("?") ? "&" : "?"}${new URLSearchParams({ callbackUrl })}`
}
