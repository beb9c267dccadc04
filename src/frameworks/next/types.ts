/** Types of the Next.js integration. */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { NextFetchEvent, NextRequest } from "next/server.js"
import type { ErrorType } from "../../core/errors.js"
import type { AuthConfig, Awaitable, CallbacksOptions, Session } from "../../types.js"
import type { ServerFactors } from "../shared/factors.js"
import type { ServerAccounts } from "../shared/accounts.js"
import type { ServerPasswords } from "../shared/passwords.js"
import type { RecentAuthDemand } from "../shared/recent-auth.js"

/** Arguments of the `authorized` callback. */
export interface AuthorizedParams {
  /** The session of the request, or `null`. */
  auth: Session | null
  /** The request the proxy (middleware) is deciding on. */
  request: NextRequest
}

/**
 * What `authorized` may return: `true` lets the request through; `false` (or nothing) sends the
 * user to the sign-in page; a `Response` (a redirect, a 401) is answered instead.
 */
export type AuthorizedResult = boolean | Response | null | undefined | void

/** The callbacks of the core, plus `authorized` for the proxy (middleware). */
export interface NextAuthCallbacks extends Partial<CallbacksOptions> {
  /**
   * Decides, in the proxy (middleware) or a handler wrapped by `auth(handler)`, whether a request
   * may go on. Not called by `auth()` in Server Components.
   */
  authorized?: (params: AuthorizedParams) => Awaitable<AuthorizedResult>
}

/**
 * The configuration of `NextAuth()`: the core configuration without `raw` (set internally), with
 * `basePath` defaulting to `/api/auth` and `callbacks.authorized` for the proxy.
 */
export interface NextAuthConfig extends Omit<AuthConfig, "raw" | "callbacks"> {
  callbacks?: NextAuthCallbacks
}

/** The configuration, or a function of the request that returns it (lazy initialisation). */
export type NextAuthConfigInit = NextAuthConfig | ((request: NextRequest | undefined) => Awaitable<NextAuthConfig>)

/** A request that went through `auth(handler)`: it carries the session. */
export type NextAuthRequest = NextRequest & { auth: Session | null }

/** What a wrapped handler may return; nothing means "go on" (`NextResponse.next()`). */
export type NextAuthHandlerResult = Response | null | undefined | void

/** A proxy (middleware) or route handler to wrap with `auth(handler)`. */
export type NextAuthHandler<Context> = (request: NextAuthRequest, context: Context) => Awaitable<NextAuthHandlerResult>

/**
 * The universal `auth`:
 *
 * - `auth()` in Server Components, Server Actions and Route Handlers: the session or `null`.
 * - `auth` as the proxy (middleware): `export { auth as proxy }` keeps the session alive and applies
 *   `callbacks.authorized`.
 * - `auth(handler)`: wraps a proxy or a route handler; the handler's request gains `auth`.
 * - `auth(req, res)` in Pages Router API routes, `auth(context)` in `getServerSideProps`: the
 *   session, with the refreshed cookie written to the response.
 */
export interface NextAuthFunction {
  (): Promise<Session | null>
  (request: NextRequest, event?: NextFetchEvent): Promise<Response>
  <Context = unknown>(handler: NextAuthHandler<Context>): (request: NextRequest, context: Context) => Promise<Response>
  (context: PagesRouterContext): Promise<Session | null>
  (request: IncomingMessage, response: ServerResponse): Promise<Session | null>
}

/**
 * What `auth(context)` needs of a `getServerSideProps` context. Node's own types stand in for
 * `GetServerSidePropsContext`, `NextApiRequest` and `NextApiResponse` (which extend them): the
 * `next` root types declare globals (a read-only `process.env.NODE_ENV`) that would leak into
 * every program compiled with authflow's declarations.
 */
export interface PagesRouterContext {
  req: IncomingMessage
  res: ServerResponse
}

/** Parameters of the provider's authorization request: anything `URLSearchParams` takes. */
export type AuthorizationParams = string | string[][] | Record<string, string> | URLSearchParams

