import { AuthError, CallbackRouteError, EmailSignInError, MissingCSRF, Verification } from "../core/errors.js"
import { randomHex, randomUUID, sha256Hex } from "../core/crypto.js"
import { emitEvent } from "../core/events.js"
import { askSignIn, resolveRedirect } from "./sign-in-callback.js"
import { newUserRedirect, signInTailPolicy, type SignInOutcome } from "./issue-session.js"
import { sessionEffects } from "./session-effects.js"
import { sessionStoreOf } from "../core/session-cookie.js"
import { emailSignInMachine, type EmailSignInContext } from "../machines/email-sign-in.js"
import { emailVerificationMachine, type EmailUserPlan, type EmailVerificationContext } from "../machines/email-verification.js"
import { csrfCheckEffect } from "../machines/csrf-check.js"
import { runFlow, type FlowEffects } from "../machines/run-flow.js"
import { outcomeOf, type FlowOutcomes } from "./flow-outcomes.js"
import { errorAnswer, type Answer } from "../core/answer.js"
import type { StopStateOf } from "../machines/flow-machine.js"
import { rateLimitedError, requestLimiter } from "./rate-limit.js"
import { defaultNormalizer, type EmailConfig } from "../providers/email-config.js"
import type { AuthOptions } from "../core/options.js"
import type { Account, Cookie, InternalProvider, ResponseInternal } from "../types.js"
import type { AdapterUser } from "../adapters.js"
import { asError } from "../core/as-error.js"

const oneDay = 24 * 60 * 60

/** Tokens are stored as `sha256(token + secret)`: a database leak reveals no usable link. */
function hashToken(options: AuthOptions, provider: EmailConfig, token: string): string {
  const secret = provider.secret ?? options.secret
  return sha256Hex(`${token}${Array.isArray(secret) ? secret.join(",") : secret}`)
}

function emailAccount(provider: EmailConfig, email: string, userId: string | undefined): Account {
  return { providerAccountId: email, type: "email", provider: provider.id, ...(userId && { userId }) }
}

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

