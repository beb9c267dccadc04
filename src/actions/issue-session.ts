import { emitEvent } from "../core/events.js"
import { sessionMetaClaim, type SessionMeta } from "../core/session-lifetime.js"
import { sessionStoreOf, writeJwtSession } from "../core/session-cookie.js"
import { keptTokens, tokensClaim } from "../core/tokens-claim.js"
import { refreshEnabled } from "../core/refresh-options.js"
import type { AuthOptions } from "../core/options.js"
import type { Account, Cookie, Profile, User } from "../types.js"
import type { SecondFactorMethod, SignInTailPolicy } from "../machines/sign-in-tail.js"

/** Who signed in, how, and whether the user is new (unknown for credentials: no database is involved). */
export interface SignInOutcome {
  user: User
  account: Account
  profile?: Profile
  isNewUser?: boolean
  /** The second factor that passed, when one did: it goes in the auth context's `amr`. */
  secondFactor?: SecondFactorMethod
}

/** Fires `events.signIn` for a sign-in whose session is written. */
export async function announce(options: AuthOptions, outcome: SignInOutcome): Promise<void> {
  const { user, account, profile, isNewUser } = outcome
  await emitEvent(options.config, options.logger, "signIn", { user, account, ...(profile && { profile }), ...(isNewUser !== undefined && { isNewUser }) })
}

/**
 * Ends a successful sign-in with JWT sessions: runs the `jwt` callback (`trigger` signIn, or
 * signUp for a created user), writes the JWT, then fires `events.signIn`.
 *
 * @example
 * ```ts
 * const cookies = await encodeSessionToken(options, { user, account, profile, isNewUser })
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
  if (token && options.session.recordsSignIn) token[sessionMetaClaim] = await signInMeta(options, outcome)
  const cookies = await writeJwtSession(options, sessionStoreOf(options), withProviderTokens(options, token, account))
  await announce(options, outcome)
  return cookies
}

/** The session JWT with the account's tokens in the `authflow:tokens` claim, when its provider's tokens are refreshed. */
function withProviderTokens<T extends Record<string, unknown> | null>(options: AuthOptions, token: T, account: Account): T {
  if (token === null) return token
  const provider = options.providers.find((candidate) => candidate.id === account.provider)
  const kept = provider && refreshEnabled(options.config, provider) ? keptTokens(account) : undefined
  return kept ? { ...token, [tokensClaim]: { [account.provider]: kept } } : token
}

/**
 * What the sign-in tail's guards read of the configuration: the session strategy, whether
 * `pages.newUser` is set, and (given the provider signed in with) whether its stored tokens are
 * renewed by a sign-in.
 *
 * @example
 * ```ts
 * await runFlow(credentialsSignInMachine, effects, { input: { policy: signInTailPolicy(options) } })
 * const policy = signInTailPolicy(options, provider) // { databaseSessions: true, newUserPage: false, renewsStoredTokens: true }
 * ```
 */
export function signInTailPolicy(options: AuthOptions, provider?: { id: string; type: string; refresh?: boolean }): SignInTailPolicy {
  const databaseSessions = options.session.strategy === "database"
  const policy: SignInTailPolicy = { databaseSessions, newUserPage: Boolean(options.pages.newUser) }
  if (databaseSessions && provider && refreshEnabled(options.config, provider)) policy.renewsStoredTokens = true
  if (options.secondFactor) {
    policy.secondFactor = true
    policy.passkeyCountsAsTwoFactors = options.secondFactor.passkeyCountsAsTwoFactors
  }
  return policy
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
 * with back-channel or RP-initiated logout, the ID token's `sid` and the ID token itself. The JWT
 * decoder is loaded only for such a provider: every other sign-in (credentials, email, passkeys)
 * goes through here too.
 */
export async function signInMeta(options: AuthOptions, { account }: SignInOutcome): Promise<SessionMeta> {
  const meta: SessionMeta = { signedInAt: Date.now(), provider: account.provider }
  const provider = options.providers.find((candidate) => candidate.id === account.provider)
  if (provider?.type !== "oidc" || typeof account.id_token !== "string") return meta
  if (provider.endSessionAtProvider) meta.idToken = account.id_token
  if (provider.backchannelLogout) {
    meta.subject = account.providerAccountId
    const { decodeJwt } = await import("jose/jwt/decode")
    try {
      const { sid } = decodeJwt(account.id_token)
      if (typeof sid === "string") meta.sid = sid
    } catch {
      // an ID token that does not decode has no sid to record
    }
  }
  return meta
}
