import { assign, setup } from "xstate"
import { mayRefetchKeys } from "../core/oauth/jwks.js"
import type { FlowMeta } from "./run-flow.js"
import { flowMachine } from "./flow-machine.js"

/** The event member a logout token's `events` claim must hold. */
export const backchannelLogoutEvent = "http://schemas.openid.net/event/backchannel-logout"

/** The claims of a logout token whose signature, `iss`, `aud`, `iat` and `exp` were verified. */
export interface LogoutTokenClaims {
  sub?: unknown
  sid?: unknown
  jti?: unknown
  events?: unknown
  nonce?: unknown
  [claim: string]: unknown
}

/**
 * What verifying a logout token failed with, as jose said it: the error's `code`
 * (`ERR_JWT_CLAIM_VALIDATION_FAILED`, `ERR_JWT_EXPIRED`, `ERR_JWKS_NO_MATCHING_KEY`,
 * `ERR_JWS_SIGNATURE_VERIFICATION_FAILED`, …; none when the key set itself could not be fetched),
 * the `claim` it names, and its message.
 */
export interface LogoutTokenVerifyFailure {
  code?: string
  claim?: string
  message: string
  /** How old (milliseconds) the key set the token was checked against is; none when there was none. */
  keysAge?: number
}

/**
 * Events of the back-channel logout machine, each the outcome of the effect its state names: what
 * the request carried and which provider it names, what the issuer's metadata says, what jose said
 * of the token, whether its `jti` was new, and what the stores and the adapter answered. The
 * machine's guards decide what they mean.
 */
export type BackchannelLogoutEvent =
  | { type: "request.read"; providerType?: string; backchannelLogout: boolean; hasToken: boolean }
  | { type: "issuer.discovered"; issuer: string; jwksUri?: string }
  | { type: "discovery.failed"; error: unknown }
  | { type: "token.verified"; claims: LogoutTokenClaims }
  | ({ type: "verify.failed" } & LogoutTokenVerifyFailure)
  | { type: "jti.fresh" }
  | { type: "jti.seen" }
  | { type: "jti.failed"; error: unknown }
  | { type: "revoked" }
  | { type: "revoke.failed"; error: unknown }
  | { type: "user.found"; userId: string }
  | { type: "user.none" }
  | { type: "lookup.failed"; error: unknown }
  | { type: "sessions.deleted" }
  | { type: "delete.failed"; error: unknown }

/**
 * What the back-channel logout machine reads of the configuration: whether the adapter links a
 * provider account to its user (`getUserByAccount`), whether sessions are database rows, and
 * whether the adapter can delete a user's rows at once (`deleteUserSessions`).
 */
export interface BackchannelLogoutPolicy {
  linksUsers: boolean
  databaseSessions: boolean
  deletesUserSessions: boolean
}

/**
 * Context of a back-channel logout: the issuer and its key set, the verified claims, the linked
 * user, and why the flow ended where it did. The logout token itself never enters it.
 */
export interface BackchannelLogoutContext {
  policy: BackchannelLogoutPolicy
  issuer?: string
  jwksUri?: string
  claims?: LogoutTokenClaims
  userId?: string
  /** What jose said of a refused token, when the refusal carries it. */
  detail?: string
  error?: unknown
}

/** Effects the back-channel logout machine names, in the order a logout naming both a session and a subject meets them. */
export type BackchannelLogoutEffect =
  | "readRequest"
  | "discoverIssuer"
  | "verifyToken"
  | "verifyWithFreshKeys"
  | "markJti"
  | "revokeSession"
  | "revokeSubject"
  | "lookUpUser"
  | "revokeUser"
  | "deleteSessions"

const claimFailed = "ERR_JWT_CLAIM_VALIDATION_FAILED"
const expired = "ERR_JWT_EXPIRED"
const noMatchingKey = "ERR_JWKS_NO_MATCHING_KEY"

const failure = (event: BackchannelLogoutEvent) => (event.type === "verify.failed" ? event : undefined)

/**
 * The OpenID Connect Back-Channel Logout receiver, POST `/backchannel-logout/<provider>`: read the
 * request (a provider that accepts back-channel logouts, a logout token), discover the issuer's
 * key set, verify the token with jose (against the cached key set, shared with the ID-token check,
 * and once more against a freshly fetched one when no cached key matches and the cached set is at
 * least 30 s old: the provider may have rotated its keys), check its
 * claims (the back-channel `events` member, no `nonce`, `sub` or `sid`, a `jti`), mark its `jti`
 * used, then end the sessions it names: the provider session (`sid`), the subject (`sub`),
 * and, when the adapter links accounts, the linked user (whose database rows are deleted at once
 * when sessions are rows and the adapter can). Each refusal is its own final state; a discovery
 * or store failure ends in `discoveryFailed` or `logoutFailed`.
 *
 * @example
 * ```ts
 * const policy = { linksUsers: false, databaseSessions: false, deletesUserSessions: false }
 * const actor = createActor(backchannelLogoutMachine, { input: { policy } }).start()
 * actor.send({ type: "request.read", providerType: "oidc", backchannelLogout: true, hasToken: false })
 * actor.getSnapshot().value // "tokenMissing"
 * ```
 * @see https://openid.net/specs/openid-connect-backchannel-1_0.html#Validation
 */
