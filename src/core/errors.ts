/**
 * The typed errors of authflow. Code switches on `type`, never on `message`.
 *
 * Every class carries a static `type` (the stable string that reaches logs, and URLs when client-safe)
 * and a `kind`: `"signIn"` errors send the user back to the sign-in page, `"error"` ones to the error page.
 *
 * @module
 */
import { asError } from "./as-error.js"

/**
 * The stable identifier of every authflow error: Auth.js v5's, plus those of checks Auth.js does
 * not make (`MissingClientId`, `WeakSecret`) and of authflow's own features (rate limiting, token
 * refresh).
 */
export type ErrorType =
  | "AccessDenied"
  | "AdapterError"
  | "AdapterTimeout"
  | "CallbackRouteError"
  | "ErrorPageLoop"
  | "EventError"
  | "InvalidCallbackUrl"
  | "CredentialsSignin"
  | "InvalidEndpoints"
  | "InvalidCheck"
  | "JWTSessionError"
  | "MissingAdapter"
  | "MissingAdapterMethods"
  | "MissingAuthorize"
  | "MissingClientId"
  | "MissingSecret"
  | "WeakSecret"
  | "OAuthAccountNotLinked"
  | "OAuthCallbackError"
  | "OAuthProfileParseError"
  | "SessionTokenError"
  | "OAuthSignInError"
  | "EmailSignInError"
  | "SignOutError"
  | "UnknownAction"
  | "UnsupportedStrategy"
  | "InvalidProvider"
  | "UntrustedHost"
  | "Verification"
  | "MissingCSRF"
  | "AccountNotLinked"
  | "DuplicateConditionalUI"
  | "MissingWebAuthnAutocomplete"
  | "WebAuthnVerificationError"
  | "ExperimentalFeatureNotEnabled"
  | "RateLimited"
  | "RateLimitStoreError"
  | "RefreshTokenError"
  | "LogoutTokenRefused"
  | "ClientFetchError"
  | "MissingElk"
  | "SecondFactorRefused"
  | "SecondFactorAttemptsExhausted"
  | "SecondFactorUnavailable"
  | "SignUpRefused"
  | "PasswordLinkInvalid"
  | "PasswordLinkExpired"
  | "PasswordCodeInvalid"
  | "PasswordCodeExpired"
  | "EmailChangeConflict"
  | "PasswordResetRefused"
  | "PasswordChangeRefused"
  | "EmailTaken"
  | "PasswordHashUnknownFormat"
  | "PasswordHashMalformed"
  | "PasswordHashUnavailable"
  | "PasswordHashHookFailed"
  | "AccountNotFound"

/** Where an error sends the user: the sign-in page (`signIn`) or the error page (`error`). */
export type ErrorKind = "signIn" | "error"

/** Structured details of an error: the original error, if any, plus whatever the thrower knew. */
export type ErrorCause = Record<string, unknown> & { err?: Error }

/** Options accepted by every authflow error constructor. */
export interface AuthErrorOptions {
  cause?: ErrorCause | Error
}

/**
 * Base class of every authflow error. `type` identifies it; `cause` carries structured details.
 *
 * @example
 * ```ts
 * import { AuthError } from "authflow/errors"
 * try { await doSomething() } catch (e) {
 *   if (e instanceof AuthError && e.type === "AccessDenied") console.log("denied")
 * }
 * ```
 */
export class AuthError extends Error {
  /** The error's stable identifier. */
  static type: ErrorType | "AuthError" = "AuthError"
  /** Where the user is sent when this error ends a request. */
  static kind: ErrorKind = "error"

  declare cause?: ErrorCause

  /** @param message a message, or the options when no message is given */
  constructor(message?: string | Error | AuthErrorOptions, options?: AuthErrorOptions) {
    let text: string | undefined
    let details: AuthErrorOptions | undefined = options
    if (message instanceof Error) {
      text = message.message
      details = { cause: { err: message, ...toCause(options?.cause) } }
    } else if (typeof message === "object" && message !== null) {
      details = message
    } else {
      text = message
    }
    super(text ?? "")
    this.name = new.target.name
    if (details?.cause !== undefined) this.cause = toCause(details.cause)
  }

  /** The error's stable identifier, read from its class. */
  get type(): ErrorType | "AuthError" {
    return (this.constructor as typeof AuthError).type
  }

