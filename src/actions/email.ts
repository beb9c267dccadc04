import { AuthError, CallbackRouteError, EmailSignInError, MissingCSRF, Verification } from "../core/errors.js"
import { MESSAGE_AREAS } from "../core/i18n/english.js"
import { requestTranslator } from "../core/i18n/load.js"
import { emailAccount, emailAdapter, emailUserEffects, hashToken, signingIn } from "./email-user.js"
import { randomHex, randomUUID, sha256Hex } from "../core/crypto.js"
import { emitEvent } from "../core/events.js"
import { askSignIn, resolveRedirect } from "./sign-in-callback.js"
import { newUserRedirect, signInTailPolicy, type SignInOutcome } from "./issue-session.js"
import { sessionEffects } from "./session-effects.js"
import { secondFactorOutcomes } from "./second-factor/tail.js"
import { sessionStoreOf } from "../core/session-cookie.js"
import { emailSignInMachine, type EmailSignInContext } from "../machines/email-sign-in.js"
import { emailVerificationMachine, type EmailUserPlan, type EmailVerificationContext } from "../machines/email-verification.js"
import { csrfCheckEffect } from "../machines/csrf-check.js"
import { runFlow, runFlowWithCookies, type FlowEffects } from "../machines/run-flow.js"
import { Concealed } from "../core/concealed.js"
import { mintEmailedCode } from "./emailed-code.js"
import { emailCodePage } from "./email-code-cookies.js"
import { outcomeOf, type FlowOutcomes } from "./flow-outcomes.js"
import { errorAnswer, type Answer } from "../core/answer.js"
import type { StopStateOf } from "../machines/flow-machine.js"
import { rateLimitedError, requestLimiter } from "./rate-limit.js"
import { defaultNormalizer, type EmailConfig } from "../providers/email-config.js"
import type { AuthOptions } from "../core/options.js"
import type { Account, Cookie, InternalProvider, ResponseInternal } from "../types.js"
import type { Adapter, AdapterUser } from "../adapters.js"
import { asError } from "../core/as-error.js"

const oneDay = 24 * 60 * 60

/** The grammar's `problem`, when it is what refused the address. */
function problemOf(error: unknown): { problem?: unknown } {
  const cause = error instanceof Error ? error.cause : undefined
  return typeof cause === "object" && cause !== null && "problem" in cause ? { problem: cause.problem } : {}
}

/** The web `Request` handed to `sendVerificationRequest`, rebuilt from what the engine parsed. */
function originalRequest(options: AuthOptions): Request {
  const headers = new Headers(options.request.headers)
  headers.delete("content-length")
  return new Request(options.request.url, { method: options.request.method, headers })
}

/** The address a flow's context holds once the machine accepted it (its effects run only after that). */
function addressOf(context: { email?: string | undefined }): string {
  if (context.email === undefined) throw new Error("The email flow has no address yet")
  return context.email
}

/**
 * POST `/signin/<id>` for an email provider: runs the email sign-in machine. A malformed address
 * sends the user back to the sign-in page with `error=InvalidEmail` (and the address, to correct
 * it); a token store or mailer failure with `error=EmailSignin`; success goes to the
 * verify-request page.
 *
 * @example
 * ```ts
 * // POST /auth/signin/email (csrfToken, email) → 302 /auth/verify-request?provider=email&type=email
 * ```
 */
