import * as o from "oauth4webapi"
import { AuthError, type AdapterError, CallbackRouteError, InvalidCheck, MissingCSRF, OAuthAccountNotLinked, OAuthCallbackError, OAuthSignInError } from "../core/errors.js"
import { FlowCookieRefused, newFlowId, sealedFlow, type FlowCookies, type OpenedFlow } from "./flow-cookie.js"
import { isConfiguredOrigin } from "../core/origin.js"
import { askSignIn, resolveRedirect } from "./sign-in-callback.js"
import { newUserRedirect, signInTailPolicy, type SignInOutcome } from "./issue-session.js"
import { sessionEffects } from "./session-effects.js"
import { secondFactorOutcomes } from "./second-factor/tail.js"
import { findAccount, findEmailOwner, persistAccount, signedInUser } from "./account-linking.js"
import { authorizationServer } from "../core/oauth/discovery.js"
import { authorizationRequest, usesFormPost } from "../core/oauth/client.js"
import {
  fetchProfile,
  issuerExpectation,
  mapProfile,
  processTokens,
  providerRefusal,
  requestTokens,
  storedAccountFields,
  tokenRefusal,
  validatedResponse,
  verifyIdTokenSignature,
  type ProcessedTokens,
} from "../core/oauth/callback.js"
import { encode, decode } from "../core/jwt/index.js"
import { oauthMachine, type NotLinkedReason, type OAuthContext, type OAuthEvent } from "../machines/oauth.js"
import { csrfCheckEffect } from "../machines/csrf-check.js"
import { assigned, effectsReading, runFlowWithCookies, type FlowEffects } from "../machines/run-flow.js"
import { outcomeOf, type FlowOutcomes } from "./flow-outcomes.js"
import { errorAnswer, type Answer } from "../core/answer.js"
import { rateLimitedError, requestLimiter } from "./rate-limit.js"
import type { RequestLimiter } from "../core/rate-limit/limiter.js"
import type { AuthOptions } from "../core/options.js"
import type { OAuthProviderConfig } from "../providers/oauth.js"
import type { Cookie, InternalProvider } from "../types.js"
import type { SnapshotFrom } from "xstate"
import { asError } from "../core/as-error.js"

/** Bump when the sign-in machine's waiting state or context change shape: older flow cookies are then refused. */
export const OAUTH_FLOW_VERSION = 2

const stateSalt = "encodedState"
const fifteenMinutes = 15 * 60

/** The flow cookie and its binding: a form_post callback is a cross-site POST, which only SameSite=None cookies come along with. */
function flowCookiesOf(options: AuthOptions, provider: OAuthProviderConfig): FlowCookies {
  const { flow, flowBinding } = options.cookies
  if (!usesFormPost(provider)) return { flow, binding: flowBinding }
  const crossSite = { sameSite: "none", secure: true } as const
  return {
    flow: { name: flow.name, options: { ...flow.options, ...crossSite } },
    binding: { name: flowBinding.name, options: { ...flowBinding.options, ...crossSite } },
  }
}

/** The OAuth flow, sealed between the sign-in and the callback: only its checks travel in the cookie, bound to the provider and its issuer. */
const oauthFlow = sealedFlow({ machine: oauthMachine, version: OAUTH_FLOW_VERSION, seals: ["checks"], cookies: flowCookiesOf })

function redirectProxyOf(options: AuthOptions, provider: OAuthProviderConfig): string | undefined {
  const proxy = provider.redirectProxyUrl ?? options.config.redirectProxyUrl
  if (!proxy || usesFormPost(provider)) return undefined
  return `${proxy.replace(/\/+$/, "")}/callback/${provider.id}`
}

function parsedUrl(value: string): URL | undefined {
  try {
    return new URL(value)
  } catch {
    return undefined
  }
}


/** What one request's effects are given besides the flow's context: its limiter, the flow's id, and (at the callback) the flow cookie opened. */
interface OAuthRequest {
  limiter: RequestLimiter
  /** The flow's id: recorded in the replay store before the flow is sealed, and the inspector's actor id in both requests. */
  flowId: string
  /** The callback's flow cookie, opened (every check but the replay check, which `claimFlow` makes). */
  opened?: OpenedFlow<typeof oauthMachine>
}