  /** `"signIn"` or `"error"`, read from its class. */
  get kind(): ErrorKind {
    return (this.constructor as typeof AuthError).kind
  }
}

function toCause(cause: ErrorCause | Error | undefined): ErrorCause {
  if (cause === undefined) return {}
  if (cause instanceof Error) return { err: cause }
  return cause
}

/**
 * Base class of the errors that send the user back to the sign-in page.
 *
 * @example
 * ```ts
 * if (error instanceof SignInError) redirectToSignIn(error.type)
 * ```
 */
export class SignInError extends AuthError {
  static override kind: ErrorKind = "signIn"
}

/**
 * The `signIn` callback returned false, or threw an error that is not an AuthError.
 *
 * @example
 * ```ts
 * callbacks: { signIn: ({ user }) => { if (!user.email?.endsWith("@example.com")) throw new AccessDenied("staff only") ; return true } }
 * ```
 */
export class AccessDenied extends AuthError {
  static override type = "AccessDenied" as const
}

/**
 * An adapter method threw. The original error is `cause.err`.
 *
 * @example
 * ```ts
 * if (error.type === "AdapterError") alertOps(error.cause?.err)
 * ```
 */
export class AdapterError extends AuthError {
  static override type: "AdapterError" | "AdapterTimeout" = "AdapterError"
}

/**
 * An adapter method did not answer within `adapterTimeout` milliseconds. An `AdapterError` too, so
 * code that handles adapter failures handles it; its `cause` names the method and the limit.
 *
 * @example
 * ```ts
 * logger: { error: (e) => { if (e.type === "AdapterTimeout") alertOps(e.cause?.method) } }
 * ```
 */
export class AdapterTimeout extends AdapterError {
  static override type = "AdapterTimeout" as const
}

/**
 * Something unexpected failed while handling a callback request.
 *
 * @example
 * ```ts
 * logger: { error: (e) => { if (e.type === "CallbackRouteError") report(e.cause) } }
 * ```
 */
export class CallbackRouteError extends AuthError {
  static override type = "CallbackRouteError" as const
}

/**
 * The custom error page itself failed, so the built-in page was shown instead.
 *
 * @example
 * ```ts
 * if (error.type === "ErrorPageLoop") console.warn("check pages.error")
 * ```
 */
export class ErrorPageLoop extends AuthError {
  static override type = "ErrorPageLoop" as const
}

/**
 * An event handler threw. Events never break a flow: the error is logged and swallowed.
 *
 * @example
 * ```ts
 * if (error.type === "EventError") console.warn("an audit hook failed", error.cause?.err)
 * ```
 */
export class EventError extends AuthError {
  static override type = "EventError" as const
}

/**
 * The `callbackUrl` query parameter or cookie is not a valid URL.
 *
 * @example
 * ```ts
 * // GET /auth/session?callbackUrl=::not-a-url  → InvalidCallbackUrl, logged; 400 JSON (the error page for pages)
 * ```
 */
export class InvalidCallbackUrl extends AuthError {
  static override type = "InvalidCallbackUrl" as const
}

/**
 * Thrown from a credentials provider's `authorize` to refuse a sign-in. `code` reaches the URL, so it
 * must never hint at which field was wrong.
 *
 * @example
 * ```ts
 * class InvalidLogin extends CredentialsSignin { code = "invalid_login" }
 * authorize: async (c) => { const user = await check(c); if (!user) throw new InvalidLogin(); return user }
 * ```
 */
export class CredentialsSignin extends SignInError {
  static override type = "CredentialsSignin" as const
  /** Set as the `code` query parameter of the redirect. Keep it generic. */
  code = "credentials"
}

/**
 * An OAuth provider is configured with neither an `issuer` nor one of its endpoints.
 *
 * @example
 * ```ts
 * // { id: "x", type: "oauth", clientId: "…" } with no issuer and no token URL → InvalidEndpoints
 * ```
 */
export class InvalidEndpoints extends AuthError {
  static override type = "InvalidEndpoints" as const
}

/**
 * A check bound to the flow (state, PKCE verifier, nonce, flow cookie) is missing or does not match.
 *
 * @example
 * ```ts
 * if (error.type === "InvalidCheck") console.warn("callback without its flow cookie")
 * ```
 */
