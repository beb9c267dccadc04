import { emitEvent } from "../core/events.js"
import { databaseToken, sessionMetaClaim, type SessionMeta } from "../core/session-lifetime.js"
import { compensate } from "../core/adapter-calls.js"
import { sessionStoreOf, writeJwtSession } from "../core/session-cookie.js"
import { keptTokens, tokensClaim } from "../core/tokens-claim.js"
import { refreshEnabled } from "../core/refresh-options.js"
import type { AuthOptions } from "../core/options.js"
import type { Account, Cookie, Profile, User } from "../types.js"
import type { AdapterSession } from "../adapters.js"
import type { SecondFactorMethod, SignInTailEvent, SignInTailPolicy } from "../machines/sign-in-tail.js"
import { asError } from "../core/as-error.js"

/** Who signed in, how, and whether the user is new (unknown for credentials: no database is involved). */
export interface SignInOutcome {
  user: User
  account: Account
  profile?: Profile
  isNewUser?: boolean
  /** The second factor that passed, when one did: it goes in the auth context's `amr`. */
  secondFactor?: SecondFactorMethod
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
async function signInMeta(options: AuthOptions, { account }: SignInOutcome): Promise<SessionMeta> {
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
