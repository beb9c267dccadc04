/**
 * The types every floor of authflow speaks: users, accounts, sessions, JWTs, cookies, pages, themes,
 * the logger, the provider options every provider shares and the credentials provider, the internal
 * response. They name nothing above them; `authflow/types` re-exports them all, with the
 * configuration's types (`src/types.ts`), which name the adapter, the providers and the stores.
 *
 * @example
 * ```ts
 * import type { Session, User } from "authflow/types"
 * ```
 * @module
 */

/** A value, or a promise of it. */
export type Awaitable<T> = T | PromiseLike<T>

/** The kinds of provider authflow serves. `webauthn` is experimental. */
export type ProviderType = "oauth" | "oidc" | "email" | "credentials" | "webauthn"

/** The actions served under `basePath`: `<basePath>/<action>[/<providerId>]`. */
export type AuthAction =
  | "callback"
  | "csrf"
  | "error"
  | "providers"
  | "session"
  | "signin"
  | "signout"
  | "verify-request"
  | "webauthn-options"
  | "backchannel-logout"
  | "second-factor"
  | "factors"
  | "step-up"
  | "verify-email"
  | "change-email"
  | "confirm-email"
  | "signup"
  | "forgot-password"
  | "reset-password"
  | "change-password"
  | "sessions"

/** A user as providers and callbacks see it. */
export interface User {
  id?: string
  name?: string | null
  email?: string | null
  image?: string | null
}

/** A link between a user and a provider account. */
export interface Account {
  provider: string
  providerAccountId: string
  type: ProviderType
  userId?: string
  access_token?: string
  expires_at?: number
  expires_in?: number
  id_token?: string
  refresh_token?: string
  scope?: string
  token_type?: Lowercase<string>
  authorization_details?: unknown[]
  [key: string]: unknown
}

/** Standard claims returned by an OAuth/OIDC provider; any other claim is allowed. */
export interface Profile {
  sub?: string | null
  id?: string | null
  name?: string | null
  email?: string | null
  email_verified?: boolean | null
  picture?: unknown
  [claim: string]: unknown
}

/** The session every client sees by default. */
export interface DefaultSession {
  user?: User
  /** ISO date at which the session expires. */
  expires: string
}

/** The session returned by `/session`; extend it through the `session` callback. */
export interface Session extends DefaultSession {
  [key: string]: unknown
}

/** The payload of the session JWT. `name`, `email`, `picture`, `sub` are set at sign-in. */
export interface JWT extends Record<string, unknown> {
  name?: string | null
  email?: string | null
  picture?: string | null
  sub?: string
  iat?: number
  exp?: number
  jti?: string
}

/** Parameters of a JWT encoder. */
export interface JWTEncodeParams<Payload = JWT> {
  /** The claims to encrypt. */
  token?: Payload
  /** Key derivation salt: the session cookie's name. */
  salt: string
  /** The secret; with an array the first one encrypts. */
  secret: string | string[]
  /** Lifetime in seconds; default 30 days. */
  maxAge?: number
}

/** Parameters of a JWT decoder. */
export interface JWTDecodeParams {
  token?: string
  salt: string
  /** With an array, the secret whose key id matches the token is used. */
  secret: string | string[]
}

/** Session JWT options. */
export interface JWTOptions {
  /**
   * Lifetime of the session JWT in seconds.
   * @default `session.maxAge`
   */
  maxAge?: number
  /**
   * Replace the built-in JWE encoder.
   * @default the built-in encoder: `dir` + `A256CBC-HS512`, the key derived with HKDF-SHA256 from the secret, salted with the cookie's name (Auth.js v5's format)
   */
  encode?: (params: JWTEncodeParams) => Awaitable<string>
  /**
   * Replace the built-in JWE decoder.
   * @default the built-in decoder, which reads what the built-in encoder (and Auth.js v5) writes
   */
  decode?: (params: JWTDecodeParams) => Awaitable<JWT | null>
}

/** Options of one cookie. */
export interface CookieOption {
  name: string
  options: CookieSerializeOptions
}

/** Attributes of a `Set-Cookie` header. */
export interface CookieSerializeOptions {
  domain?: string
  expires?: Date
  httpOnly?: boolean
  maxAge?: number
  partitioned?: boolean
  path?: string
  priority?: "low" | "medium" | "high"
  sameSite?: boolean | "lax" | "strict" | "none"
  secure?: boolean
}