export class InvalidCheck extends AuthError {
  static override type = "InvalidCheck" as const
}

/**
 * The session JWT could not be decoded or the `jwt`/`session` callback threw. The session reads as null.
 *
 * @example
 * ```ts
 * if (error.type === "JWTSessionError") metrics.increment("bad_session_cookie")
 * ```
 */
export class JWTSessionError extends AuthError {
  static override type = "JWTSessionError" as const
}

/**
 * A feature that needs an adapter (database sessions, email) is configured without one.
 *
 * @example
 * ```ts
 * Auth(request, { providers: [], session: { strategy: "database" }, secret }) // → MissingAdapter
 * ```
 */
export class MissingAdapter extends AuthError {
  static override type = "MissingAdapter" as const
}

/**
 * The adapter lacks methods the configuration needs.
 *
 * @example
 * ```ts
 * // session.strategy "database" with an adapter lacking getSessionAndUser → MissingAdapterMethods
 * ```
 */
export class MissingAdapterMethods extends AuthError {
  static override type = "MissingAdapterMethods" as const
}

/**
 * A credentials provider has no `authorize` function.
 *
 * @example
 * ```ts
 * providers: [{ id: "pw", type: "credentials", name: "Password", credentials: {} }] // → MissingAuthorize
 * ```
 */
export class MissingAuthorize extends AuthError {
  static override type = "MissingAuthorize" as const
}

/**
 * An OAuth or OIDC provider has no `clientId` (a configuration error, found before any request is
 * served). Set `AUTH_<ID>_ID` and call `setEnvDefaults` (every framework wrapper does), or pass
 * `clientId` to the provider. A client secret is not required: public clients (PKCE with
 * `client: { token_endpoint_auth_method: "none" }`) have none. `cause.provider` is the provider's id.
 *
 * @example
 * ```ts
 * providers: [GitHub] // without AUTH_GITHUB_ID
 * // logged: Provider "github" has no clientId: pass clientId to GitHub(), or call setEnvDefaults(process.env, config) before Auth() to read AUTH_GITHUB_ID
 * ```
 */
export class MissingClientId extends AuthError {
  static override type = "MissingClientId" as const
}

/**
 * No secret is configured. Set `AUTH_SECRET` or `secret`.
 *
 * @example
 * ```ts
 * // openssl rand -base64 33  → AUTH_SECRET=...
 * ```
 */
export class MissingSecret extends AuthError {
  static override type = "MissingSecret" as const
}

/**
 * A secret is shorter than 32 characters outside development and test (a configuration error,
 * found before any request is served): short secrets can be guessed, and whoever guesses one can
 * forge sessions. Every secret of a rotation array counts. Generate one with `npx authflow secret`
 * (44 characters). In development a short secret is only warned about (`weak-secret`).
 *
 * @example
 * ```ts
 * // NODE_ENV=production, AUTH_SECRET=x
 * // logged: Secret too short: the secret has 1 character, and outside development every secret
 * //         needs at least 32 (NODE_ENV is "production"): generate one with `npx authflow secret`
 * ```
 */
export class WeakSecret extends AuthError {
  static override type = "WeakSecret" as const
}

/**
 * The OAuth account belongs to another user, or its email is taken and automatic linking is off.
 *
 * @example
 * ```ts
 * // → /auth/signin?error=OAuthAccountNotLinked
 * ```
 */
export class OAuthAccountNotLinked extends SignInError {
  static override type = "OAuthAccountNotLinked" as const
}

/**
 * The OAuth provider answered the callback with an `error` parameter, or the response failed validation.
 *
 * @example
 * ```ts
 * // user pressed "Cancel" at the provider → /auth/signin?error=OAuthCallbackError
 * ```
 */
export class OAuthCallbackError extends SignInError {
  static override type = "OAuthCallbackError" as const
}

/**
 * A provider's `profile()` threw or returned something unusable.
 *
 * @example
 * ```ts
 * if (error.type === "OAuthProfileParseError") console.error(error.cause)
 * ```
 */
export class OAuthProfileParseError extends AuthError {
  static override type = "OAuthProfileParseError" as const
}

