import { createActor } from "xstate"
import * as o from "oauth4webapi"
import { AuthError, CallbackRouteError, InvalidCheck, MissingCSRF, OAuthAccountNotLinked, OAuthCallbackError, OAuthSignInError } from "../core/errors.js"
import { withCookies } from "../core/error-cookies.js"
import { FlowCookieRefused, sealFlow, unsealFlow, type FlowBinding, type FlowCookies } from "../core/flow-cookie.js"
import { isConfiguredOrigin } from "../core/origin.js"
import { replayStoreOf } from "../core/replay-store.js"
import { decideSignIn } from "../core/sign-in-callback.js"
import { afterSignIn, issueSession } from "../core/issue-session.js"
import { resolveOAuthUser, signedInUser } from "../core/account-linking.js"
import { authorizationServer } from "../core/oauth/discovery.js"
import { authorizationRequest, usesFormPost } from "../core/oauth/client.js"
import { checkAuthorizationResponse, exchangeCode, fetchProfile, mapProfile, storedAccountFields, type ExchangeResult } from "../core/oauth/callback.js"
import { encode, decode } from "../core/jwt/index.js"
import { oauthSignInMachine, type OAuthFlowChecks } from "../machines/oauth-sign-in.js"
import { oauthCallbackMachine } from "../machines/oauth-callback.js"
import { runFlow, type FlowEffects } from "../machines/run-flow.js"
import type { AuthOptions } from "../core/options.js"
import type { OAuthProviderConfig } from "../providers/oauth.js"
import type { Account, Cookie, InternalProvider, Profile, ResponseInternal, User } from "../types.js"
import type { AdapterUser } from "../adapters.js"

/** Bump when the sign-in machine's waiting state or context change shape: older flow cookies are then refused. */
export const OAUTH_FLOW_VERSION = 2

const stateSalt = "encodedState"
const fifteenMinutes = 15 * 60

function bindingOf(provider: OAuthProviderConfig): FlowBinding {
  const binding: FlowBinding = { machine: oauthSignInMachine, version: OAUTH_FLOW_VERSION, providerId: provider.id }
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

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error))
}

/**
 * POST `/signin/<id>` for an OAuth 2 or OpenID Connect provider: runs the sign-in machine up to its
 * waiting state, seals that snapshot into the flow cookie and sends the user to the provider.
 *
 * @example
 * ```ts
 * // POST /auth/signin/github (csrfToken) → 302 https://github.com/login/oauth/authorize?…&state=…&code_challenge=…
 * ```
 */
