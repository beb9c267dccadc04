/**
 * The public types of authflow: configuration, providers, callbacks, events, sessions.
 *
 * @example
 * ```ts
 * import type { AuthConfig, Session } from "authflow/types"
 * ```
 * @module
 */
import type { InspectionEvent, Observer } from "xstate"
import type { Awaitable, User, Account, Profile, DefaultSession, Session, JWT, JWTOptions, CookiesOverrides, PagesOptions, Theme, SessionOptions, LoggerInstance, JWTTrigger, CredentialsConfig } from "./base-types.js"
export type * from "./base-types.js"
import type { AuthError } from "./core/errors.js"
import type { Adapter, AdapterSession, AdapterUser } from "./adapters.js"
import type { OAuthConfig, OIDCConfig } from "./providers/oauth.js"
import type { EmailConfig } from "./providers/email-config.js"
import type { WebAuthnConfig } from "./providers/webauthn-config.js"
export type { WebAuthnConfig } from "./providers/webauthn-config.js"
import type { ReplayStore } from "./core/replay-store.js"
import type { RevocationStore } from "./core/revocation-store.js"
import type { RateLimitOptions, RateLimitedMessage } from "./core/rate-limit/limiter.js"
export type { RateLimitOptions, RateLimitedMessage, RateLimitRoute, RateLimitRule, RouteLimits } from "./core/rate-limit/limiter.js"
import type { RefreshStore } from "./core/refresh-store.js"
import type { SecondFactorOptions } from "./core/second-factor-options.js"
export type { SecondFactorOptions, SendSecondFactorCodeParams, TotpAlgorithm, TotpOptions } from "./core/second-factor-options.js"
import type { RefreshFailure } from "./core/refresh-store.js"
import type { I18nOptions } from "./core/i18n/options.js"
export type { I18nOptions, LocaleRequest } from "./core/i18n/options.js"
export type { Catalog, MessageKey, Messages } from "./core/i18n/messages.js"
export type { DurationUnit, MessageParams, Translator } from "./core/i18n/translator.js"
export type { ShippedLocale } from "./core/i18n/locale.js"

/** Arguments of the `signIn` callback. */
export interface SignInCallbackParams {
  user: User | AdapterUser
  account?: Account | null
  profile?: Profile
  /** The submitted credentials (credentials provider). */
  credentials?: Record<string, unknown>
  /** `{ verificationRequest: true }` when an email link is being requested. */
  email?: { verificationRequest?: boolean }
}

/** Arguments of the `jwt` callback. */
export interface JWTCallbackParams {
  token: JWT
  user?: User | AdapterUser
  account?: Account | null
  profile?: Profile
  /** @deprecated use `trigger === "signUp"` */
  isNewUser?: boolean
  trigger?: JWTTrigger
  /** Data sent by the client with a session update: validate before use. */
  session?: unknown
}

/** Arguments of the `session` callback (JWT strategy: `token`; database strategy: `user`). */
export interface SessionCallbackParams {
  /**
   * JWT strategy: the default session. Database strategy: the session row with its user, where
   * `expires` is the row's `Date` at run time (it serialises to the same ISO string).
   */
  session: Session & Partial<Pick<AdapterSession, "sessionToken" | "userId">>
  token: JWT
  user: AdapterUser
  newSession?: unknown
  trigger?: "update"
}

/** Callbacks: they decide outcomes. Each given one replaces the default. */
export interface CallbacksOptions {
  /**
   * Allow (`true`), refuse (`false`: `AccessDenied`) or redirect (a URL) a sign-in.
   * @default allow every sign-in
   */
  signIn: (params: SignInCallbackParams) => Awaitable<boolean | string>
  /**
   * Where to send the user after sign-in and sign-out.
   * @default relative or same-origin URLs only, resolved as a browser would; anything else goes to the site's root
   */
  redirect: (params: { url: string; baseUrl: string }) => Awaitable<string>
  /**
   * Shape the session returned to clients (`GET /session`, `auth()`).
   * @default the user's name, email and image, and the expiry
   */
  session: (params: SessionCallbackParams) => Awaitable<Session | DefaultSession>
  /**
   * Shape the session JWT; `trigger` is `signIn`, `signUp` or `update`. Returning `null` ends the session.
   * @default the token unchanged
   */
  jwt: (params: JWTCallbackParams) => Awaitable<JWT | null>
}