export async function emailSignIn(options: AuthOptions, provider: InternalProvider<EmailConfig>, cookies: Cookie[]): Promise<Answer> {
  const typed = options.request.body?.email
  const limiter = requestLimiter(options)
  const codePage = emailCodePage(options.baseUrl, provider.id)
  const effects: FlowEffects<typeof emailSignInMachine> = {
    ...csrfCheckEffect(options),
    normalizeEmail: () => {
      try {
        const normalized = (provider.normalizeIdentifier ?? defaultNormalizer)(typeof typed === "string" ? typed : "")
        return { type: "email.normalized", normalized }
      } catch (error) {
        return { type: "normalizer.threw", error }
      }
    },
    checkRateLimit: ({ email }) => limiter.count("email", email),
    lookUpUser: async (context) => {
      try {
        return { type: "user.lookedUp", user: (await options.adapter?.getUserByEmail?.(addressOf(context))) ?? null }
      } catch (error) {
        return { type: "lookup.failed", error }
      }
    },
    askSignIn: (context) => {
      const email = addressOf(context)
      // Nobody has this address yet: the callback sees the user the link would create.
      const asked = context.user ?? { id: randomUUID(), email, emailVerified: null }
      return askSignIn(options, { user: asked, account: emailAccount(provider, email, asked.id), email: { verificationRequest: true } })
    },
    storeToken: async (context) => {
      try {
        const token = (await provider.generateVerificationToken?.()) ?? randomHex(32)
        const expires = new Date(Date.now() + (provider.maxAge ?? oneDay) * 1000)
        // Token first, then the mail (Auth.js does both at once): no link is ever mailed whose token
        // could not be stored, and none can be followed before its token exists.
        await emailAdapter(options).createVerificationToken({ identifier: addressOf(context), token: hashToken(options, provider, token), expires })
        return { type: "token.stored", mailedToken: new Concealed({ token, expires }) }
      } catch (error) {
        return { type: "store.failed", error }
      }
    },
    makeCode: async () => {
      const { code, codeHash, expiresAt } = await mintEmailedCode(options.secret)
      return { type: "code.made", code, hash: codeHash, expiresAt }
    },
    sendLink: async (context) => {
      try {
        const email = addressOf(context)
        const mailed = context.mailedToken?.reveal()
        const code = context.mailedCode?.reveal()
        if (!mailed && !code) throw new Error("No token was stored for the link")
        // Without a link, the mail's `url` is the page where the code is typed.
        const url = mailed ? `${provider.callbackUrl}?${new URLSearchParams({ callbackUrl: options.callbackUrl, token: mailed.token, email })}` : codePage
        const expires = mailed?.expires ?? new Date(context.codeExpiresAt!)
        // Every area: `sendVerificationRequest` is given a `Translator`, which writes every message.
        const translator = await requestTranslator(options.config.i18n, options.request, MESSAGE_AREAS)
        await provider.sendVerificationRequest({ identifier: email, token: mailed?.token ?? "", expires, url, ...(code !== undefined && { code }), provider, theme: options.theme, request: originalRequest(options), locale: translator.locale, translator })
        return { type: "link.sent" }
      } catch (error) {
        return { type: "send.failed", error }
      }
    },
    resolveRedirect: ({ requestedRedirect }) => resolveRedirect(options, requestedRedirect ?? ""),
    revokeToken: async (context) => {
      try {
        const mailed = context.mailedToken?.reveal()
        if (!mailed) throw new Error("No token was stored for the link")
        await emailAdapter(options).useVerificationToken({ identifier: addressOf(context), token: hashToken(options, provider, mailed.token) })
        return { type: "token.revoked" }
      } catch (error) {
        return { type: "revoke.failed", error }
      }
    },
  }
  const signInPage = options.pages.signIn ?? `${options.basePath}/signin`
  const back = (params: Record<string, string>) => `${options.origin}${signInPage}${signInPage.includes("?") ? "&" : "?"}${new URLSearchParams(params)}`
  const mailFailed = ({ error }: EmailSignInContext): ResponseInternal => {
    options.logger.error(new EmailSignInError(asError(error), { cause: { provider: provider.id } }))
    return { redirect: back({ error: "EmailSignin" }), cookies }
  }
  const outcomes: FlowOutcomes<typeof emailSignInMachine, Answer | Promise<Answer>> = {
    linkSent: () => ({ redirect: `${options.baseUrl}/verify-request?${new URLSearchParams({ provider: provider.id, type: "email" })}`, cookies }),
    // The code is typed in this browser: its flow is sealed here, and the browser goes to the code page.
    codeSent: async (context) => {
      const mailed = context.mailedToken?.reveal()
      const start = { identifier: addressOf(context), codeHash: context.codeHash!, expiresAt: context.codeExpiresAt!, callbackUrl: options.callbackUrl, ...(mailed && { linkTokenHash: hashToken(options, provider, mailed.token) }) }
      return (await import("./email-code.js")).startEmailCode(options, provider, cookies, start, codePage)
    },
    csrfRejected: () => errorAnswer(new MissingCSRF("CSRF token was missing during an action signin")),
    emailRejected: ({ error, problem }) => {
      // Refused by the grammar (the machine's guard), or by the normaliser (which may say why).
      const reason = problem !== undefined ? { reason: "Invalid email address format.", problem } : { reason: asError(error).message, ...problemOf(error) }
      options.logger.debug("email-rejected", reason)
      return { redirect: back({ error: "InvalidEmail", ...(typeof typed === "string" && { email: typed.slice(0, 320) }) }), cookies }
    },
    // The adapter failed before the callback could decide: AdapterError (logged), Configuration.
    lookupFailed: ({ error }) => errorAnswer(asError(error)),
    accessDenied: ({ error }) => errorAnswer(asError(error)),
    redirected: ({ redirectTo }) => ({ redirect: redirectTo!, cookies }),
    storeFailed: mailFailed,
    sendFailed: mailFailed,
    rateLimited: (context) => errorAnswer(rateLimitedError("email", context, limiter)),
  }
  return outcomeOf(await runFlow(emailSignInMachine, effects, { inspect: options.config.inspect, input: { code: provider.code ?? false } }), outcomes)
}