/** Per-cookie overrides; missing options keep their defaults. */
export interface CookiesOptions {
  sessionToken: CookieOption
  callbackUrl: CookieOption
  csrfToken: CookieOption
  pkceCodeVerifier: CookieOption
  state: CookieOption
  nonce: CookieOption
  webauthnChallenge: CookieOption
  /** authflow's sealed flow cookie (the OAuth check cookies of Auth.js, in one). */
  flow: CookieOption
  /**
   * Binds a sealed flow to the browser that started it: a random value set beside the flow cookie
   * and checked when the flow resumes. `__Host-` prefixed when secure, so that no sibling subdomain
   * can plant it.
   */
  flowBinding: CookieOption
  /**
   * A sign-in waiting for its second factor: the second-factor flow's snapshot, sealed for 5
   * minutes and bound to the browser like the `flow` cookie (its binding is `flowBinding`'s name
   * with `.second-factor`). No session cookie is set until the factor passes.
   */
  secondFactor: CookieOption
  /**
   * "Remember this device": a sealed cookie naming the user and a fingerprint of their second
   * factors, so that a sign-in from this browser skips the second factor until it expires (30 days
   * by default) or the user's factors change. `__Host-` prefixed when secure.
   */
  trustedDevice: CookieOption
  /**
   * When and how the signed-in user last authenticated (`authTime`, `amr`): a sealed cookie naming
   * the user, set beside the session cookie when `secondFactor` is on, and renewed by a step-up
   * (`/step-up`) without touching the session. It lives as long as the session. `__Host-` prefixed
   * when secure.
   */
  authContext: CookieOption
  /**
   * With `multiSession` on: the browser's other signed-in accounts (their session JWTs, or their
   * database session tokens), sealed and chunked like the session cookie. The active account stays
   * in `sessionToken`.
   */
  otherSessions: CookieOption
  /**
   * With `multiSession` on: set for 15 minutes by `GET /signin?addAccount=1`, so that the sign-in
   * that follows keeps the signed-in account beside the new one instead of replacing it.
   */
  addAccount: CookieOption
}

/** Partial overrides of {@link CookiesOptions}. */
export type CookiesOverrides = {
  [K in keyof CookiesOptions]?: { name?: string; options?: CookieSerializeOptions }
}

/** Custom pages: each a path or URL that replaces the built-in page. */
export interface PagesOptions {
  /**
   * The sign-in page: `GET {basePath}/signin` redirects there, and failed sign-ins come back to it with `?error=`.
   * @default the built-in sign-in page, one form per provider
   */
  signIn?: string
  /**
   * The sign-out confirmation page.
   * @default the built-in sign-out page
   */
  signOut?: string
  /**
   * The error page, shown with `?error=<type>`; it must not require a session (`ErrorPageLoop`).
   * @default the built-in error page
   */
  error?: string
  /**
   * The "check your email" page after an email sign-in link was sent.
   * @default the built-in verify-request page
   */
  verifyRequest?: string
  /**
   * Where a user who was just created is sent after the first sign-in.
   * @default none: new users go where the sign-in was going
   */
  newUser?: string
  /**
   * The second-factor page: a sign-in waiting for its second factor is sent there with `methods`
   * (comma-separated `totp`, `backup`, `email`) and, after a refused code, `error` and `reason`;
   * its forms POST `csrfToken`, `method`, `code` (and `remember`, or `send=true` to email a code)
   * to `{basePath}/second-factor`.
   * @default the built-in second-factor page
   */
  secondFactor?: string
}

/** Look of the built-in pages. */
export interface Theme {
  /**
   * Light, dark, or following the browser.
   * @default "auto"
   */
  colorScheme?: "auto" | "dark" | "light"
  /**
   * URL of a logo shown above the forms.
   * @default none
   */
  logo?: string
  /**
   * Accent colour of the built-in pages (any CSS colour).
   * @default the built-in pages' own accent
   */
  brandColor?: string
  /**
   * Text colour of buttons drawn in `brandColor`.
   * @default the built-in pages' own button text colour
   */
  buttonText?: string
}

