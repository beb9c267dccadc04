import { decodeJwt } from "jose"
import { emitEvent } from "./events.js"
import { databaseToken, sessionMetaClaim, type SessionMeta } from "./session-lifetime.js"
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

async function announce(options: AuthOptions, outcome: SignInOutcome): Promise<void> {
  const { user, account, profile, isNewUser } = outcome
  await emitEvent(options.config, options.logger, "signIn", { user, account, ...(profile && { profile }), ...(isNewUser !== undefined && { isNewUser }) })
}

/**
 * Ends a successful sign-in with database sessions: writes the session row and its token cookie,
 * then fires `events.signIn`.
 *
 * @example
 * ```ts
 * cookies.push(...(await createDatabaseSession(options, { user, account, profile, isNewUser })))
 * ```
 */
export async function createDatabaseSession(options: AuthOptions, outcome: SignInOutcome): Promise<Cookie[]> {
  const generated = options.session.generateSessionToken()
  const meta = options.session.recordsSignIn ? signInMeta(options, outcome) : undefined
  const session = await options.adapter!.createSession!({
    sessionToken: meta ? databaseToken(generated, meta) : generated,
    userId: outcome.user.id!,
    expires: new Date(Date.now() + options.session.maxAge * 1000),
  })
  const cookies = sessionStoreOf(options).write(session.sessionToken, { expires: session.expires })
  await announce(options, outcome)
  return cookies
}

/**
 * Ends a successful sign-in with JWT sessions: runs the `jwt` callback (`trigger` signIn, or
 * signUp for a created user), writes the JWT, then fires `events.signIn`.
 *
 * @example
 * ```ts
 * cookies.push(...(await encodeSessionToken(options, { user, account, profile, isNewUser })))
 * ```
 */
export async function encodeSessionToken(options: AuthOptions, outcome: SignInOutcome): Promise<Cookie[]> {
  const { user, account, profile, isNewUser } = outcome
  const token = await options.callbacks.jwt({
    token: { name: user.name, email: user.email, picture: user.image, sub: user.id },
    user,
    account,
    ...(profile && { profile }),
    isNewUser: isNewUser ?? false,
    trigger: isNewUser ? "signUp" : "signIn",
  })
  if (token && options.session.recordsSignIn) token[sessionMetaClaim] = signInMeta(options, outcome)
  const cookies = await writeJwtSession(options, sessionStoreOf(options), token)
  await announce(options, outcome)
  return cookies
}

/**
 * What the sign-in tail's guards read of the configuration: the session strategy and whether
 * `pages.newUser` is set.
 *
 * @example
 * ```ts
 * await runFlow(credentialsSignInMachine, effects, { input: { policy: signInTailPolicy(options) } })
 * ```
 */
export function signInTailPolicy(options: AuthOptions): { databaseSessions: boolean; newUserPage: boolean } {
  return { databaseSessions: options.session.strategy === "database", newUserPage: Boolean(options.pages.newUser) }
}

/**
 * Where a created user goes when `pages.newUser` is set: that page, with the callback URL.
 *
 * @example
 * ```ts
 * return { redirect: newUserRedirect(options, callbackUrl), cookies }
 * ```
 */
export function newUserRedirect(options: AuthOptions, callbackUrl: string): string {
  const newUserPage = options.pages.newUser!
  return `${newUserPage}${newUserPage.includes("?") ? "&" : "?"}${new URLSearchParams({ callbackUrl })}`
}

/**
 * What the session records of this sign-in: when, through which provider, and, for a provider
 * with back-channel or RP-initiated logout, the ID token's `sid` and the ID token itself.
 */
function signInMeta(options: AuthOptions, { account }: SignInOutcome): SessionMeta {
  const meta: SessionMeta = { signedInAt: Date.now(), provider: account.provider }
  const provider = options.providers.find((candidate) => candidate.id === account.provider)
  if (provider?.type !== "oidc" || typeof account.id_token !== "string") return meta
  if (provider.endSessionAtProvider) meta.idToken = account.id_token
  if (provider.backchannelLogout) {
    meta.subject = account.providerAccountId
    try {
      const { sid } = decodeJwt(account.id_token)
      if (typeof sid === "string") meta.sid = sid
    } catch {
      // an ID token that does not decode has no sid to record
    }
  }
  return meta
}
