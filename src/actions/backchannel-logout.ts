/**
 * POST `{basePath}/backchannel-logout/<provider>`: the OpenID Connect Back-Channel Logout receiver.
 * The provider posts a logout token (a signed JWT) when a user's session there ends; a valid one
 * ends the user's sessions here that were signed in before it.
 *
 * @module
 */
import { jwtVerify } from "jose"
import { authorizationServer } from "../core/oauth/discovery.js"
import { providerKeys, providerSignatureAlgorithms, refetchedProviderKeys, type ProviderKeys } from "../core/oauth/jwks.js"
import { LogoutTokenRefused, type LogoutTokenRefusal } from "../core/errors.js"
import { replayStoreOf } from "../core/replay-store.js"
import { revocationStoreOf } from "../core/revocation-store.js"
import { backchannelLogoutMachine, type LogoutTokenClaims, type LogoutTokenVerifyFailure } from "../machines/backchannel-logout.js"
import { runFlow, type FlowEffects } from "../machines/run-flow.js"
import { outcomeOf, type FlowOutcomes } from "./flow-outcomes.js"
import type { AuthOptions } from "../core/options.js"
import type { OAuthProviderConfig } from "../providers/oauth.js"
import type { Cookie, ResponseInternal } from "../types.js"

export { backchannelLogoutEvent } from "../machines/backchannel-logout.js"

/** How old a logout token may be, by its `iat`. */
const maxTokenAge = 10 * 60