export async function oauthSignIn(options: AuthOptions, provider: InternalProvider<OAuthProviderConfig>, cookies: Cookie[]): Promise<ResponseInternal> {
  let server: o.AuthorizationServer | undefined
  let authorizationUrl: URL | undefined
  const proxyRedirectUri = redirectProxyOf(options, provider)
  const effects: FlowEffects<typeof oauthSignInMachine> = {
    checkCsrf: () => ({ type: options.csrfTokenVerified ? "csrf.valid" : "csrf.invalid" }),
    discover: async () => {
      try {
        server = await authorizationServer(provider)
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
        const { url, checks } = await authorizationRequest(provider, server!, proxyRedirectUri ?? provider.callbackUrl, options.request.query, state)
        authorizationUrl = url
        const startedBy = (await signedInUser(options))?.id
        return { type: "authorization.ready", checks: { ...checks, callbackUrl: options.callbackUrl, ...(startedBy !== undefined && { startedBy }) } }
      } catch (error) {
        return { type: "authorization.failed", error }
      }
    },
  }
  const flow = await runFlow(oauthSignInMachine, effects, { inspect: options.config.inspect })
  if (flow.value === "csrfRejected") throw new MissingCSRF("CSRF token was missing during an action signin")
  if (flow.value !== "awaitingCallback") {
    const error = flow.context.error
    throw error instanceof AuthError ? error : new OAuthSignInError(asError(error), { cause: { provider: provider.id } })
  }
  const sealed = await sealFlow(flow, bindingOf(provider), options.secret, flowCookiesOf(options, provider))
  return { redirect: authorizationUrl!.href, cookies: [...cookies, ...sealed] }
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

/** Restores the waiting sign-in flow from its cookie and hands it over: its checks, or a refusal. */
async function resumeSignIn(options: AuthOptions, provider: OAuthProviderConfig, cookies: FlowCookies): Promise<OAuthFlowChecks> {
  const binding = { ...bindingOf(provider), machine: oauthSignInMachine }
  const snapshot = await unsealFlow(options.request.cookies, binding, options.secret, cookies, replayStoreOf(options.config))
  const actor = createActor(oauthSignInMachine, { snapshot, ...(options.config.inspect && { inspect: options.config.inspect }) })
  let failure: unknown
  actor.subscribe({ error: (error) => void (failure = error) })
  actor.start()
  actor.send({ type: "callback.received" })
  const resumed = actor.getSnapshot()
  actor.stop()
  if (failure || resumed.status !== "done") throw new FlowCookieRefused("invalid-state", "the flow could not be resumed", failure instanceof Error ? failure : undefined)
  return resumed.output as OAuthFlowChecks
}

/**
 * GET or POST `/callback/<id>` for an OAuth 2 or OpenID Connect provider: restores the sealed
 * sign-in flow (a missing, expired, tampered or foreign one is refused) and runs the callback
 * machine. The flow cookie is cleared whatever happens.
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
  const fail = (error: unknown): never => {
    throw withCookies(error instanceof AuthError ? error : new CallbackRouteError(asError(error), { cause: { provider: provider.id } }), cookies)
  }

  let checks: OAuthFlowChecks
  try {
    checks = await resumeSignIn(options, provider, flowCookies)
  } catch (error) {
    return fail(new OAuthCallbackError("The sign-in flow could not be resumed", { cause: { err: asError(error), provider: provider.id } }))
  }

  let server: o.AuthorizationServer
  let validParams: URLSearchParams
  let exchange: ExchangeResult
  let profile: Profile
  let user: User
  let account: Account
  let userByAccount: AdapterUser | null = null
  const effects: FlowEffects<typeof oauthCallbackMachine> = {
    validateResponse: async () => {
      try {
        server = await authorizationServer(provider)
      } catch (error) {
        return { type: "response.invalid", error }
      }
      const check = checkAuthorizationResponse(provider, server, params, checks.state)
      if (check.type === "providerError") return { type: "response.providerError", error: check.error }
      if (check.type === "invalid") return { type: "response.invalid", error: check.error }
      validParams = check.params
      return { type: "response.valid" }
    },
    exchangeCode: async () => {
      try {
        exchange = await exchangeCode(provider, server, validParams, checks)
        return { type: "tokens.valid" }
      } catch (error) {
        return { type: "tokens.invalid", error }
      }
    },
    fetchProfile: async () => {
      try {
        profile = await fetchProfile(provider, server, exchange, params)
        ;({ user, account } = await mapProfile(provider, profile, exchange.tokens))
        return { type: "profile.received" }
      } catch (error) {
        return { type: "profile.failed", error }
      }
    },
    lookUpUser: async () => {
      try {
        const adapter = options.adapter
        if (adapter?.getUserByAccount) userByAccount = await adapter.getUserByAccount({ provider: provider.id, providerAccountId: account.providerAccountId })
        return { type: "user.looked-up" }
      } catch (error) {
        return { type: "lookup.failed", error }
      }
    },
    decideSignIn: () => decideSignIn(options, { user: userByAccount ?? user, account, profile }),
    persistUser: async () => {
      try {
        const resolved = await resolveOAuthUser(options, {
          user,
          account,
          profile,
          stored: storedAccountFields(provider, exchange.tokens),
          userByAccount,
          allowEmailLinking: provider.allowDangerousEmailAccountLinking === true,
          startedBy: checks.startedBy,
        })
        user = resolved.user
        return { type: "user.persisted", isNewUser: resolved.isNewUser }
      } catch (error) {
        if (error instanceof OAuthAccountNotLinked) return { type: "account.notLinked", error }
        return { type: "persist.failed", error }
      }
    },
    issueSession: async ({ isNewUser }) => {
      try {
        cookies.push(...(await issueSession(options, { user, account, profile, isNewUser: isNewUser ?? false })))
        return { type: "session.issued" }
      } catch (error) {
        return { type: "session.failed", error }
      }
    },
  }
  const flow = await runFlow(oauthCallbackMachine, effects, { inspect: options.config.inspect })
  const { error, isNewUser, redirectTo } = flow.context
  switch (flow.value) {
    case "signedIn":
      return { redirect: afterSignIn(options, isNewUser, checks.callbackUrl), cookies }
    case "redirected":
      return { redirect: redirectTo!, cookies }
    case "responseRejected":
    case "tokensRejected":
      return fail(new OAuthCallbackError(asError(error), { cause: { provider: provider.id } }))
    case "profileFailed":
      // A userinfo answer that fails validation (another `sub`, an error status) is the provider's
      // response refused, like a bad token response; a throwing `profile()` keeps its own error.
      return fail(error instanceof AuthError ? error : new OAuthCallbackError(asError(error), { cause: { provider: provider.id } }))
    default:
      return fail(error)
  }
}