/** The events an ID token refusal reports, by the claim oauth4webapi names in `cause.claim`. */
const claimRefusals: Readonly<Record<string, OAuthEvent["type"]>> = {
  iss: "idToken.wrongIssuer",
  aud: "idToken.wrongAudience",
  azp: "idToken.wrongAudience",
  nonce: "idToken.nonceMismatch",
}

/** What processing the token response found wrong, as the event that reports it. */
function tokenProblem(error: unknown): OAuthEvent {
  if (error instanceof o.OperationProcessingError) {
    const claim = (error.cause as { claim?: unknown } | undefined)?.claim
    if (error.code === o.JWT_TIMESTAMP_CHECK) return { type: "idToken.expired", error }
    if (error.code === o.JWT_CLAIM_COMPARISON && typeof claim === "string" && claimRefusals[claim]) return { type: claimRefusals[claim], error } as OAuthEvent
  }
  return { type: "tokens.invalid", error }
}

/**
 * The effects of the OAuth machine for one request. The sign-in request meets the first four; the
 * callback request the rest. Each reports what it found, in its event; the machine decides, and
 * assigns what the effects after it read (each names what it reads).
 */
function oauthEffects(options: AuthOptions, provider: InternalProvider<OAuthProviderConfig>, request: OAuthRequest): FlowEffects<typeof oauthMachine> {
  const needs = effectsReading<OAuthContext>()
  const proxyRedirectUri = redirectProxyOf(options, provider)
  const site = oauthFlow.site(options, provider)
  return {
    ...csrfCheckEffect(options),
    claimFlow: async () =>
      // Only the callback opens a flow cookie: without one there is nothing to claim.
      request.opened ? oauthFlow.claimEvent(site, request.opened) : { type: "flow.claimFailed", error: new TypeError("No flow cookie was opened in this request") },
    checkRateLimit: () => request.limiter.count("oauth"),
    discover: async () => {
      try {
        return { type: "discovery.done", server: await authorizationServer(provider) }
      } catch (error) {
        return { type: "discovery.failed", error }
      }
    },
    authorize: needs(["server"], async ({ server }) => {
      try {
        // Behind a redirect proxy, the state carries this deployment's callback URL, for the proxy to forward to.
        const state = proxyRedirectUri
          ? await encode({ token: { origin: provider.callbackUrl, random: o.generateRandomState() } as never, secret: options.secret, salt: stateSalt, maxAge: fifteenMinutes })
          : undefined
        const { url, checks } = await authorizationRequest(provider, server, proxyRedirectUri ?? provider.callbackUrl, options.request.query, state)
        const startedBy = (await signedInUser(options))?.id
        // Last: the flow's one-time entry, claimed once when the callback resumes it.
        const issued = await oauthFlow.issue(site, request.flowId)
        return { type: "authorization.ready", checks: { ...checks, callbackUrl: options.callbackUrl, ...(startedBy !== undefined && { startedBy }) }, url: url.href, issued }
      } catch (error) {
        return { type: "authorization.failed", error }
      }
    }),
    readResponse: needs(["checks"], async ({ checks }) => {
      const params = callbackParams(options, provider)
      let server: o.AuthorizationServer
      try {
        server = await authorizationServer(provider)
      } catch (error) {
        return { type: "response.unreadable", error }
      }
      const received = { ...(params.get("state") !== null && { state: params.get("state")! }), ...(params.get("iss") !== null && { iss: params.get("iss")! }), ...(params.get("error") !== null && { error: params.get("error")! }) }
      // oauth4webapi's own verdict: the machine's guards name what is wrong with the parameters
      // first, and refuse a response it refused for any other reason.
      let error: unknown
      try {
        validatedResponse(provider, server, params, checks.state)
      } catch (caught) {
        error = caught instanceof o.AuthorizationResponseError ? providerRefusal(provider.id, caught) : caught
      }
      return { type: "response.received", params: received, ...issuerExpectation(provider, server), server, ...(error !== undefined && { error }) }
    }),
    exchangeCode: needs(["checks", "server"], async ({ checks, server }) => {
      try {
        // The machine gets here only when oauth4webapi accepted the response (readResponse): validating it again gives the parameters it exchanges.
        const response = await requestTokens(provider, server, validatedResponse(provider, server, callbackParams(options, provider), checks.state), checks)
        if (!response.ok) return { type: "code.refused", error: await tokenRefusal(provider, server, response) }
        return { type: "code.exchanged", response }
      } catch (error) {
        return { type: "exchange.failed", error }
      }
    }),
    validateTokens: needs(["checks", "server", "tokenResponse"], async ({ checks, server, tokenResponse }) => {
      let processed: ProcessedTokens
      try {
        processed = await processTokens(provider, server, tokenResponse, checks)
      } catch (error) {
        return tokenProblem(error)
      }
      try {
        return { type: "tokens.valid", tokens: await verifyIdTokenSignature(provider, processed), server: processed.server }
      } catch (error) {
        return { type: "idToken.badSignature", error }
      }
    }),
    fetchProfile: needs(["server", "tokens"], async ({ server, tokens }) => {
      try {
        const profile = await fetchProfile(provider, server, tokens, callbackParams(options, provider))
        const { user, account } = await mapProfile(provider, profile, tokens.tokens)
        return { type: "profile.received", profile, user, account }
      } catch (error) {
        return { type: "profile.failed", error }
      }
    }),
    resolveAccount: needs(["account"], async ({ account }) => {
      try {
        return await findAccount(options, account)
      } catch (error) {
        return { type: "lookup.failed", error }
      }
    }),
    findEmailOwner: needs(["user"], async ({ user }) => {
      try {
        return await findEmailOwner(options, user.email)
      } catch (error) {
        return { type: "lookup.failed", error }
      }
    }),
    askSignIn: needs(["user", "account", "profile"], ({ user, account, profile }) => askSignIn(options, { user, account, profile })),
    resolveRedirect: needs(["requestedRedirect"], ({ requestedRedirect }) => resolveRedirect(options, requestedRedirect)),
    persistUser: needs(["plan", "user", "account", "profile", "tokens"], async ({ plan, linkTo, user, account, profile, tokens }) => {
      let creatingUserId: string | undefined
      try {
        const stored = storedAccountFields(provider, tokens.tokens)
        const resolved = await persistAccount(options, { plan, ...(linkTo && { linkTo }), user, account, profile, stored }, (id) => (creatingUserId = id))
        return { type: "user.persisted", isNewUser: resolved.isNewUser, user: resolved.user }
      } catch (error) {
        return { type: "persist.failed", error, ...(creatingUserId !== undefined && { creatingUserId }) }
      }
    }),
    undoCreatedUser: async ({ creatingUserId }) => {
      try {
        if (creatingUserId !== undefined) await options.adapter?.deleteUser?.(creatingUserId)
        return { type: "user.undone" }
      } catch (error) {
        return { type: "undo.failed", error }
      }
    },
    ...sessionEffects(options, oauthSignedIn),
  }
}