/**
 * A database session could not be read through the adapter.
 *
 * @example
 * ```ts
 * if (error.type === "SessionTokenError") console.error("session lookup failed", error.cause)
 * ```
 */
export class SessionTokenError extends AuthError {
  static override type = "SessionTokenError" as const
}

/**
 * The authorization request to an OAuth provider could not be built.
 *
 * @example
 * ```ts
 * // discovery failed at POST /auth/signin/<id> → /auth/signin?error=OAuthSignInError (as Configuration)
 * ```
 */
export class OAuthSignInError extends SignInError {
  static override type = "OAuthSignInError" as const
}

/**
 * The verification email could not be sent or its token not stored.
 *
 * @example
 * ```ts
 * if (error.type === "EmailSignInError") console.error("mailer down", error.cause)
 * ```
 */
export class EmailSignInError extends SignInError {
  static override type = "EmailSignInError" as const
}

/**
 * Reading or ending the session during sign-out failed. The cookies are cleared anyway.
 *
 * @example
 * ```ts
 * if (error.type === "SignOutError") console.error(error.cause)
 * ```
 */
export class SignOutError extends AuthError {
  static override type = "SignOutError" as const
}

/**
 * The path, method or action of a request is not one authflow serves.
 *
 * @example
 * ```ts
 * // DELETE /auth/session → 400 "Bad request."
 * ```
 */
export class UnknownAction extends AuthError {
  static override type = "UnknownAction" as const
}

/**
 * The configuration asks for a session strategy its providers cannot use.
 *
 * @example
 * ```ts
 * // an unknown session.strategy such as "cookie" → UnsupportedStrategy
 * ```
 */
export class UnsupportedStrategy extends AuthError {
  static override type = "UnsupportedStrategy" as const
}

/**
 * The provider cannot serve this action (a credentials provider on an OAuth route, for instance).
 *
 * @example
 * ```ts
 * // GET /auth/callback/credentials → InvalidProvider
 * ```
 */
export class InvalidProvider extends AuthError {
  static override type = "InvalidProvider" as const
}

/**
 * `trustHost` is not set, so the request's host cannot be relied on.
 *
 * @example
 * ```ts
 * Auth(request, { ...config, trustHost: true })
 * ```
 */
export class UntrustedHost extends AuthError {
  static override type = "UntrustedHost" as const
}

/**
 * A verification token (the email link) is missing, expired, used already or for another address.
 *
 * @example
 * ```ts
 * // → /auth/error?error=Verification (403)
 * ```
 */
export class Verification extends AuthError {
  static override type = "Verification" as const
}

/**
 * A state-changing POST came without a valid CSRF token.
 *
 * @example
 * ```ts
 * // POST /auth/signout without csrfToken → /auth/signin?error=MissingCSRF
 * ```
 */
export class MissingCSRF extends SignInError {
  static override type = "MissingCSRF" as const
}

/**
 * A WebAuthn credential does not belong to the account it was presented for.
 *
 * @example
 * ```ts
 * // → /auth/signin?error=AccountNotLinked
 * ```
 */
export class AccountNotLinked extends SignInError {
  static override type = "AccountNotLinked" as const
}

/**
 * More than one WebAuthn provider enables conditional UI.
 *
 * @example
 * ```ts
 * // two passkey providers with enableConditionalUI: true → DuplicateConditionalUI
 * ```
 */
export class DuplicateConditionalUI extends AuthError {
  static override type = "DuplicateConditionalUI" as const
}

/**
 * A WebAuthn provider with conditional UI has no form field with `autocomplete` containing `webauthn`.
 *
 * @example
 * ```ts
 * formFields: { email: { label: "Email", autocomplete: "username webauthn" } }
 * ```
 */
export class MissingWebAuthnAutocomplete extends AuthError {
  static override type = "MissingWebAuthnAutocomplete" as const
}

/**
 * A WebAuthn registration or assertion failed verification.
 *
 * @example
 * ```ts
 * // → /auth/error?error=WebAuthnVerificationError
 * ```
 */
export class WebAuthnVerificationError extends AuthError {
  static override type = "WebAuthnVerificationError" as const
}

/**
 * An experimental feature (WebAuthn) is used without being enabled in `experimental`.
 *
 * @example
 * ```ts
 * experimental: { enableWebAuthn: true }
 * ```
 */