/** Events: they observe only. A throwing event is logged and ignored. */
export interface EventCallbacks {
  signIn: (message: { user: User; account?: Account | null; profile?: Profile; isNewUser?: boolean }) => Awaitable<void>
  signOut: (message: { token: JWT | null } | { session: AdapterSession | null | undefined | void }) => Awaitable<void>
  createUser: (message: { user: User }) => Awaitable<void>
  updateUser: (message: { user: User }) => Awaitable<void>
  linkAccount: (message: { user: User | AdapterUser; account: Account; profile: User | AdapterUser }) => Awaitable<void>
  session: (message: { session: Session; token?: JWT }) => Awaitable<void>
  /**
   * A request was refused by the rate limiter (`rateLimit`), for audit logs: the route group, the
   * budget exceeded (`"store"` when the store failed and the limiter fails closed), the client's
   * address key and the identifier when known, and the seconds until it may retry. Optional, like
   * every event: configurations written for Auth.js need no change.
   *
   * @example
   * ```ts
   * events: { rateLimited: ({ route, rule, ip, identifier }) => audit.write("rate-limited", { route, rule, ip, identifier }) }
   * ```
   */
  rateLimited: (message: RateLimitedMessage) => Awaitable<void>
  /** An access token was refreshed (once per refresh grant, not per session read that got its result). */
  tokenRefreshed: (message: { provider: string; userId?: string; providerAccountId?: string; expiresAt?: number }) => Awaitable<void>
  /**
   * Refreshing an access token failed: `reason` is `revoked` (the provider refused the refresh
   * token), `unavailable` (provider or store unreachable), `no-refresh-token` or `not-persisted`.
   * The user stays signed in and the session reads with `error: "RefreshTokenError"`.
   */
  tokenRefreshFailed: (message: { provider: string; userId?: string; providerAccountId?: string; reason: RefreshFailure; error: AuthError }) => Awaitable<void>
}

/**
 * Access-token refresh (`AuthConfig.refresh`): when a provider gave a refresh token and an expiry,
 * the access token is refreshed on the session read before it expires, once however many reads
 * arrive together.
 *
 * @example
 * ```ts
 * const refresh: RefreshOptions = { skew: 120, store: redisRefreshStore(redis) }
 * ```
 */
export interface RefreshOptions {
  /**
   * Refresh the tokens of every OAuth/OIDC provider; a provider's own `refresh` wins.
   * @default true (giving `refresh` at all turns it on)
   */
  enabled?: boolean
  /**
   * Seconds before `expires_at` at which the access token is refreshed.
   * @default 60
   */
  skew?: number
  /**
   * Where concurrent refreshes meet across instances with JWT sessions (`redisRefreshStore`).
   * Database sessions meet on the account row and need no store.
   * @default an in-memory store: refreshes meet within one process
   */
  store?: RefreshStore
  /**
   * Seconds a request holds its claim on a refresh (and others wait for its result) before another may take over.
   * @default 30
   */
  claimTimeout?: number
  /**
   * Seconds a refresh result stays readable for requests that still carry the old refresh token (JWT sessions).
   * @default 300
   */
  resultLifetime?: number
}

/**
 * A provider of any type: a built-in factory's result, or an object you write. A union on `type`:
 * checking `provider.type` narrows it to that kind's config.
 *
 * @example
 * ```ts
 * function describe(provider: ProviderConfig): string {
 *   if (provider.type === "oauth" || provider.type === "oidc") return provider.issuer ?? provider.id
 *   if (provider.type === "email") return provider.from ?? provider.id
 *   return provider.name
 * }
 * ```
 */
// `any` profiles: each provider maps its own profile type, and a list mixes providers.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ProviderConfig = CredentialsConfig<any> | OAuthConfig<any> | OIDCConfig<any> | EmailConfig | WebAuthnConfig