/** The request a flow is answering, and what its outcomes need to build the answer. */
interface OAuthOutcomeInput {
  options: AuthOptions
  provider: InternalProvider<OAuthProviderConfig>
  snapshot: SnapshotFrom<typeof oauthMachine>
  limiter: RequestLimiter
  /** The cookies every answer sets: the request's, then the ones the run minted (the session's). */
  cookies: Cookie[]
  flowId: string
}

const notLinkedMessages: Record<NotLinkedReason, string> = {
  "linked-to-other-user": "The account is already associated with another user",
  "not-started-by-signed-in-user": "The sign-in was not started by the signed-in user: the account is not linked",
  "email-taken": "Another account already exists with the same e-mail address",
}

/** The answer of a callback whose sealed flow is not resumed (its cookie refused, replayed, or its claim failing), with the flow cookies cleared. */
function notResumed(provider: OAuthProviderConfig, err: Error, cookies: Cookie[]): Answer {
  return errorAnswer(new OAuthCallbackError("The sign-in flow could not be resumed", { cause: { err, provider: provider.id } }), cookies)
}

/**
 * How each state the OAuth machine stops in answers the request that ends there: adding a state
 * without an answer breaks the build. A failed callback clears the flow cookies with its answer.
 */
/** Who signed in with the provider, and how: what the session (or the second factor) is issued for. */
const oauthSignedIn = effectsReading<OAuthContext>()(["user", "account", "profile"], ({ user, account, profile, isNewUser }): SignInOutcome => ({ user, account, profile, isNewUser: isNewUser ?? false }))