/** Options of the server-side `signIn`. Other keys (credentials, `email`) are posted to the provider. */
export interface SignInOptions extends Record<string, unknown> {
  /** Where the user lands afterwards; default: the page that called (Referer), else `/`. */
  redirectTo?: string
  /** Redirect (default `true`) or return the URL. */
  redirect?: boolean
}

/** Options of the server-side `signOut`. */
export interface SignOutOptions {
  /** Where the user lands afterwards; default: the page that called (Referer), else `/`. */
  redirectTo?: string
  /** Redirect (default `true`) or return the URL. */
  redirect?: boolean
}

/**
 * What `signInAction` returns when the sign-in is refused for a reason the user may see; `null`
 * when there is nothing to show (it redirected, or `redirect: false` succeeded).
 */
export interface SignInActionState {
  /** The refusal: `CredentialsSignin` for a wrong password, `AccessDenied`, `OAuthAccountNotLinked`… */
  error: ErrorType
  /** For `CredentialsSignin`: its `code` (`"credentials"` unless `authorize` threw its own subclass). */
  code?: string
}

/** Data for `unstable_update`: a partial session, or a partial `user`. */
export type SessionUpdate = Partial<Session> | { user: Partial<NonNullable<Session["user"]>> }

/** What `NextAuth()` returns; the second-factor functions are {@link ServerFactors}', the password ones {@link ServerPasswords}'. */
export interface NextAuthResult extends ServerFactors, ServerAccounts, ServerPasswords {
  /** Checks that the signed-in user authenticated recently enough, or redirects through the step-up (see {@link NextRequireRecentAuth}). */
  requireRecentAuth: NextRequireRecentAuth
  /** `GET` and `POST` for `app/api/auth/[...nextauth]/route.ts`. */
  handlers: { GET: (request: NextRequest) => Promise<Response>; POST: (request: NextRequest) => Promise<Response> }
  /** See {@link NextAuthFunction}. */
  auth: NextAuthFunction
  /**
   * Signs in from a Server Action (or Route Handler). Redirects (Next's `redirect()`) unless
   * `redirect: false`, which returns the URL. Throws the `AuthError` of a refused sign-in
   * (`CredentialsSignin`…).
   */
  signIn: (provider?: string, options?: SignInOptions | FormData, authorizationParams?: AuthorizationParams) => Promise<string>
  /**
   * `signIn` for a form's Server Action in one call: redirects on success, returns
   * `{ error, code }` (for `useActionState`) when the sign-in is refused for a reason the user may
   * see, such as a wrong password, and throws anything else.
   */
  signInAction: (provider: string, formData?: FormData | SignInOptions, options?: SignInOptions, authorizationParams?: AuthorizationParams) => Promise<SignInActionState | null>
  /** Signs out from a Server Action. Redirects unless `redirect: false`, which returns the URL. */
  signOut: (options?: SignOutOptions) => Promise<string>
  /** Sends `data` to the `jwt` (or `session`) callback with `trigger: "update"` and returns the new session. */
  unstable_update: (data: SessionUpdate) => Promise<Session | null>
}

/** What a Next.js page or action demands: `callbackUrl` is required, as a Server Component does not know its own URL. */
export type NextRecentAuthDemand = RecentAuthDemand & { callbackUrl: string }

/**
 * Resolves with when and how the user authenticated when they meet the demand; otherwise redirects
 * (it throws Next's redirect, so call it outside `try`).
 *
 * @example
 * ```ts
 * // app/settings/security/page.tsx
 * import { requireRecentAuth } from "@/auth"
 * export default async function SecurityPage() {
 *   const { authTime } = await requireRecentAuth({ maxAge: 300, factor: "second", callbackUrl: "/settings/security" })
 *   return <p>Verified at {authTime.toLocaleTimeString()}</p>
 * }
 * ```
 */
export type NextRequireRecentAuth = (demand: NextRecentAuthDemand) => Promise<{ recent: true; authTime: Date; amr: string[] }>