/** Session options. */
export interface SessionOptions {
  /**
   * An encrypted JWT in the cookie, or a session row through the adapter.
   * @default `"jwt"` without an adapter, `"database"` with one
   */
  strategy?: "jwt" | "database"
  /**
   * Seconds until an idle session expires; every session read extends it.
   * @default 2592000 (30 days)
   */
  maxAge?: number
  /**
   * Database sessions: seconds between writes of the new expiry (`0` writes on every read). JWT
   * sessions behind a framework proxy: how old an unchanged session gets before it is re-issued.
   * @default 86400 (1 day)
   */
  updateAge?: number
  /**
   * Makes the token of a database session.
   * @default `crypto.randomUUID()`
   */
  generateSessionToken?: () => string
  /**
   * A hard cap on a session's life, in seconds since sign-in, on top of the sliding `maxAge`:
   * however often it is used, a session ends this long after the user signed in. Both strategies.
   * A session made before the cap was set (or by Auth.js) does not slide any more and ends at its
   * current expiry. With database sessions, the token then carries the sign-in time
   * (`<generateSessionToken()>.<milliseconds in base 36>.<provider>`).
   *
   * @default undefined: no cap, a session lives as long as it is used within `maxAge`
   * @example
   * ```ts
   * Auth(request, { ...config, session: { maxAge: 24 * 60 * 60, absoluteMaxAge: 7 * 24 * 60 * 60 } })
   * ```
   */
  absoluteMaxAge?: number
}

/** A logger level function. */
export type LogFunction = (...args: unknown[]) => void

/** Log sink; each level given replaces the built-in one. */
export interface LoggerInstance {
  error: (error: Error) => void
  warn: (code: WarningCode) => void
  debug: (message: string, metadata?: unknown) => void
}

/** Warnings authflow may log. */
export type WarningCode =
  | "debug-enabled"
  | "csrf-disabled"
  | "env-url-basepath-redundant"
  | "env-url-basepath-mismatch"
  | "experimental-webauthn"
  | "provider-logout-unavailable"
  | "rate-limit-client-unknown"
  | "replay-store-per-process"
  | "weak-secret"

/** What triggered a `jwt` callback. */
export type JWTTrigger = "signIn" | "signUp" | "update"

/** An input of a credentials form. */
export interface CredentialInput {
  label?: string
  type?: string
  placeholder?: string
  [attribute: string]: unknown
}

/** Look of a provider's button. */
export interface ProviderStyle {
  logo?: string
  bg?: string
  text?: string
  brandColor?: string
}

/** Fields every provider has. */
export interface CommonProviderOptions {
  id: string
  name: string
  type: ProviderType
  style?: ProviderStyle
  /** The user's options, merged over the provider's defaults. */
  options?: Record<string, unknown>
}

/** A credentials provider: checks what the user typed. */
export interface CredentialsConfig<C extends Record<string, CredentialInput> = Record<string, CredentialInput>>
  extends CommonProviderOptions {
  type: "credentials"
  /** The form fields shown on the built-in sign-in page. */
  credentials: C
  /**
   * Return the user for valid credentials, `null` to refuse, or throw a `CredentialsSignin`.
   * The user's `id` becomes the account's `providerAccountId`.
   */
  authorize: (credentials: Partial<Record<keyof C, unknown>>, request: Request) => Awaitable<User | null>
  /**
   * authflow only, set by the Password provider: accounts authflow keeps itself (an email and a
   * hashed password), signed in through the password sign-in machine instead of `authorize`.
   */
  passwordAccounts?: PasswordAccountsOptions
}

/**
 * A mail the Password provider asks `sendMail` to send. Links expire (`expires`) and work once.
 *
 * @example
 * ```ts
 * const sendMail = async (mail: PasswordMail) => {
 *   if (mail.kind === "reset-password") await transport.sendMail({ to: mail.to, subject: "Reset your password", text: mail.url })
 * }
 * ```
 */
export type PasswordMail =
  /**
   * An account's address, to verify by following `url` (`verifyBy: "link"`, the default), by typing
   * the 6-digit `code` in the browser that signed up or signed in (`"code"`: `url` is then the page
   * where it is typed), or either (`"both"`). The code lives 10 minutes, the link a day: `expires`
   * is the link's when the mail carries one, the code's otherwise.
   */
  | { kind: "verify-email"; to: string; url: string; expires: Date; code?: string }
  /** Someone signed up with (or asked to move their account to) an address that has an account: its owner is told, and pointed at signing in or resetting. */
  | { kind: "email-taken"; to: string; signInUrl: string; resetUrl?: string }
  /**
   * A reset of a forgotten password, by following `url` (`resetBy: "link"`, the default: one hour,
   * once, void once the password changes), by typing the 6-digit `code` with the new password in
   * the browser that asked (`"code"`: `url` is then the page where it is typed; 10 minutes, 5
   * tries), or either (`"both"`). `expires` is the link's when the mail carries one, the code's
   * otherwise.
   */
  | { kind: "reset-password"; to: string; url: string; expires: Date; code?: string }
  /** The password of the account at `to` was changed or reset. */
  | { kind: "password-changed"; to: string }
  /** The account's address changes from `from` to `to` once `url` (sent to the new address) is followed. */
  | { kind: "change-email"; to: string; from: string; url: string; expires: Date }
  /** The account that was at `to` moved to `newEmail`: the old address is told, in case it was not its owner's doing. */
  | { kind: "email-changed"; to: string; newEmail: string }