function oauthOutcomes({ options, provider, snapshot, limiter, cookies, flowId }: OAuthOutcomeInput): FlowOutcomes<typeof oauthMachine, Answer | Promise<Answer>> {
  const callbackError = ({ error, failedCheck }: OAuthContext) =>
    errorAnswer(error instanceof AuthError ? error : new OAuthCallbackError(asError(error ?? `the ${failedCheck} check failed`), { cause: { provider: provider.id, check: failedCheck } }), cookies)
  const failedWith = (error: unknown) => errorAnswer(error instanceof AuthError ? error : new CallbackRouteError(asError(error), { cause: { provider: provider.id } }), cookies)
  const failed = ({ error }: OAuthContext) => failedWith(error)
  return {
    awaitingCallback: async (context) => {
      const { authorizationUrl, flowIssued } = assigned(context, ["authorizationUrl"])
      const sealed = await oauthFlow.seal(oauthFlow.site(options, provider), snapshot, flowId, flowIssued === true)
      return { redirect: authorizationUrl, cookies: [...cookies, ...sealed] }
    },
    csrfRejected: () => errorAnswer(new MissingCSRF("CSRF token was missing during an action signin")),
    flowReplayed: () => notResumed(provider, new FlowCookieRefused("replayed", "the flow was resumed before: a flow is used once"), cookies),
    // The replay store's database failing is a server fault, answered and logged as every adapter failure is (the machine's `isAdapterError`).
    claimFailed: ({ error }) => errorAnswer(error as AdapterError, cookies),
    flowNotResumed: ({ error }) => notResumed(provider, asError(error), cookies),
    signInFailed: ({ error }) => errorAnswer(error instanceof AuthError ? error : new OAuthSignInError(asError(error), { cause: { provider: provider.id } })),
    signedIn: ({ checks }) => ({ redirect: checks!.callbackUrl, cookies }),
    signedInNewUser: ({ checks }) => ({ redirect: newUserRedirect(options, checks!.callbackUrl), cookies }),
    ...secondFactorOutcomes(options, cookies, oauthSignedIn, ({ checks }) => checks!.callbackUrl),
    redirected: ({ redirectTo }) => ({ redirect: redirectTo!, cookies }),
    providerRejected: callbackError,
    responseRejected: callbackError,
    tokensRejected: callbackError,
    idTokenRejected: callbackError,
    // A userinfo answer that fails validation is the provider's response refused; a throwing `profile()` keeps its own error.
    profileFailed: callbackError,
    accountNotLinked: ({ notLinked }) => failedWith(new OAuthAccountNotLinked(notLinkedMessages[notLinked!], { cause: { provider: provider.id } })),
    accessDenied: failed,
    persistFailed: failed,
    sessionFailed: failed,
    rateLimited: (context) => errorAnswer(rateLimitedError("oauth", context, limiter), cookies),
  }
}

/**
 * POST `/signin/<id>` for an OAuth 2 or OpenID Connect provider: runs the OAuth machine up to its
 * waiting state, seals that snapshot into the flow cookie and sends the user to the provider.
 *
 * @example
 * ```ts
 * // POST /auth/signin/github (csrfToken) → 302 https://github.com/login/oauth/authorize?…&state=…&code_challenge=…
 * ```
 */
