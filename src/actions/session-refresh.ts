/**
 * The refresh step of a session read: every provider whose tokens the session keeps (the JWT's
 * `authflow:tokens` claim, or the user's account rows) and whose refresh is on gets its tokens
 * refreshed when due, all at once.
 *
 * @module
 */
import { isManagedAccount, refreshAccountTokens, refreshEnabled, refreshJwtTokens, refreshPolicy, type RefreshOutcome, type TokensClaim } from "./token-refresh.js"
import type { AuthOptions } from "../core/options.js"
import type { OAuthProviderConfig } from "../providers/oauth.js"
import type { ProviderTokens } from "../machines/token-refresh.js"
import type { Session } from "../types.js"
import { asError } from "../core/as-error.js"

/** What the refresh step of a session read gave: the claim to write back (JWT), and the providers whose refresh failed. */
export interface SessionRefresh {
  claim?: TokensClaim
  outcomes: RefreshOutcome[]
  failed: boolean
}

/** The session value a failed refresh sets, as the Auth.js refresh guide names it. */
export const refreshErrorValue = "RefreshTokenError"

function oauthProvider(options: AuthOptions, id: string): OAuthProviderConfig | undefined {
  const provider = options.providers.find((candidate) => candidate.id === id)
  return provider && (provider.type === "oauth" || provider.type === "oidc") ? provider : undefined
}

/** The tokens kept in the JWT: no ID token (it is large, and verified only at sign-in). */
function forClaim(tokens: ProviderTokens): ProviderTokens {
  const { id_token: _idToken, ...kept } = tokens
  return kept
}

/**
 * Refreshes the tokens of a session, JWT (`jwtClaim`, the tokens taken from the session token) or
 * database (`userId`, whose account rows hold them), for every provider whose refresh is on.
 *
 * @example
 * ```ts
 * const refresh = await refreshSessionTokens(options, { jwtClaim: takeTokensClaim(payload), sub: payload.sub })
 * if (refresh.failed) session.error = "RefreshTokenError"
 * ```
 */
export async function refreshSessionTokens(options: AuthOptions, session: { jwtClaim?: TokensClaim | undefined; sub?: string | undefined; userId?: string }): Promise<SessionRefresh> {
  const { config, logger } = options
  const policy = () => refreshPolicy(config)
  if (session.jwtClaim) {
    const claim: TokensClaim = { ...session.jwtClaim }
    const runs = Object.entries(claim).map(async ([id, entry]) => {
      const provider = oauthProvider(options, id)
      if (!provider || !refreshEnabled(config, provider)) return undefined
      let outcome: RefreshOutcome | undefined
      try {
        outcome = await refreshJwtTokens({ config, logger, provider, policy: policy(), ...(session.sub !== undefined && { userId: session.sub }) }, entry)
      } catch (error) {
        // A refresh that cannot run is a failed refresh, never a lost session.
        logger.error(asError(error))
        return { provider: id, failure: "unavailable", error } satisfies RefreshOutcome
      }
      if (!outcome) delete claim[id]
      else if ("tokens" in outcome) claim[id] = forClaim(outcome.tokens)
      return outcome
    })
    const outcomes = (await Promise.all(runs)).filter((outcome): outcome is RefreshOutcome => outcome !== undefined)
    return { claim, outcomes, failed: outcomes.some((outcome) => "failure" in outcome) }
  }
  const adapter = options.adapter
  const { userId } = session
  if (userId === undefined || !adapter?.listAccountsByUserId || !options.providers.some((provider) => refreshEnabled(config, provider))) {
    return { outcomes: [], failed: false }
  }
  let accounts: Awaited<ReturnType<NonNullable<typeof adapter.listAccountsByUserId>>>
  try {
    accounts = (await adapter.listAccountsByUserId(userId)).filter((account) => isManagedAccount(config, options.providers, account))
  } catch {
    // Logged as AdapterError by the adapter wrapper: the tokens cannot be vouched for, the session stands.
    return { outcomes: [], failed: true }
  }
  const outcomes = await Promise.all(
    accounts.map(async (account): Promise<RefreshOutcome | undefined> => {
      // A managed account's provider is one whose refresh is on.
      const provider = oauthProvider(options, account.provider)
      if (!provider) return undefined
      const subject = { config, logger, provider, policy: policy(), userId, providerAccountId: account.providerAccountId }
      try {
        return await refreshAccountTokens(subject, adapter, account)
      } catch (error) {
        logger.error(asError(error))
        return { provider: provider.id, failure: "unavailable", error }
      }
    }),
  )
  const found = outcomes.filter((outcome): outcome is RefreshOutcome => outcome !== undefined)
  return { outcomes: found, failed: found.some((outcome) => "failure" in outcome) }
}

/**
 * The session with `error: "RefreshTokenError"` when a refresh failed (unless the `session`
 * callback set an `error` of its own).
 *
 * @example
 * ```ts
 * response.body = sessionRefreshError(session, refresh)
 * ```
 */
export function sessionRefreshError(session: Session, refresh: SessionRefresh): Session {
  if (refresh.failed && session && typeof session === "object" && session.error === undefined) session.error = refreshErrorValue
  return session
}