export class ExperimentalFeatureNotEnabled extends AuthError {
  static override type = "ExperimentalFeatureNotEnabled" as const
}

/**
 * A request went over one of the rate limits (`rateLimit`), or the limiter's store failed and
 * `rateLimit.onStoreError` is `"closed"`. Answered with 429 and `Retry-After` (JSON clients), or a
 * redirect to the sign-in page with `error=RateLimited` (page flows). `cause` carries the `route`,
 * the `rule` (`"ip"`, `"identifier"` or `"store"`) and `retryAfter` in seconds.
 *
 * @example
 * ```ts
 * try { await signIn("credentials", form) } catch (e) {
 *   if (e instanceof RateLimited) return { error: `Try again in ${e.retryAfter} s` }
 * }
 * ```
 */
export class RateLimited extends SignInError {
  static override type = "RateLimited" as const

  /** Seconds until the limit that refused the request lets requests through again. */
  get retryAfter(): number {
    const seconds = this.cause?.retryAfter
    return typeof seconds === "number" && seconds > 0 ? Math.ceil(seconds) : 60
  }
}

/**
 * The rate limiter's store (Redis, or your own) failed. Logged; the request then goes on
 * (`rateLimit.onStoreError: "open"`, the default) or is refused as `RateLimited` (`"closed"`).
 *
 * @example
 * ```ts
 * logger: { error: (e) => { if (e.type === "RateLimitStoreError") page(e) } }
 * ```
 */
export class RateLimitStoreError extends AuthError {
  static override type = "RateLimitStoreError" as const
}

/** Why a second factor was refused (`cause.reason` of {@link SecondFactorRefused}). */
export type SecondFactorRefusal =
  | "wrong-code"
  | "replayed-code"
  | "unknown-backup-code"
  | "expired-email-code"
  | "no-email-code"
  | "method-unavailable"
  /** The waiting sign-in is gone: its 5 minutes passed, or its cookie is missing. */
  | "expired-flow"
  /** The waiting sign-in's cookie was resumed before, or belongs to another browser, or does not open. */
  | "foreign-flow"

/**
 * A code typed for the second factor was refused: wrong, used before (a replay), a backup code
 * that is not (or no longer) the user's, or an emailed code that expired; or the sign-in waiting
 * for it is gone (expired, resumed before, from another browser). `cause.reason` says which. The
 * sign-in waits for another code while attempts are left; a sign-in that is gone starts again.
 *
 * @example
 * ```ts
 * if (error instanceof SecondFactorRefused && error.cause?.reason === "replayed-code") showWaitForNextCode()
 * ```
 */
export class SecondFactorRefused extends SignInError {
  static override type = "SecondFactorRefused" as const
}

/**
 * A sign-in used up its attempts at the second factor (`secondFactor.maxAttempts`): it ends, and
 * the user signs in again from the first factor.
 *
 * @example
 * ```ts
 * // GET /auth/signin?error=SecondFactorAttemptsExhausted
 * ```
 */
export class SecondFactorAttemptsExhausted extends SignInError {
  static override type = "SecondFactorAttemptsExhausted" as const
}

/**
 * The configuration requires a second factor of this user (`secondFactor.required`), who has no
 * authenticator app or backup codes, and no code can be emailed (no `secondFactor.sendCode`, no
 * address, or the first factor was the email itself).
 *
 * @example
 * ```ts
 * // GET /auth/error?error=SecondFactorUnavailable
 * ```
 */
export class SecondFactorUnavailable extends AuthError {
  static override type = "SecondFactorUnavailable" as const
}

/**
 * A sign-up with the Password provider was refused before anything was stored: `cause.reason` says
 * why (`invalid-email`, `too-short`, `too-long`, `not-a-string`, `refused-password`).
 *
 * @example
 * ```ts
 * // GET /auth/signin?error=SignUpRefused&reason=too-short
 * ```
 */
export class SignUpRefused extends SignInError {
  static override type = "SignUpRefused" as const
}

/**
 * A link the Password provider mailed (verify an address, confirm a new one) cannot be used:
 * missing, not sealed by this server for this purpose, tampered with, or no longer bound to the
 * account (its address changed since, or the user is gone). `cause.reason` says which.
 *
 * @example
 * ```ts
 * // GET /auth/signin?error=PasswordLinkInvalid
 * ```
 */