export async function oauthSignIn(options: AuthOptions, provider: InternalProvider<OAuthProviderConfig>, cookies: Cookie[]): Promise<Answer> {
  const request: OAuthRequest = { limiter: requestLimiter(options), flowId: newFlowId() }
  const { snapshot, cookies: minted } = await runFlowWithCookies(oauthMachine, oauthEffects(options, provider, request), { inspect: options.config.inspect, id: oauthFlow.actorId(request.flowId) })
  return outcomeOf(snapshot, oauthOutcomes({ options, provider, snapshot, cookies: [...cookies, ...minted], ...request }))
}

function callbackParams(options: AuthOptions, provider: OAuthProviderConfig): URLSearchParams {
  const { request } = options
  if (request.method === "POST" && (usesFormPost(provider) || request.body)) {
    const params = new URLSearchParams()
    for (const [key, value] of Object.entries(request.body ?? {})) if (typeof value === "string") params.set(key, value)
    return params
  }
  return new URLSearchParams(request.url.search)
}

/**
 * On the redirect proxy, a callback meant for another deployment is forwarded there: its `state`
 * (encrypted with the shared secret) names the deployment's callback URL. Only a deployment whose
 * origin the configuration names (`origin`, `trustedOrigins`) receives it: a code forwarded to any
 * other origin could be replayed by whoever started the sign-in there.
 */
async function forwardFromProxy(options: AuthOptions, provider: InternalProvider<OAuthProviderConfig>, params: URLSearchParams): Promise<Answer | undefined> {
  const proxy = redirectProxyOf(options, provider)
  const state = params.get("state")
  if (!proxy || !state || new URL(proxy).origin !== options.origin) return undefined
  let payload: { origin?: unknown } | null
  try {
    payload = (await decode({ token: state, secret: options.secret, salt: stateSalt })) as { origin?: unknown } | null
  } catch (error) {
    return errorAnswer(new InvalidCheck("State could not be decoded", { cause: { err: asError(error) } }))
  }
  const target = typeof payload?.origin === "string" ? parsedUrl(payload.origin) : undefined
  if (!target || target.origin === options.origin) return undefined
  if (!isConfiguredOrigin(target.origin, options.config)) {
    return errorAnswer(new InvalidCheck(`The redirect proxy does not forward to ${target.origin}: list that origin in \`trustedOrigins\` to allow it`))
  }
  return { redirect: `${target.origin}${target.pathname}?${params}` }
}

/**
 * GET or POST `/callback/<id>` for an OAuth 2 or OpenID Connect provider: restores the sealed flow
 * (a missing, expired, tampered, foreign or replayed one is refused) and resumes the OAuth machine
 * with `callback.received`. The flow cookies are cleared whatever happens.
 *
 * @example
 * ```ts
 * // GET /auth/callback/github?code=…&state=… → 302 to the callback URL with the session cookie
 * ```
 */
export async function oauthCallback(options: AuthOptions, provider: InternalProvider<OAuthProviderConfig>, cookies: Cookie[]): Promise<Answer> {
  const params = callbackParams(options, provider)
  const forwarded = await forwardFromProxy(options, provider, params)
  if (forwarded) return forwarded

  const site = oauthFlow.site(options, provider)
  const cleared = [...cookies, ...oauthFlow.clear(site)]
  const restored = await oauthFlow.open(site, options.request.cookies).catch(asError)
  if (restored instanceof Error) return notResumed(provider, restored, cleared)
  // The machine claims the flow (used once) before anything else: `claimingFlow`.
  const request: OAuthRequest = { limiter: requestLimiter(options), flowId: restored.flowId, opened: restored }
  const policy = { adapter: options.adapter !== undefined, emailLinking: provider.allowDangerousEmailAccountLinking === true, ...signInTailPolicy(options, provider) }
  const { snapshot, cookies: minted } = await runFlowWithCookies(oauthMachine, oauthEffects(options, provider, request), {
    inspect: options.config.inspect,
    snapshot: restored.snapshot,
    resume: { type: "callback.received", policy },
    id: oauthFlow.actorId(restored.flowId),
  })
  return outcomeOf(snapshot, oauthOutcomes({ options, provider, snapshot, cookies: [...cleared, ...minted], ...request }))
}