/**
 * GET or POST `/callback/<id>?token&email` for an email provider: runs the email verification
 * machine. A link without a token, and an unknown, used, expired or mismatched one, each end in
 * their own state of the machine and all on the Verification error page (403).
 *
 * @example
 * ```ts
 * // GET /auth/callback/email?callbackUrl=…&token=…&email=… → 302 to the callback URL with the session cookie
 * ```
 */
export async function emailCallback(options: AuthOptions, provider: InternalProvider<EmailConfig>, cookies: Cookie[]): Promise<Answer> {
  const { token, email } = options.request.query
  const adapter = emailAdapter(options)
  /** The link's token as stored: hashed. */
  const hashedToken = () => hashToken(options, provider, token ?? "")
  const signedIn = (context: EmailVerificationContext) => signingIn(provider, context)
  const effects: FlowEffects<typeof emailVerificationMachine> = {
    readLink: () => ({ type: "link.read", hasToken: Boolean(token), ...(email !== undefined && { email }) }),
    useToken: async ({ linkEmail }) => {
      try {
        const row = await adapter.useVerificationToken({ identifier: linkEmail ?? "", token: hashedToken() })
        return { type: "token.used", row: row && { identifier: row.identifier, expires: row.expires }, checkedAt: new Date() }
      } catch (error) {
        return { type: "token.failed", error }
      }
    },
    ...emailUserEffects(options, provider),
    // The token row the link used goes back as it was: the same hash, address and expiry.
    restoreToken: async ({ identifier, tokenExpires }) => {
      try {
        if (identifier === undefined || tokenExpires === undefined) throw new Error("The link's token was not used")
        await adapter.createVerificationToken({ identifier, token: hashedToken(), expires: tokenExpires })
        return { type: "token.restored" }
      } catch (error) {
        return { type: "restore.failed", error }
      }
    },
    ...sessionEffects(options, signedIn),
  }
  /** A refused link: the Verification page, with the machine's state as the cause the logs show. */
  const refused = (refusal: StopStateOf<typeof emailVerificationMachine>, message: string) => () => errorAnswer(new Verification(message, { cause: { refusal, provider: provider.id } }))
  const failed = ({ error }: EmailVerificationContext) => errorAnswer(error instanceof AuthError ? error : new CallbackRouteError(asError(error), { cause: { provider: provider.id } }))
  const outcomes: FlowOutcomes<typeof emailVerificationMachine, Answer | Promise<Answer>> = {
    signedIn: (_, minted) => ({ redirect: options.callbackUrl, cookies: [...cookies, ...minted] }),
    signedInNewUser: (_, minted) => ({ redirect: newUserRedirect(options, options.callbackUrl), cookies: [...cookies, ...minted] }),
    ...secondFactorOutcomes(options, cookies, signedIn, () => options.callbackUrl),
    redirected: ({ redirectTo }) => ({ redirect: redirectTo!, cookies }),
    linkIncomplete: refused("linkIncomplete", "The link has no token"),
    tokenUnknown: refused("tokenUnknown", "The link is unknown or was used already"),
    tokenExpired: refused("tokenExpired", "The link has expired"),
    identifierMismatch: refused("identifierMismatch", "The link is for another address"),
    identifierInvalid: refused("identifierInvalid", "The link is for an address outside the email grammar"),
    // A failing database is a server problem (Configuration), not an invalid link.
    tokenLookupFailed: ({ error }) => errorAnswer(error instanceof AuthError ? error : new Verification(asError(error))),
    accessDenied: failed,
    lookupFailed: failed,
    persistFailed: failed,
    sessionFailed: failed,
  }
  return outcomeOf(await runFlowWithCookies(emailVerificationMachine, effects, { inspect: options.config.inspect, input: { policy: signInTailPolicy(options) } }), outcomes)
}

