import * as o from "oauth4webapi"
import { AdapterError, AuthError, CallbackRouteError, InvalidCheck, MissingCSRF, OAuthAccountNotLinked, OAuthCallbackError, OAuthSignInError } from "../core/errors.js"
import { withCookies } from "../core/error-cookies.js"
import { issueFlow, newFlowId, sealFlow, unsealFlow, type FlowBinding, type FlowCookies } from "./flow-cookie.js"
import { isConfiguredOrigin } from "../core/origin.js"
import { sha256Hex } from "../core/crypto.js"
import { replayStoreOf } from "../core/replay-store.js"
import { askSignIn, resolveRedirect } from "./sign-in-callback.js"
import { newUserRedirect, signInTailPolicy, type SignInOutcome } from "./issue-session.js"
import { sessionEffects } from "./session-effects.js"
import { findAccount, persistAccount, signedInUser, type AccountLookup } from "./account-linking.js"
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
  type ExchangeResult,
  type ProcessedTokens,
} from "../core/oauth/callback.js"
import { encode, decode } from "../core/jwt/index.js"
import { oauthMachine, type NotLinkedReason, type OAuthContext, type OAuthEvent } from "../machines/oauth.js"
import { csrfCheckEffect } from "../machines/csrf-check.js"
import { runFlow, type FlowEffects } from "../machines/run-flow.js"
import { notAnOutcome, signInTailInFlight } from "./flow-outcomes.js"
import { rateLimitedError, requestLimiter } from "./rate-limit.js"
import type { RequestLimiter } from "../core/rate-limit/limiter.js"
import type { AuthOptions } from "../core/options.js"
import type { OAuthProviderConfig } from "../providers/oauth.js"
import type { Account, Cookie, InternalProvider, Profile, ResponseInternal, User } from "../types.js"
import type { SnapshotFrom } from "xstate"
import { asError } from "../core/as-error.js"

/** Bump when the sign-in machine's waiting state or context change shape: older flow cookies are then refused. */
export const OAUTH_FLOW_VERSION = 2

const stateSalt = "encodedState"
const fifteenMinutes = 15 * 60

function bindingOf(provider: OAuthProviderConfig): FlowBinding & { machine: typeof oauthMachine } {
  const binding: FlowBinding & { machine: typeof oauthMachine } = { machine: oauthMachine, version: OAUTH_FLOW_VERSION, providerId: provider.id }
  if (provider.issuer) binding.issuer = provider.issuer
  return binding
}

function flowCookiesOf(options: AuthOptions, provider: OAuthProviderConfig): FlowCookies {
  const { flow, flowBinding } = options.cookies
  if (!usesFormPost(provider)) return { flow, binding: flowBinding }
  // A form_post callback is a cross-site POST: only SameSite=None cookies come along with it.
  const crossSite = { sameSite: "none", secure: true } as const
  return {
    flow: { name: flow.name, options: { ...flow.options, ...crossSite } },
    binding: { name: flowBinding.name, options: { ...flowBinding.options, ...crossSite } },
  }
}

function clearFlowCookies(cookies: FlowCookies): Cookie[] {
  return [cookies.flow, cookies.binding].map(({ name, options }) => ({ name, value: "", options: { ...options, maxAge: 0 } }))
}

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


/**
 * The flow's actor id in both of its requests, so observers join them: derived from the flow id,
 * which stays a secret between the cookie and the replay store.
 */
function actorIdOf(flowId: string): string {
  return `oauth-${sha256Hex(`actor:${flowId}`).slice(0, 16)}`
}