/** What jose said of a token it refused: its error's `code` and `claim`, and its message. */
function verifyFailure(error: unknown): LogoutTokenVerifyFailure {
  const { code, claim } = (typeof error === "object" && error !== null ? error : {}) as { code?: unknown; claim?: unknown }
  return {
    ...(typeof code === "string" && { code }),
    ...(typeof claim === "string" && { claim }),
    message: error instanceof Error ? error.message : String(error),
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * Receives a back-channel logout by running the back-channel logout machine
 * (`src/machines/backchannel-logout.ts`, which decides every refusal): validates the logout token
 * (signature by the issuer's JWKS, `iss`, `aud`, `iat` at most 10 minutes old, `exp` when present,
 * the back-channel `events` member, `sub` or `sid`, no `nonce`, a `jti` seen for the first time),
 * then ends the sessions it names, through the revocation store: those signed in with that subject
 * at the provider (`sub`), with that provider session (`sid`), and, with an adapter, every session
 * of the linked user (whose database rows are deleted at once when the adapter has
 * `deleteUserSessions`). JWT sessions end on their next read. Answers 200, or 400 with
 * `{ error: "invalid_request", error_description }` (the {@link LogoutTokenRefusal}, also logged as
 * a {@link LogoutTokenRefused}), never cached.
 *
 * @example
 * ```ts
 * // POST /auth/backchannel-logout/keycloak  logout_token=eyJ…  → 200
 * ```
 * @see https://openid.net/specs/openid-connect-backchannel-1_0.html#Validation
 */
export async function backchannelLogout(options: AuthOptions, cookies: Cookie[]): Promise<ResponseInternal> {
  const headers = { "Content-Type": "application/json", "Cache-Control": "no-store" }
  // The machine reaches the effects past `readRequest` only for an OpenID Provider that accepts back-channel logouts.
  const provider = options.provider as OAuthProviderConfig
  const logoutToken = options.request.body?.logout_token as string
  const store = revocationStoreOf(options.config)
  let revokedAt: { at: number; keepUntil: number } | undefined
  const revoke = async (key: string, claims: LogoutTokenClaims) => {
    if (revokedAt === undefined) {
      const now = Date.now()
      // Sessions signed in before the end of the second the token was issued in: a token received
      // again (on an instance whose replay store did not know its jti) ends no session made since.
      revokedAt = { at: Math.min(now, ((claims.iat as number) + 1) * 1000), keepUntil: now + (options.session.absoluteMaxAge ?? options.session.maxAge) * 1000 }
    }
    try {
      await store.revoke(key, revokedAt.at, revokedAt.keepUntil)
      return { type: "revoked" } as const
    } catch (error) {
      return { type: "revoke.failed", error } as const
    }
  }
  // The key set the last verification used: a fresh one is one fetched after it.
  let used: ProviderKeys | undefined
  const verify = async (issuer: string, jwksUri: string, fresh: boolean) => {
    try {
      used = await (fresh ? refetchedProviderKeys(provider, jwksUri, used?.fetchedAt ?? 0) : providerKeys(provider, jwksUri))
    } catch (error) {
      return { type: "verify.failed", ...verifyFailure(error) } as const
    }
    // How old the keys are: the machine decides whether a token with an unknown key may have them fetched again.
    const keysAge = Date.now() - used.fetchedAt
    try {
      const { payload } = await jwtVerify(logoutToken, used.keys, {
        issuer,
        audience: provider.clientId ?? "",
        algorithms: providerSignatureAlgorithms,
        maxTokenAge,
        requiredClaims: ["iat"],
        clockTolerance: 60,
      })
      return { type: "token.verified", claims: payload } as const
    } catch (error) {
      return { type: "verify.failed", ...verifyFailure(error), keysAge } as const
    }
  }
  const effects: FlowEffects<typeof backchannelLogoutMachine> = {
    readRequest: () => {
      const token: unknown = options.request.body?.logout_token
      const read = options.provider as { type?: string; backchannelLogout?: unknown } | undefined
      return { type: "request.read", providerType: read?.type, backchannelLogout: Boolean(read?.backchannelLogout), hasToken: typeof token === "string" && token !== "" }
    },
    discoverIssuer: async () => {
      try {
        const server = await authorizationServer(provider)
        return { type: "issuer.discovered", issuer: server.issuer, ...(server.jwks_uri && { jwksUri: server.jwks_uri }) }
      } catch (error) {
        return { type: "discovery.failed", error }
      }
    },
    verifyToken: ({ issuer, jwksUri }) => verify(issuer!, jwksUri!, false),
    verifyWithFreshKeys: ({ issuer, jwksUri }) => verify(issuer!, jwksUri!, true),
    markJti: async ({ claims }) => {
      try {
        const fresh = await replayStoreOf(options.config, options.logger).markUsed(`backchannel-logout:${provider.id}:${claims!.jti as string}`, Date.now() + 2 * maxTokenAge * 1000)
        return { type: fresh ? "jti.fresh" : "jti.seen" }
      } catch (error) {
        return { type: "jti.failed", error }
      }
    },
    revokeSession: ({ claims }) => revoke(`sid:${provider.id}:${claims!.sid as string}`, claims!),
    revokeSubject: ({ claims }) => revoke(`sub:${provider.id}:${claims!.sub as string}`, claims!),
    lookUpUser: async ({ claims }) => {
      try {
        // Database sessions do not record the subject: the linked user's sessions end too.
        const user = await options.adapter!.getUserByAccount!({ provider: provider.id, providerAccountId: claims!.sub as string })
        return user ? { type: "user.found", userId: user.id } : { type: "user.none" }
      } catch (error) {
        return { type: "lookup.failed", error }
      }
    },
    revokeUser: ({ userId, claims }) => revoke(`user:${userId!}`, claims!),
    deleteSessions: async ({ userId }) => {
      try {
        await options.adapter!.deleteUserSessions!(userId!)
        return { type: "sessions.deleted" }
      } catch (error) {
        return { type: "delete.failed", error }
      }
    },
  }
  const refused = (reason: LogoutTokenRefusal, detail?: string): ResponseInternal => {
    options.logger.error(new LogoutTokenRefused(reason, detail))
    return { status: 400, headers, body: { error: "invalid_request", error_description: reason }, cookies }
  }
  const outcomes: FlowOutcomes<typeof backchannelLogoutMachine, ResponseInternal> = {
    loggedOut: () => ({ status: 200, headers, body: {}, cookies }),
    providerNotAccepting: () => refused("provider", "the provider does not accept back-channel logouts"),
    tokenMissing: () => refused("missing"),
    discoveryFailed: ({ error }) => refused("provider", messageOf(error)),
    jwksMissing: () => refused("provider", "the issuer publishes no jwks_uri"),
    signatureInvalid: ({ detail }) => refused("signature", detail),
    issuerMismatch: () => refused("issuer"),
    audienceMismatch: () => refused("audience"),
    tokenExpired: () => refused("expired"),
    issuedAtInvalid: ({ detail }) => refused("issued-at", detail),
    eventMissing: () => refused("events"),
    nonceForbidden: () => refused("nonce"),
    subjectMissing: () => refused("subject"),
    jtiMissing: () => refused("jti"),
    tokenReplayed: () => refused("replayed"),
    logoutFailed: ({ error }) => refused("provider", messageOf(error)),
  }
  const { adapter } = options
  const policy = {
    linksUsers: Boolean(adapter?.getUserByAccount),
    databaseSessions: options.session.strategy === "database",
    deletesUserSessions: Boolean(adapter?.deleteUserSessions),
  }
  let flow
  try {
    flow = await runFlow(backchannelLogoutMachine, effects, { inspect: options.config.inspect, input: { policy } })
  } catch (error) {
    // The effects report their failures as events; anything else is still answered as a refusal, never a 500.
    return refused("provider", messageOf(error))
  }
  return outcomeOf(flow, outcomes)
}