export class PasswordLinkInvalid extends SignInError {
  static override type = "PasswordLinkInvalid" as const
}

/**
 * A link the Password provider mailed has expired (a verification or an address change lives a
 * day): ask for a new one.
 *
 * @example
 * ```ts
 * // GET /auth/signin?error=PasswordLinkExpired
 * ```
 */
export class PasswordLinkExpired extends SignInError {
  static override type = "PasswordLinkExpired" as const
}

/**
 * A verification code the Password provider mailed (`verifyBy: "code"` or `"both"`) cannot be
 * used any more: the fifth wrong code was typed, the browser holds no flow waiting for it (typed
 * in another browser), its flow was resumed before, or the account is no longer at the address.
 * `cause.refusal` says which. Signing in again mails a fresh code. A reset code (`resetBy: "code"`)
 * that cannot be used any more is refused with it too, and sends the browser back to the
 * forgot-password page (`/auth/forgot-password/<id>?error=PasswordCodeInvalid`) to ask for a new one.
 *
 * @example
 * ```ts
 * // GET /auth/signin?error=PasswordCodeInvalid
 * ```
 */
export class PasswordCodeInvalid extends SignInError {
  static override type = "PasswordCodeInvalid" as const
}

/**
 * A verification code the Password provider mailed was typed after its 10 minutes: signing in
 * again mails a fresh one. An expired reset code sends the browser back to the forgot-password
 * page instead (`/auth/forgot-password/<id>?error=PasswordCodeExpired`).
 *
 * @example
 * ```ts
 * // GET /auth/signin?error=PasswordCodeExpired
 * ```
 */
export class PasswordCodeExpired extends SignInError {
  static override type = "PasswordCodeExpired" as const
}

/**
 * A confirmed email change could not be made: the new address has become another account's since
 * the link was mailed. The account keeps its address.
 *
 * @example
 * ```ts
 * // GET /auth/signin?error=EmailChangeConflict
 * ```
 */
export class EmailChangeConflict extends SignInError {
  static override type = "EmailChangeConflict" as const
}

/**
 * A sign-up with the Password provider named an email that already has a user, where verification
 * is `"optional"` or `"off"`: this tells who has an account (see the Password guide). Where it is
 * `"required"`, a taken email is answered as a new one and its owner is mailed instead.
 *
 * @example
 * ```ts
 * // GET /auth/signin?error=EmailTaken
 * ```
 */
export class EmailTaken extends SignInError {
  static override type = "EmailTaken" as const
}

/**
 * A password reset's new password was refused: too short or too long (in code points after NFKC),
 * not a string, or refused by the app's `checkPassword`. `cause.reason` says which (`too-short`,
 * `too-long`, `not-a-string`, `refused-password`). The link still works: choose another password.
 *
 * @example
 * ```ts
 * // POST /auth/reset-password/password → /auth/reset-password/password?token=…&error=PasswordResetRefused
 * ```
 */
export class PasswordResetRefused extends SignInError {
  static override type = "PasswordResetRefused" as const
}

/**
 * A signed-in password change's new password was refused, for the reasons of
 * {@link PasswordResetRefused} (`cause.reason`). The password stays as it was.
 *
 * @example
 * ```ts
 * // POST /auth/change-password/password → /auth/change-password/password?error=PasswordChangeRefused
 * ```
 */
export class PasswordChangeRefused extends SignInError {
  static override type = "PasswordChangeRefused" as const
}

/**
 * With `multiSession` on: the account asked for (`POST /sessions/switch`, or `POST /signout` with
 * `account`) is not one of this browser's signed-in accounts (never was, signed out, or expired).
 *
 * @example
 * ```ts
 * // POST /auth/sessions/switch  account=unknown → /auth/error?error=AccountNotFound (JSON: 404)
 * ```
 */
export class AccountNotFound extends AuthError {
  static override type = "AccountNotFound" as const
}