/** What one request's effects find and pass on to the next effect, typed once instead of loose `let`s. */
interface OAuthRun {
  limiter: RequestLimiter
  /** A new flow's id (sign-in only), recorded in the replay store before it is sealed. */
  flowId?: string
  /** Whether the replay store issued the flow: it is then claimed there when it resumes. */
  flowIssued?: boolean
  server?: o.AuthorizationServer
  authorizationUrl?: URL
  params?: URLSearchParams
  validParams?: URLSearchParams
  tokenResponse?: Response
  processed?: ProcessedTokens
  exchange?: ExchangeResult
  profile?: Profile
  user?: User
  account?: Account
  lookup?: AccountLookup
  /** The id of the user the sign-in is creating, reported before the write (for `undoCreatedUser`). */
  creatingUserId?: string
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
 * The effects of the OAuth machine for one request. The sign-in request meets the first three; the
 * callback request the rest. Each reports what it found; the machine decides.
 */
function oauthEffects(options: AuthOptions, provider: InternalProvider<OAuthProviderConfig>, run: OAuthRun, cookies: Cookie[]): FlowEffects<typeof oauthMachine> {
  const signedIn = ({ isNewUser, plan }: OAuthContext): SignInOutcome => ({
    user: plan === "signInLinkedUser" ? run.lookup!.linked! : run.user!,
    account: run.account!,
    profile: run.profile!,
    isNewUser: isNewUser ?? false,
  })
  const proxyRedirectUri = redirectProxyOf(options, provider)
  return {
    ...csrfCheckEffect(options),
    checkRateLimit: () => run.limiter.count("oauth"),
    discover: async () => {
      try {
        run.server = await authorizationServer(provider)
        return { type: "discovery.done" }
      } catch (error) {
        return { type: "discovery.failed", error }
      }
    },
    authorize: async () => {
      try {
        // Behind a redirect proxy, the state carries this deployment's callback URL, for the proxy to forward to.
        const state = proxyRedirectUri
          ? await encode({ token: { origin: provider.callbackUrl, random: o.generateRandomState() } as never, secret: options.secret, salt: stateSalt, maxAge: fifteenMinutes })
          : undefined
        const { url, checks } = await authorizationRequest(provider, run.server!, proxyRedirectUri ?? provider.callbackUrl, options.request.query, state)
        run.authorizationUrl = url
        const startedBy = (await signedInUser(options))?.id
        // Last: the flow's one-time entry, claimed once when the callback resumes it.
        run.flowIssued = await issueFlow(oauthMachine.id, run.flowId!, replayStoreOf(options.config, options.logger))
        return { type: "authorization.ready", checks: { ...checks, callbackUrl: options.callbackUrl, ...(startedBy !== undefined && { startedBy }) } }
      } catch (error) {
        return { type: "authorization.failed", error }
      }
    },
    readResponse: async ({ checks }) => {
      const params = run.params!
      try {
        run.server = await authorizationServer(provider)
      } catch (error) {
        return { type: "response.unreadable", error }
      }
      const received = { ...(params.get("state") !== null && { state: params.get("state")! }), ...(params.get("iss") !== null && { iss: params.get("iss")! }), ...(params.get("error") !== null && { error: params.get("error")! }) }
      // oauth4webapi's own verdict, for the logs: the machine decides on the parameters themselves.
      let error: unknown
      try {
        run.validParams = validatedResponse(provider, run.server, params, checks!.state)
      } catch (caught) {
        error = caught instanceof o.AuthorizationResponseError ? providerRefusal(provider.id, caught) : caught
      }
      return { type: "response.received", params: received, ...issuerExpectation(provider, run.server), ...(error !== undefined && { error }) }
    },
    exchangeCode: async ({ checks }) => {
      try {
        if (!run.validParams) run.validParams = validatedResponse(provider, run.server!, run.params!, checks!.state)
        const response = await requestTokens(provider, run.server!, run.validParams, checks!)
        if (!response.ok) return { type: "code.refused", error: await tokenRefusal(provider, run.server!, response) }
        run.tokenResponse = response
        return { type: "code.exchanged" }
      } catch (error) {
        return { type: "exchange.failed", error }
      }
    },
    validateTokens: async ({ checks }) => {
      try {
        run.processed = await processTokens(provider, run.server!, run.tokenResponse!, checks!)
      } catch (error) {
        return tokenProblem(error)
      }
      try {
        run.exchange = await verifyIdTokenSignature(provider, run.processed)
        return { type: "tokens.valid" }
      } catch (error) {
        return { type: "idToken.badSignature", error }
      }
    },
    fetchProfile: async () => {
      try {
        run.profile = await fetchProfile(provider, run.processed!.server, run.exchange!, run.params!)
        ;({ user: run.user, account: run.account } = await mapProfile(provider, run.profile, run.exchange!.tokens))
        return { type: "profile.received" }
      } catch (error) {
        return { type: "profile.failed", error }
      }
    },
    resolveAccount: async () => {
      try {
        const { event, lookup } = await findAccount(options, run.account!, run.user!.email)
        run.lookup = lookup
        return event
      } catch (error) {
        return { type: "lookup.failed", error }
      }
    },
    askSignIn: () => askSignIn(options, { user: run.lookup?.linked ?? run.user!, account: run.account!, profile: run.profile! }),
    resolveRedirect: ({ requestedRedirect }) => resolveRedirect(options, requestedRedirect!),
    persistUser: async ({ plan }) => {
      try {
        const resolved = await persistAccount(options, plan!, run.lookup ?? {}, {
          user: run.user!,
          account: run.account!,
          profile: run.profile!,
          stored: storedAccountFields(provider, run.exchange!.tokens),
        }, (id) => (run.creatingUserId = id))
        run.user = resolved.user
        return { type: "user.persisted", isNewUser: resolved.isNewUser }
      } catch (error) {
        return { type: "persist.failed", error }
      }
    },
    undoCreatedUser: async () => {
      try {
        if (run.creatingUserId !== undefined) await options.adapter!.deleteUser?.(run.creatingUserId)
        return { type: "user.undone" }
      } catch (error) {
        return { type: "undo.failed", error }
      }
    },
    ...sessionEffects(options, cookies, signedIn),
  }
}

type OAuthState = Extract<SnapshotFrom<typeof oauthMachine>["value"], string>

/** The request a flow is answering, and what its outcome needs to build the answer. */
interface OAuthOutcomeInput {
  options: AuthOptions
  provider: InternalProvider<OAuthProviderConfig>
  context: OAuthContext
  snapshot: SnapshotFrom<typeof oauthMachine>
  run: OAuthRun
  cookies: Cookie[]
  flowId: string
}

function callbackError(input: OAuthOutcomeInput): never {
  const { context, provider, cookies } = input
  const error = context.error instanceof AuthError
    ? context.error
    : new OAuthCallbackError(asError(context.error ?? `the ${context.failedCheck} check failed`), { cause: { provider: provider.id, check: context.failedCheck } })
  throw withCookies(error, cookies)
}

function failedWith(input: OAuthOutcomeInput, error: unknown): never {
  throw withCookies(error instanceof AuthError ? error : new CallbackRouteError(asError(error), { cause: { provider: input.provider.id } }), input.cookies)
}

const notLinkedMessages: Record<NotLinkedReason, string> = {
  "linked-to-other-user": "The account is already associated with another user",
  "not-started-by-signed-in-user": "The sign-in was not started by the signed-in user: the account is not linked",
  "email-taken": "Another account already exists with the same e-mail address",
}


/** How each state of the OAuth machine answers the request that ends there: adding a state without an answer breaks the build. */
const outcomes: Record<OAuthState, (input: OAuthOutcomeInput) => Promise<ResponseInternal> | ResponseInternal> = {
  undoingCreatedUser: notAnOutcome,
  awaitingCallback: async ({ options, provider, snapshot, run, cookies, flowId }) => {
    const sealed = await sealFlow(snapshot, bindingOf(provider), options.secret, flowCookiesOf(options, provider), flowId, run.flowIssued)
    return { redirect: run.authorizationUrl!.href, cookies: [...cookies, ...sealed] }
  },
  csrfRejected: () => {
    throw new MissingCSRF("CSRF token was missing during an action signin")
  },
  signInFailed: ({ context, provider }) => {
    throw context.error instanceof AuthError ? context.error : new OAuthSignInError(asError(context.error), { cause: { provider: provider.id } })
  },
  signedIn: ({ snapshot, cookies }) => ({ redirect: snapshot.context.checks!.callbackUrl, cookies }),
  signedInNewUser: ({ options, snapshot, cookies }) => ({ redirect: newUserRedirect(options, snapshot.context.checks!.callbackUrl), cookies }),
  redirected: ({ context, cookies }) => ({ redirect: context.redirectTo!, cookies }),
  providerRejected: callbackError,
  responseRejected: callbackError,
  tokensRejected: callbackError,
  idTokenRejected: callbackError,
  // A userinfo answer that fails validation is the provider's response refused; a throwing `profile()` keeps its own error.
  profileFailed: callbackError,
  accountNotLinked: (input) => failedWith(input, new OAuthAccountNotLinked(notLinkedMessages[input.context.notLinked!], { cause: { provider: input.provider.id } })),
  accessDenied: (input) => failedWith(input, input.context.error),
  persistFailed: (input) => failedWith(input, input.context.error),
  sessionFailed: (input) => failedWith(input, input.context.error),
  rateLimited: ({ context, run, cookies }) => {
    throw withCookies(rateLimitedError("oauth", context, run.limiter), cookies)
  },
  validatingInput: notAnOutcome,
  checkingRateLimit: notAnOutcome,
  checkingCallbackRateLimit: notAnOutcome,
  discovering: notAnOutcome,
  authorizing: notAnOutcome,
  checkingResponse: notAnOutcome,
  exchangingCode: notAnOutcome,
  validatingTokens: notAnOutcome,
  fetchingProfile: notAnOutcome,
  resolvingAccount: notAnOutcome,
  ...signInTailInFlight,
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
export async function oauthSignIn(options: AuthOptions, provider: InternalProvider<OAuthProviderConfig>, cookies: Cookie[]): Promise<ResponseInternal> {
  const flowId = newFlowId()
  const run: OAuthRun = { limiter: requestLimiter(options), flowId }
  const flow = await runFlow(oauthMachine, oauthEffects(options, provider, run, cookies), { inspect: options.config.inspect, id: actorIdOf(flowId) })
  return outcomes[flow.value as OAuthState]({ options, provider, context: flow.context, snapshot: flow, run, cookies, flowId })
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
async function forwardFromProxy(options: AuthOptions, provider: InternalProvider<OAuthProviderConfig>, params: URLSearchParams): Promise<ResponseInternal | undefined> {
  const proxy = redirectProxyOf(options, provider)
  const state = params.get("state")
  if (!proxy || !state || new URL(proxy).origin !== options.origin) return undefined
  let payload: { origin?: unknown } | null
  try {
    payload = (await decode({ token: state, secret: options.secret, salt: stateSalt })) as { origin?: unknown } | null
  } catch (error) {
    throw new InvalidCheck("State could not be decoded", { cause: { err: asError(error) } })
  }
  const target = typeof payload?.origin === "string" ? parsedUrl(payload.origin) : undefined
  if (!target || target.origin === options.origin) return undefined
  if (!isConfiguredOrigin(target.origin, options.config)) {
    throw new InvalidCheck(`The redirect proxy does not forward to ${target.origin}: list that origin in \`trustedOrigins\` to allow it`)
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
export async function oauthCallback(options: AuthOptions, provider: InternalProvider<OAuthProviderConfig>, cookies: Cookie[]): Promise<ResponseInternal> {
  const params = callbackParams(options, provider)
  const forwarded = await forwardFromProxy(options, provider, params)
  if (forwarded) return forwarded

  const flowCookies = flowCookiesOf(options, provider)
  cookies.push(...clearFlowCookies(flowCookies))
  let restored: { snapshot: SnapshotFrom<typeof oauthMachine>; flowId: string }
  try {
    restored = await unsealFlow(options.request.cookies, bindingOf(provider), options.secret, flowCookies, replayStoreOf(options.config, options.logger))
  } catch (error) {
    // The replay store's database failing is a server fault, answered and logged as every adapter failure is.
    if (error instanceof AdapterError) throw withCookies(error, cookies)
    throw withCookies(new OAuthCallbackError("The sign-in flow could not be resumed", { cause: { err: asError(error), provider: provider.id } }), cookies)
  }
  const run: OAuthRun = { params, limiter: requestLimiter(options) }
  const policy = { adapter: options.adapter !== undefined, emailLinking: provider.allowDangerousEmailAccountLinking === true, ...signInTailPolicy(options) }
  const flow = await runFlow(oauthMachine, oauthEffects(options, provider, run, cookies), {
    inspect: options.config.inspect,
    snapshot: restored.snapshot,
    resume: { type: "callback.received", policy },
    id: actorIdOf(restored.flowId),
  })
  return outcomes[flow.value as OAuthState]({ options, provider, context: flow.context, snapshot: flow, run, cookies, flowId: restored.flowId })
}