/** A provider as given in the config: an object, or a factory called with no options. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Provider = ProviderConfig | ((options?: any) => ProviderConfig)

/** A provider as the engine resolved it: its options merged in, with its URLs on this deployment. */
export type InternalProvider<P = ProviderConfig> = P & {
  signinUrl: string
  callbackUrl: string
}

/**
 * The configuration of `Auth()`.
 *
 * @example
 * ```ts
 * const config: AuthConfig = {
 *   secret: process.env.AUTH_SECRET,
 *   trustHost: true,
 *   providers: [Credentials({ credentials: { username: {} }, authorize: (c) => findUser(c) })],
 * }
 * ```
 */
export interface AuthConfig {
  /** Provider objects or factories, in any order (required). */
  providers: Provider[]
  /**
   * Users, accounts, sessions, verification tokens and passkeys in your database (`authflow/adapters`).
   * Needed by email sign-in, database sessions and passkeys.
   * @default none: JWT sessions, nothing stored
   */
  adapter?: Adapter
  /**
   * Milliseconds an adapter method may take before the request gives up on it with an
   * `AdapterTimeout` (an `AdapterError`): the user gets the error page or a JSON error instead of a
   * request that hangs with the database. `0` waits for ever. The call itself is not cancelled
   * (adapters have no way to be told), so a write that lands late still lands.
   *
   * @default 10000
   * @example
   * ```ts
   * const config = { adapter: KyselyAdapter(db), adapterTimeout: 3000, providers }
   * ```
   */
  adapterTimeout?: number
  /**
   * Where the routes live.
   * @default `"/auth"`, or the path of `AUTH_URL` through `setEnvDefaults`; `"/api/auth"` in `authflow/next` and `authflow/solid-start`
   */
  basePath?: string
  /**
   * Callbacks that decide outcomes; each one given replaces its default (see {@link CallbacksOptions}).
   * @default each callback's own default
   */
  callbacks?: Partial<CallbacksOptions>
  /**
   * Per-cookie overrides of name and options; options left out keep their defaults.
   * @default Auth.js v5's cookie names and options (`authjs.session-token`, …)
   */
  cookies?: CookiesOverrides
  /**
   * Built-in debug output. It does not apply to a `debug` level supplied in `logger`.
   * @default false
   */
  debug?: boolean
  /**
   * Observers of what happened (`signIn`, `signOut`, `session`, …). An event that throws is logged as `EventError` and the flow goes on.
   * @default none
   */
  events?: Partial<EventCallbacks>
  /**
   * Features that may change in any release: `enableWebAuthn` turns on the WebAuthn and Passkey providers.
   * @default `{ enableWebAuthn: false }`
   */
  experimental?: { enableWebAuthn?: boolean }
  /**
   * The session JWT's lifetime and format (see {@link JWTOptions}).
   * @default the built-in JWE, living `session.maxAge`
   */
  jwt?: JWTOptions
  /**
   * The language of the built-in pages and emails: per request, `i18n.locale(request)`, then the
   * `authflow.locale` cookie, then `Accept-Language`, else English; and your own messages over the
   * shipped ones (English, German, French, Spanish, Brazilian Portuguese, Japanese, Simplified
   * Chinese, Arabic and Hebrew). See {@link I18nOptions}.
   *
   * @default `{}`: the shipped locales, chosen by the cookie and `Accept-Language`
   * @example
   * ```ts
   * Auth(request, { ...config, i18n: { messages: { de: { signInWith: "Weiter mit {provider}" } } } })
   * ```
   */
  i18n?: I18nOptions
  /**
   * `error`, `warn`, `debug`: each level given replaces the built-in one, which writes to the console.
   * @default the console, redacted
   */
  logger?: Partial<LoggerInstance>
  /**
   * Your own pages instead of the built-in ones (see {@link PagesOptions}).
   * @default the built-in pages
   */
  pages?: PagesOptions
  /**
   * For framework authors: the exported `raw` symbol makes `Auth()` return its internal answer instead of a `Response`.
   * @default undefined: `Auth()` returns a `Response`
   */
  raw?: symbol
  /**
   * The exported `reissueWhenDue` symbol makes a read of an unchanged JWT session skip re-issuing
   * its cookie until the token is older than `session.updateAge` (framework proxies). Anything else
   * re-issues it on every read, as Auth.js does.
   * @default undefined
   */
  reissueWhenDue?: symbol
  /**
   * One stable deployment through which OAuth callbacks pass (preview deployments): the `state`
   * carries the origin, and the proxy forwards the callback there, but only to `origin` or an
   * origin `trustedOrigins` names.
   * @default `AUTH_REDIRECT_PROXY_URL` through `setEnvDefaults`; else none
   */
  redirectProxyUrl?: string
  /**
   * The app's public origin. Every URL that leaves the server (the OAuth `redirect_uri`, magic
   * links, `/providers` URLs, redirects) is built on it, and a request that arrives under any other
   * origin that `trustedOrigins` does not list is served as this origin: its `Host` is ignored.
   *
   * @default the origin of `AUTH_URL` once `setEnvDefaults` has read it (every framework wrapper does); else none
   * @example
   * ```ts
   * Auth(request, { ...config, origin: "https://app.example" })
   * ```
   */
  origin?: string
  /**
   * Origins served as themselves besides `origin`: exact origins (`"https://app.example"`) or one
   * wildcard label (`"https://*.preview.example"` matches `https://pr-42.preview.example`, not
   * `https://a.b.preview.example`). A redirect proxy (`redirectProxyUrl`) forwards callbacks only
   * to these origins and to `origin`. With `trustedOrigins` but no `origin`, requests from any other
   * origin are refused.
   *
   * @default none: without `origin` either, the request's own origin is used when `trustHost` is set
   * @example
   * ```ts
   * Auth(request, { ...config, origin: "https://app.example", trustedOrigins: ["https://*.preview.example"] })
   * ```
   */
  trustedOrigins?: string[]
  /**
   * Records every resumed flow (an OAuth callback's sealed flow cookie, a WebAuthn challenge) and
   * every back-channel logout token's `jti` as used, so that a replay is refused. Share one store
   * between instances to make that hold across all of them: the adapter's database
   * (`adapterReplayStore`, the default with an adapter) or Redis (`redisReplayStore`).
   *
   * @default with an `adapter` that has `createVerificationToken`: `adapterReplayStore(adapter)` (a row
   * per flow in the verification-token table, written when the flow is sealed and taken back with
   * `useVerificationToken` when it resumes; a `jti` is remembered in this process only when the
   * adapter's insert overwrites duplicates, with the `replay-store-per-process` warning); without
   * one: an in-memory store, a flow is used once per process
   * @example
   * ```ts
   * import { redisReplayStore } from "authflow"
   * Auth(request, { ...config, replayStore: redisReplayStore(new Redis()) })
   * ```
   */
  replayStore?: ReplayStore
  /**
   * Access-token refresh for OAuth/OIDC providers that give a refresh token: `true`, or options
   * (see {@link RefreshOptions}). A provider opts in or out on its own with `refresh: true | false`.
   *
   * @default false: no refresh, unless a provider sets `refresh: true`
   * @example
   * ```ts
   * import { redisRefreshStore } from "authflow"
   * Auth(request, { ...config, refresh: { skew: 60, store: redisRefreshStore(new Redis()) } })
   * ```
   */
  refresh?: boolean | RefreshOptions
  /**
   * Where back-channel logouts (see the `backchannelLogout` provider option) are remembered until
   * the sessions they end are read. Share one store (`redisRevocationStore`) between instances so
   * that a logout received by one ends the sessions read by all.
   *
   * @default an in-memory store: a logout ends the sessions this process reads
   * @example
   * ```ts
   * import { redisRevocationStore } from "authflow"
   * Auth(request, { ...config, revocationStore: redisRevocationStore(new Redis()) })
   * ```
   */
  revocationStore?: RevocationStore
  /**
   * Rate limiting of the sign-in routes and session updates, per client address and per identifier
   * (username, email). Over a budget, JSON clients get 429 with `Retry-After`, page flows the sign-in
   * page with `error=RateLimited`, the `rateLimited` event fires and `RateLimited` is thrown in raw
   * mode. `true` or an options object turns it on with the defaults filled in (see
   * `defaultRateLimits` in `authflow/rate-limit`); `false` turns it off.
   *
   * @default on with the defaults when `NODE_ENV` is `"production"`, off otherwise
   * @example
   * ```ts
   * import { redisStore } from "authflow/rate-limit"
   * Auth(request, { ...config, rateLimit: { store: redisStore({ url: "redis://127.0.0.1:6379" }), trustedProxies: 1 } })
   * ```
   */
  rateLimit?: RateLimitOptions | boolean
  /**
   * A second factor after any first factor: authenticator apps (TOTP), backup codes, codes sent by
   * email, trusted devices (see {@link SecondFactorOptions}). Needs an adapter with the factor
   * methods. `true` turns it on with the defaults.
   * @default off
   * @example
   * ```ts
   * Auth(request, { ...config, adapter: KyselyAdapter(db), secondFactor: { issuer: "Example" } })
   * ```
   */
  secondFactor?: SecondFactorOptions | boolean
  /**
   * Several signed-in accounts in one browser, as in an account switcher: `GET /signin?addAccount=1`
   * signs in another account without signing out the first, `GET /sessions` lists them,
   * `POST /sessions/switch` makes another one active, `POST /signout` with `account` signs out one.
   * `/session` answers the active account as always. `true` turns it on with the defaults.
   * @default off
   * @example
   * ```ts
   * Auth(request, { ...config, multiSession: { maxAccounts: 3 } })
   * ```
   */
  multiSession?: MultiSessionOptions | boolean
  /**
   * Encrypts the session and flow cookies and signs CSRF tokens. An array rotates: the first
   * encrypts, any of them decrypts. Outside development and test (`NODE_ENV`), each one must have at
   * least 32 characters, or every request is refused with `WeakSecret`; in development a shorter one
   * is warned about once (`weak-secret`).
   *
   * @default `AUTH_SECRET` (and `AUTH_SECRET_1` to `_3`) through `setEnvDefaults`
   * @example
   * ```ts
   * // npx authflow secret  → 44 random characters
   * Auth(request, { ...config, secret: [process.env.AUTH_SECRET!, process.env.AUTH_SECRET_1!] })
   * ```
   */
  secret?: string | string[]
  /**
   * The session's strategy and lifetime (see {@link SessionOptions}).
   * @default JWT sessions (database sessions with an adapter) of 30 days, extended on every read
   */
  session?: SessionOptions
  /**
   * For framework authors whose framework checks the origin of form posts itself: the exported
   * `skipCSRFCheck` symbol turns authflow's CSRF check off.
   * @default undefined: the CSRF check runs
   */
  skipCSRFCheck?: symbol
  /**
   * Look of the built-in pages (see {@link Theme}).
   * @default `{ colorScheme: "auto" }`
   */
  theme?: Theme
  /**
   * Only matters without `origin` and `trustedOrigins`: `true` builds the URLs that leave the
   * server from the request's `Host`/`X-Forwarded-Host`, right only where the platform or a proxy
   * sets that header; `false` refuses such requests with `UntrustedHost`.
   * @default `false` in plain `Auth()`. `setEnvDefaults` (which every framework wrapper calls) sets it from the environment: `true` with `AUTH_URL`, a true `AUTH_TRUST_HOST`, `VERCEL` or `CF_PAGES`, else whenever `NODE_ENV` is not `"production"`
   */
  trustHost?: boolean
  /**
   * `__Secure-`/`__Host-` cookie prefixes and the `Secure` attribute.
   * @default from the scheme of the served origin: `true` on `https:`
   */
  useSecureCookies?: boolean
  /**
   * An xstate inspection observer given to every flow actor: `@statelyai/inspect`'s `inspector.inspect`,
   * or any function of inspection events.
   * @default none: flows run without an observer
   */
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void)
}

/** Options of {@link AuthConfig.multiSession}. */
export interface MultiSessionOptions {
  /**
   * How many accounts one browser keeps signed in, the active one included. Adding one more drops
   * the account added longest ago (a database session is deleted).
   * @default 5
   * @example
   * ```ts
   * const multiSession: MultiSessionOptions = { maxAccounts: 3 }
   * ```
   */
  maxAccounts?: number
}

export type { AuthError }