/**
 * Options of the Password provider's accounts.
 *
 * @example
 * ```ts
 * const options: PasswordAccountsOptions = { verification: "required" }
 * ```
 */
export interface PasswordAccountsOptions {
  /**
   * Whether a user's email must be verified before they sign in with a password: `"required"`
   * refuses an unverified one (`emailUnverified`); `"optional"` and `"off"` let them in.
   * @default "optional"
   */
  verification?: "required" | "optional" | "off"
  /**
   * How a mailed verification proves the address: a link (`"link"`), a 6-digit code typed in the
   * browser that signed up (`"code"`: the sign-up goes to the code page, and the right code verifies
   * the address and signs the user in; where verification is required, a sign-in of an unverified
   * address mails a fresh code), or both in one mail (`"both"`). A code lives 10 minutes, in the
   * browser that asked for it, and dies after 5 wrong tries.
   * @default "link"
   */
  verifyBy?: "link" | "code" | "both"
  /**
   * How a forgotten password's mail proves the address: a link that opens the new-password form
   * (`"link"`), a 6-digit code typed with the new password on one form in the browser that asked
   * (`"code"`: the forgot form goes on to that page, for an unknown address too), or both in one
   * mail (`"both"`). A code lives 10 minutes, in the browser that asked for it, dies after 5 wrong
   * tries and once the password changes.
   * @default "link"
   */
  resetBy?: "link" | "code" | "both"
  /**
   * Checks a stored hash the built-in verifier does not know (an app's bcrypt hashes, say): `true`
   * signs the user in, and the hash is replaced by one of authflow's.
   * @default none: only authflow's own hashes verify
   */
  verifyLegacyHash?: (password: string, hash: string) => Awaitable<boolean>
  /** Fewest characters (Unicode code points after NFKC) a new password may have (NIST 800-63B). @default 8 */
  minLength?: number
  /** Most characters a new password may have. @default 128 */
  maxLength?: number
  /**
   * Your own check of a new password (a breached-password list, say): `false` refuses it with
   * `SignUpRefused` (`refused-password`). No composition rules are applied.
   * @default none
   */
  checkPassword?: (password: string) => Awaitable<boolean>
  /**
   * How new passwords are hashed: scrypt's cost (`ln`, `r`, `p`) or PBKDF2's `iterations`, and the
   * algorithm (`"pbkdf2-sha256"` for a user table an edge runtime also reads). A stored hash made
   * otherwise is replaced at its next sign-in.
   * @default scrypt with { ln: 17, r: 8, p: 1 } where node:crypto has it, otherwise PBKDF2-SHA256 with 600000 iterations
   */
  hashing?: { algorithm?: "scrypt" | "pbkdf2-sha256"; scrypt?: { ln?: number; r?: number; p?: number }; pbkdf2?: { iterations?: number } }
  /**
   * Sends the mails password accounts need: the link that verifies a new account's address, the
   * notice to the owner of an address someone tried to sign up with again, the reset link, the
   * notice that a password changed, and the link that confirms a new address. Each names its
   * `kind`, the address to send it `to`, and the link `url` where it has one. Required where
   * `verification` is `"required"`; without it, forgotten passwords cannot be reset by mail and
   * addresses cannot be changed.
   * @default none
   */
  sendMail?: (mail: PasswordMail) => Awaitable<void>
  /**
   * Whether a password reset or change ends the user's other sessions: database sessions are
   * deleted (the adapter's `deleteUserSessions`), JWT sessions signed in before the change are
   * refused when next read (through the `revocationStore`). A change keeps the session it was made
   * from. `false` leaves every session as it is.
   * @default true
   */
  endOtherSessions?: boolean
}

/** The internal response `Auth()` returns with `raw`, and that actions produce. */
export interface ResponseInternal<Body = unknown> {
  status?: number
  headers?: Record<string, string>
  body?: Body
  redirect?: string
  cookies?: Cookie[]
}

/** A cookie to set (or, with `maxAge: 0`, to clear). */
export interface Cookie {
  name: string
  value: string
  options: CookieSerializeOptions
}