const clientSafeTypes: ReadonlySet<string> = new Set<ErrorType>([
  "AccountNotFound",
  "CredentialsSignin",
  "OAuthAccountNotLinked",
  "OAuthCallbackError",
  "AccessDenied",
  "Verification",
  "MissingCSRF",
  "AccountNotLinked",
  "WebAuthnVerificationError",
  "RateLimited",
  "SecondFactorRefused",
  "SecondFactorAttemptsExhausted",
  "SecondFactorUnavailable",
  "SignUpRefused",
  "PasswordLinkInvalid",
  "PasswordLinkExpired",
  "PasswordCodeInvalid",
  "PasswordCodeExpired",
  "EmailChangeConflict",
  "EmailTaken",
])

/**
 * True when the error's type may be shown to the user (put in a URL). Every other error is reported
 * to the user as `Configuration`.
 *
 * @example
 * ```ts
 * const code = isClientSafeError(e) ? e.type : "Configuration"
 * ```
 */
export function isClientSafeError(error: unknown): error is AuthError {
  return error instanceof AuthError && clientSafeTypes.has(error.type)
}

/**
 * An access token could not be refreshed (the grant was refused, the provider or store was
 * unreachable, or the new tokens could not be stored). The user stays signed in; the session reads
 * with `error: "RefreshTokenError"`, and `cause.reason` says which.
 *
 * @example
 * ```ts
 * events: { tokenRefreshFailed: ({ error }) => audit(error.type, error.cause?.reason) } // "RefreshTokenError", "revoked"
 * ```
 */
export class RefreshTokenError extends AuthError {
  static override type = "RefreshTokenError" as const
}

/** Why a back-channel logout token was refused: each a distinct, stable reason, logged and answered as `error_description`. */
export type LogoutTokenRefusal =
  | "missing"
  | "signature"
  | "issuer"
  | "audience"
  | "expired"
  | "issued-at"
  | "events"
  | "nonce"
  | "subject"
  | "jti"
  | "replayed"
  | "provider"

/**
 * A back-channel logout token was refused (POST `/backchannel-logout/<provider>` answered 400).
 * Logged; `reason` (also `cause.reason`) says which check refused it.
 *
 * @example
 * ```ts
 * logger: { error: (e) => { if (e.type === "LogoutTokenRefused") audit("logout token refused", e.cause?.reason) } }
 * ```
 * @see https://openid.net/specs/openid-connect-backchannel-1_0.html#Validation
 */
export class LogoutTokenRefused extends AuthError {
  static override type = "LogoutTokenRefused" as const

  /**
   * @param reason - The check that refused the token.
   * @param detail - What the check found, for the log.
   */
  constructor(reason: LogoutTokenRefusal, detail?: string) {
    super(`Back-channel logout token refused: ${reason}${detail ? ` (${detail})` : ""}`, { cause: { reason } })
  }

  /** The check that refused the token. */
  get reason(): LogoutTokenRefusal {
    return this.cause!.reason as LogoutTokenRefusal
  }
}

/**
 * The browser client's request to an auth route did not answer JSON, or answered an HTTP error
 * (`authflow/client`, `authflow/react`). `status` is the HTTP status, when there was an answer.
 *
 * @example
 * ```ts
 * try { await signOut() } catch (e) {
 *   if (e instanceof ClientFetchError) console.warn(`auth route answered ${e.status}`)
 * }
 * ```
 */
export class ClientFetchError extends AuthError {
  static override type = "ClientFetchError" as const
  // Spelt out: the app's bundler minifies the browser client, and with it the class's own name.
  override name = "ClientFetchError"

  /**
   * @param message - Which URL answered what.
   * @param status - The answer's HTTP status.
   */
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message)
  }
}

/**
 * The inspector's diagrams need elkjs, an optional peer dependency of authflow, and it is not
 * installed (`authflow/inspect`'s `layoutMachine`, the inspector's diagram view). The import's
 * error is `cause.err`.
 *
 * @example
 * ```ts
 * await layoutMachine(description).catch((error) => {
 *   if (error instanceof MissingElk) console.error(error.message) // "… run `npm install elkjs`"
 * })
 * ```
 */
export class MissingElk extends AuthError {
  static override type = "MissingElk" as const
  // Spelt out, as before it joined the hierarchy: a bundled app may minify the class's own name.
  override name = "MissingElk"

  /** @param cause - Why elkjs could not be imported. */
  constructor(cause: unknown) {
    super("The inspector draws its diagrams with elkjs, an optional peer dependency of authflow: run `npm install elkjs`", { cause: asError(cause) })
  }
}
