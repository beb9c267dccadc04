import { CallbackRouteError, CredentialsSignin, InvalidProvider, MissingCSRF, AuthError } from "../core/errors.js"
import { randomUUID } from "../core/crypto.js"
import { signInTailPolicy, type SignInOutcome } from "./issue-session.js"
import { sessionEffects } from "./session-effects.js"
import { secondFactorOutcomes } from "./second-factor/tail.js"
import { askSignIn, resolveRedirect } from "./sign-in-callback.js"
import { credentialsSignInMachine, type CredentialsSignInContext } from "../machines/credentials-sign-in.js"
import { outcomeOf, type FlowOutcomes } from "./flow-outcomes.js"
import { errorAnswer, type Answer } from "../core/answer.js"
import { csrfCheckEffect } from "../machines/csrf-check.js"
import { runFlowWithCookies, type FlowEffects } from "../machines/run-flow.js"
import { rateLimitedError, readCredentials, requestLimiter } from "./rate-limit.js"
import type { AuthOptions } from "../core/options.js"
import type { Account, Cookie, CredentialsConfig, User } from "../types.js"
import { asError } from "../core/as-error.js"

/**
 * `/callback/<id>`: finishes a sign-in. Credentials providers are served on POST, through the
 * credentials sign-in machine; OAuth and OIDC providers on GET and POST, through the OAuth callback
 * machine; email providers on GET and POST, through the email verification machine; WebAuthn
 * providers on POST, through the WebAuthn machine (resumed from the challenge cookie).
 *
 * @example
 * ```ts
 * // POST /auth/callback/credentials  (csrfToken, username, password) → 302 to the callback URL
 * ```
 */
export async function callbackAction(options: AuthOptions, cookies: Cookie[]): Promise<Answer> {
  const provider = options.provider!
  if (provider.type === "credentials" && options.request.method === "POST") {
    // Password accounts authflow keeps itself: their machine is loaded when the first sign-in arrives.
    if (provider.passwordAccounts) return (await import("./password/sign-in.js")).passwordSignIn(options, provider, cookies)
    return credentialsCallback(options, provider, cookies)
  }
  // OAuth, email and WebAuthn are loaded when their first callback arrives: a credentials sign-in never loads them.
  if (provider.type === "oauth" || provider.type === "oidc") return (await import("./oauth.js")).oauthCallback(options, provider, cookies)
  if (provider.type === "email") {
    // A code typed on the code page (a `code` field, no link token) resumes the flow sealed in this browser.
    const { method, body, query } = options.request
    if (method === "POST" && typeof body?.code === "string" && !query.token) return (await import("./email-code.js")).emailCodeCallback(options, provider, cookies)
    return (await import("./email.js")).emailCallback(options, provider, cookies)
  }
  if (provider.type === "webauthn" && options.request.method === "POST") return (await import("./webauthn.js")).webAuthnCallback(options, provider, cookies)
  return errorAnswer(new InvalidProvider(`Callback for provider type (${provider.type}) is not supported`))
}

function authorizeRequest(options: AuthOptions, credentials: Record<string, unknown>): Request {
  const headers = new Headers(options.request.headers)
  headers.delete("content-length")
  headers.set("content-type", "application/json")
  return new Request(options.request.url, { method: "POST", headers, body: JSON.stringify(credentials) })
}

/** What the credentials flow's effects share within one request. */
interface CredentialsRun {
  /** The account handed to the `signIn` callback, and the same object to the session. */
  account?: Account
}

async function credentialsCallback(options: AuthOptions, provider: CredentialsConfig, cookies: Cookie[]): Promise<Answer> {
  const credentials = options.request.body ?? {}
  const run: CredentialsRun = {}
  const limiter = requestLimiter(options)
  const signedIn = (user: User): SignInOutcome => ({ user, account: run.account! })
  const effects: FlowEffects<typeof credentialsSignInMachine> = {
    ...csrfCheckEffect(options),
    readCredentials: () => readCredentials(options, provider, credentials),
    checkRateLimit: ({ rateLimitIdentity }) => limiter.count("credentials", rateLimitIdentity),
    refundAttempt: async () => {
      await limiter.refund()
      return { type: "attempt.refunded" }
    },
    authorize: async () => {
      try {
        const user = await provider.authorize(credentials, authorizeRequest(options, credentials))
        if (!user || typeof user !== "object") return { type: "authorize.returned", user: null }
        const id = user.id === undefined || user.id === null || user.id === "" ? randomUUID() : String(user.id)
        return { type: "authorize.returned", user: { ...user, id } }
      } catch (error) {
        return { type: "authorize.threw", error }
      }
    },
    askSignIn: async ({ user }) => {
      run.account = { providerAccountId: user!.id!, type: "credentials", provider: provider.id }
      return askSignIn(options, { user: user!, account: run.account, credentials })
    },
    resolveRedirect: ({ requestedRedirect }) => resolveRedirect(options, requestedRedirect!),
    ...sessionEffects(options, ({ user }: CredentialsSignInContext) => signedIn(user!)),
  }
  const failed = ({ error }: CredentialsSignInContext) => errorAnswer(error instanceof AuthError ? error : new CallbackRouteError(asError(error), { cause: { provider: provider.id } }))
  // A refused sign-in sets no cookie: the error page or the sign-in form answers it.
  const outcomes: FlowOutcomes<typeof credentialsSignInMachine, Answer | Promise<Answer>> = {
    signedIn: (_, minted) => ({ redirect: options.callbackUrl, cookies: [...cookies, ...minted] }),
    redirected: ({ redirectTo }) => ({ redirect: redirectTo!, cookies }),
    csrfRejected: () => errorAnswer(new MissingCSRF("CSRF token was missing during an action callback")),
    credentialsMalformed: ({ nonStringFields }) =>
      errorAnswer(new CredentialsSignin(`Credentials field(s) ${nonStringFields!.join(", ")} of provider "${provider.id}" must be strings`, { cause: { provider: provider.id, fields: nonStringFields } })),
    credentialsRejected: ({ error }) => errorAnswer(error instanceof CredentialsSignin ? error : new CredentialsSignin()),
    accessDenied: ({ error }) => errorAnswer(asError(error)),
    authorizeFailed: failed,
    sessionFailed: failed,
    rateLimited: (context) => errorAnswer(rateLimitedError("credentials", context, limiter)),
    ...secondFactorOutcomes(options, cookies, ({ user }: CredentialsSignInContext) => signedIn(user!), () => options.callbackUrl),
  }
  return outcomeOf(await runFlowWithCookies(credentialsSignInMachine, effects, { inspect: options.config.inspect, input: { policy: signInTailPolicy(options) } }), outcomes)
}