/** What the email sign-in's effects share within one request: the link, which never enters the machine. */
interface EmailSignInRun {
  /** The token mailed in the link, and its hash as stored. */
  token?: { plain: string; hashed: string; expires: Date }
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
  const run: EmailSignInRun = {}
  const limiter = requestLimiter(options)
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
    lookUpUser: async ({ email }) => {
      try {
        return { type: "user.lookedUp", user: (await options.adapter?.getUserByEmail?.(email!)) ?? null }
      } catch (error) {
        return { type: "lookup.failed", error }
      }
    },
    askSignIn: ({ email, user }) => {
      // Nobody has this address yet: the callback sees the user the link would create.
      const asked = user ?? { id: randomUUID(), email: email!, emailVerified: null }
      return askSignIn(options, { user: asked, account: emailAccount(provider, email!, asked.id), email: { verificationRequest: true } })
    },
    storeToken: async ({ email }) => {
      try {
        const plain = (await provider.generateVerificationToken?.()) ?? randomHex(32)
        const token = { plain, hashed: hashToken(options, provider, plain), expires: new Date(Date.now() + (provider.maxAge ?? oneDay) * 1000) }
        // Token first, then the mail (Auth.js does both at once): no link is ever mailed whose token
        // could not be stored, and none can be followed before its token exists.
        await options.adapter!.createVerificationToken!({ identifier: email!, token: token.hashed, expires: token.expires })
        run.token = token
        return { type: "token.stored" }
      } catch (error) {
        return { type: "store.failed", error }
      }
    },
    sendLink: async ({ email }) => {
      const { plain, expires } = run.token!
      try {
        const url = `${provider.callbackUrl}?${new URLSearchParams({ callbackUrl: options.callbackUrl, token: plain, email: email! })}`
        await provider.sendVerificationRequest({ identifier: email!, token: plain, expires, url, provider, theme: options.theme, request: originalRequest(options) })
        return { type: "link.sent" }
      } catch (error) {
        return { type: "send.failed", error }
      }
    },
    resolveRedirect: ({ requestedRedirect }) => resolveRedirect(options, requestedRedirect!),
    revokeToken: async ({ email }) => {
      try {
        await options.adapter!.useVerificationToken!({ identifier: email!, token: run.token!.hashed })
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
  const outcomes: FlowOutcomes<typeof emailSignInMachine, Answer> = {
    linkSent: () => ({ redirect: `${options.baseUrl}/verify-request?${new URLSearchParams({ provider: provider.id, type: "email" })}`, cookies }),
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
  return outcomeOf(await runFlow(emailSignInMachine, effects, { inspect: options.config.inspect }), outcomes)
}

/** What the email verification's effects share within one request: the user as written, which the session is issued for. */
interface EmailVerificationRun {
  user?: AdapterUser
  /** The token row the link used, to put back if the sign-in fails after it (never in the machine's context). */
  usedToken?: { identifier: string; token: string; expires: Date }
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
  const adapter = options.adapter!
  const run: EmailVerificationRun = {}
  /** The user the flow signs in: as written once persisted, else who has the address, else who the link creates. */
  const userOf = ({ user, identifier }: EmailVerificationContext): AdapterUser => (run.user ??= user ?? { id: randomUUID(), email: identifier!, emailVerified: null })
  const signedIn = (context: EmailVerificationContext): SignInOutcome => {
    const user = userOf(context)
    return { user, account: emailAccount(provider, context.identifier!, user.id), isNewUser: context.isNewUser ?? false }
  }
  const effects: FlowEffects<typeof emailVerificationMachine> = {
    readLink: () => ({ type: "link.read", hasToken: Boolean(token), ...(email !== undefined && { email }) }),
    useToken: async ({ linkEmail }) => {
      try {
        const hashed = hashToken(options, provider, token!)
        const row = await adapter.useVerificationToken!({ identifier: linkEmail ?? "", token: hashed })
        if (row) run.usedToken = { identifier: row.identifier, token: hashed, expires: new Date(row.expires) }
        return { type: "token.used", row: row && { identifier: row.identifier, expires: row.expires }, checkedAt: new Date() }
      } catch (error) {
        return { type: "token.failed", error }
      }
    },
    lookUpUser: async ({ identifier }) => {
      try {
        return { type: "user.lookedUp", user: await adapter.getUserByEmail!(identifier!) }
      } catch (error) {
        return { type: "lookup.failed", error }
      }
    },
    restoreToken: async () => {
      try {
        await adapter.createVerificationToken!(run.usedToken!)
        return { type: "token.restored" }
      } catch (error) {
        return { type: "restore.failed", error }
      }
    },
    askSignIn: (context) => {
      const user = userOf(context)
      return askSignIn(options, { user, account: emailAccount(provider, context.identifier!, user.id) })
    },
    resolveRedirect: ({ requestedRedirect }) => resolveRedirect(options, requestedRedirect!),
    persistUser: async (context) => {
      const writes: Record<EmailUserPlan, (user: AdapterUser) => Promise<boolean>> = {
        verifyExistingUser: async (user) => {
          await endOtherUsersSession(options, user.id)
          run.user = await adapter.updateUser!({ id: user.id, emailVerified: new Date() })
          await emitEvent(options.config, options.logger, "updateUser", { user: run.user })
          return false
        },
        createUser: async (user) => {
          run.user = await adapter.createUser!({ ...user, emailVerified: new Date() })
          await emitEvent(options.config, options.logger, "createUser", { user: run.user })
          return true
        },
      }
      try {
        return { type: "user.persisted", isNewUser: await writes[context.plan!](userOf(context)) }
      } catch (error) {
        return { type: "persist.failed", error }
      }
    },
    ...sessionEffects(options, cookies, signedIn),
  }
  /** A refused link: the Verification page, with the machine's state as the cause the logs show. */
  const refused = (refusal: StopStateOf<typeof emailVerificationMachine>, message: string) => () => errorAnswer(new Verification(message, { cause: { refusal, provider: provider.id } }))
  const failed = ({ error }: EmailVerificationContext) => errorAnswer(error instanceof AuthError ? error : new CallbackRouteError(asError(error), { cause: { provider: provider.id } }))
  const outcomes: FlowOutcomes<typeof emailVerificationMachine, Answer> = {
    signedIn: () => ({ redirect: options.callbackUrl, cookies }),
    signedInNewUser: () => ({ redirect: newUserRedirect(options, options.callbackUrl), cookies }),
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
  return outcomeOf(await runFlow(emailVerificationMachine, effects, { inspect: options.config.inspect, input: { policy: signInTailPolicy(options) } }), outcomes)
}

/** With database sessions, a browser signed in as someone else is signed out of that session first. */
async function endOtherUsersSession(options: AuthOptions, userId: string): Promise<void> {
  if (options.session.strategy !== "database") return
  const token = sessionStoreOf(options).value
  if (!token) return
  const current = await options.adapter!.getSessionAndUser?.(token)
  if (current && current.user.id !== userId) await options.adapter!.deleteSession!(token)
}