export const backchannelLogoutMachine = flowMachine(setup({
  types: {
    context: {} as BackchannelLogoutContext,
    events: {} as BackchannelLogoutEvent,
    input: {} as { policy?: BackchannelLogoutPolicy } | undefined,
    meta: {} as FlowMeta<BackchannelLogoutEffect>,
  },
  actions: {
    recordIssuer: assign(({ event }) => (event.type === "issuer.discovered" ? { issuer: event.issuer, jwksUri: event.jwksUri } : {})),
    recordDetail: assign(({ event }) => (event.type === "verify.failed" ? { detail: event.message } : {})),
    recordClaims: assign(({ event }) => (event.type === "token.verified" ? { claims: event.claims } : {})),
    recordUser: assign(({ event }) => (event.type === "user.found" ? { userId: event.userId } : {})),
    recordError: assign({ error: ({ event }) => (event as { error?: unknown }).error }),
  },
  guards: {
    /** The provider named in the path is not an OpenID Provider configured with `backchannelLogout`. */
    providerRefusesLogout: ({ event }) => event.type === "request.read" && (event.providerType !== "oidc" || !event.backchannelLogout),
    /** The request carries no `logout_token` (or an empty one). */
    tokenAbsent: ({ event }) => event.type === "request.read" && !event.hasToken,
    /** The issuer publishes no key set to verify the token with. */
    noJwksUri: ({ event }) => event.type === "issuer.discovered" && !event.jwksUri,
    /**
     * No key of the key set matched the token's header, and the key set is old enough to fetch
     * again (30 s): a token with a made-up `kid` cannot make every request a fetch at the provider.
     */
    unknownKeyInOldKeys: ({ event }) => failure(event)?.code === noMatchingKey && mayRefetchKeys(failure(event)?.keysAge),
    issuerRejected: ({ event }) => failure(event)?.code === claimFailed && failure(event)?.claim === "iss",
    audienceRejected: ({ event }) => failure(event)?.code === claimFailed && failure(event)?.claim === "aud",
    /** Any other claim check failed (`iat` in the future, `nbf`, a missing `iat`). */
    otherClaimRejected: ({ event }) => failure(event)?.code === claimFailed,
    /** The token was issued longer ago than the 10 minutes a logout token may be old. */
    issuedTooLongAgo: ({ event }) => failure(event)?.code === expired && failure(event)?.claim === "iat",
    /** The token's `exp` has passed. */
    pastExpiry: ({ event }) => failure(event)?.code === expired,
    /** The `events` claim lacks the back-channel logout member, or that member is not a JSON object. */
    logoutEventMissing: ({ context }) => {
      const events = context.claims?.events
      const event = events && typeof events === "object" ? (events as Record<string, unknown>)[backchannelLogoutEvent] : undefined
      return !event || typeof event !== "object" || Array.isArray(event)
    },
    /** A logout token must not carry a `nonce` (it would then be an ID token). */
    carriesNonce: ({ context }) => context.claims !== undefined && "nonce" in context.claims,
    /** Neither `sub` nor `sid`: the token names nobody. */
    namesNobody: ({ context }) => typeof context.claims?.sub !== "string" && typeof context.claims?.sid !== "string",
    jtiAbsent: ({ context }) => typeof context.claims?.jti !== "string" || !context.claims.jti,
    /** The token names a provider session (`sid`). */
    namesSession: ({ context }) => typeof context.claims?.sid === "string",
    /** The token names a subject at the provider (`sub`). */
    namesSubject: ({ context }) => typeof context.claims?.sub === "string",
    /** The adapter can find the user a provider account is linked to. */
    linksUsers: ({ context }) => context.policy.linksUsers,
    /** Sessions are database rows and the adapter can delete every row of a user. */
    deletesDatabaseSessions: ({ context }) => context.policy.databaseSessions && context.policy.deletesUserSessions,
  },
}).createMachine)({
  id: "backchannel-logout",
  context: ({ input }) => ({ policy: input?.policy ?? { linksUsers: false, databaseSessions: false, deletesUserSessions: false } }),
  initial: "readingRequest",
  states: {
    readingRequest: {
      meta: { effect: "readRequest" },
      on: {
        "request.read": [{ guard: "providerRefusesLogout", target: "providerNotAccepting" }, { guard: "tokenAbsent", target: "tokenMissing" }, { target: "discoveringIssuer" }],
      },
    },
    discoveringIssuer: {
      meta: { effect: "discoverIssuer" },
      on: {
        "issuer.discovered": [{ guard: "noJwksUri", target: "jwksMissing" }, { target: "verifyingToken", actions: "recordIssuer" }],
        "discovery.failed": { target: "discoveryFailed", actions: "recordError" },
      },
    },
    verifyingToken: {
      initial: "withCachedKeys",
      states: {
        withCachedKeys: {
          meta: { effect: "verifyToken" },
          // The provider may have rotated its keys: fetch its key set once more before refusing the
          // token, unless it was fetched less than the cooldown ago (it would not have the key either).
          on: { "verify.failed": { guard: "unknownKeyInOldKeys", target: "withFreshKeys" } },
        },
        withFreshKeys: { meta: { effect: "verifyWithFreshKeys" } },
      },
      on: {
        "token.verified": { target: "checkingClaims", actions: "recordClaims" },
        "verify.failed": [
          { guard: "issuerRejected", target: "issuerMismatch" },
          { guard: "audienceRejected", target: "audienceMismatch" },
          { guard: "otherClaimRejected", target: "issuedAtInvalid", actions: "recordDetail" },
          { guard: "issuedTooLongAgo", target: "issuedAtInvalid" },
          { guard: "pastExpiry", target: "tokenExpired" },
          // A bad signature, a malformed token, a key set that could not be fetched or still lacks the key.
          { target: "signatureInvalid", actions: "recordDetail" },
        ],
      },
    },
    checkingClaims: {
      always: [
        { guard: "logoutEventMissing", target: "eventMissing" },
        { guard: "carriesNonce", target: "nonceForbidden" },
        { guard: "namesNobody", target: "subjectMissing" },
        { guard: "jtiAbsent", target: "jtiMissing" },
        { target: "markingJti" },
      ],
    },
    markingJti: {
      meta: { effect: "markJti" },
      on: {
        "jti.fresh": [{ guard: "namesSession", target: "revokingSession" }, { target: "revokingSubject" }],
        "jti.seen": "tokenReplayed",
        "jti.failed": { target: "logoutFailed", actions: "recordError" },
      },
    },
    revokingSession: {
      meta: { effect: "revokeSession" },
      on: {
        revoked: [{ guard: "namesSubject", target: "revokingSubject" }, { target: "loggedOut" }],
        "revoke.failed": { target: "logoutFailed", actions: "recordError" },
      },
    },
    revokingSubject: {
      meta: { effect: "revokeSubject" },
      on: {
        revoked: [{ guard: "linksUsers", target: "lookingUpUser" }, { target: "loggedOut" }],
        "revoke.failed": { target: "logoutFailed", actions: "recordError" },
      },
    },
    lookingUpUser: {
      meta: { effect: "lookUpUser" },
      on: {
        // The engine's adapter wrapper answers a user without an id as an AdapterError (`lookup.failed`).
        "user.found": { target: "revokingUser", actions: "recordUser" },
        "user.none": "loggedOut",
        "lookup.failed": { target: "logoutFailed", actions: "recordError" },
      },
    },
    revokingUser: {
      meta: { effect: "revokeUser" },
      on: {
        revoked: [{ guard: "deletesDatabaseSessions", target: "deletingSessions" }, { target: "loggedOut" }],
        "revoke.failed": { target: "logoutFailed", actions: "recordError" },
      },
    },
    deletingSessions: {
      meta: { effect: "deleteSessions" },
      on: {
        "sessions.deleted": "loggedOut",
        "delete.failed": { target: "logoutFailed", actions: "recordError" },
      },
    },
    loggedOut: { type: "final" },
    providerNotAccepting: { type: "final" },
    tokenMissing: { type: "final" },
    discoveryFailed: { type: "final" },
    jwksMissing: { type: "final" },
    signatureInvalid: { type: "final" },
    issuerMismatch: { type: "final" },
    audienceMismatch: { type: "final" },
    tokenExpired: { type: "final" },
    issuedAtInvalid: { type: "final" },
    eventMissing: { type: "final" },
    nonceForbidden: { type: "final" },
    subjectMissing: { type: "final" },
    jtiMissing: { type: "final" },
    tokenReplayed: { type: "final" },
    logoutFailed: { type: "final" },
  },
})
