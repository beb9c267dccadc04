/** Types of the SvelteKit integration. */
import type { Action, Handle, RequestEvent } from "@sveltejs/kit"
import type { EnvObject } from "../../core/env.js"
import type { AuthConfig, Awaitable, Session } from "../../types.js"
import type { Accounts, SwitchAccountResult } from "../shared/accounts.js"
import type { ConfirmFactorInput, FactorCallResults, FactorsResult, RemoveFactorInput, RenameFactorInput } from "../shared/factors.js"
import type { RecentAuthDemand } from "../shared/recent-auth.js"
import type { PasswordCallFields, PasswordProviderOption, PasswordResult } from "../shared/passwords.js"

/**
 * The configuration of `SvelteKitAuth()`: the core configuration without `raw` (set internally).
 * `basePath` is always `<base>/auth` and `skipCSRFCheck` is always set (SvelteKit checks the
 * origin of form posts itself).
 */
export interface SvelteKitAuthConfig extends Omit<AuthConfig, "raw"> {}

/** The configuration, or a function of the request event that returns it (lazy initialisation). */
export type SvelteKitAuthConfigInit = SvelteKitAuthConfig | ((event: RequestEvent) => Awaitable<SvelteKitAuthConfig>)

/**
 * What SvelteKit's virtual modules would give. They are passed in rather than imported, so
 * `authflow/sveltekit` also loads outside Vite (plain Node, tests, tooling).
 *
 * @example
 * ```ts
 * import { base } from "$app/paths"
 * import { dev } from "$app/environment"
 * import { env } from "$env/dynamic/private"
 * export const { handle, signIn, signOut } = SvelteKitAuth(config, { base, dev, env })
 * ```
 */
export interface SvelteKitAuthOptions {
  /** `base` of `$app/paths`; `basePath` becomes `<base>/auth`. Default `""`. */
  base?: string
  /** `dev` of `$app/environment`: trusts the host in development. Default: `NODE_ENV === "development"`. */
  dev?: boolean
  /** The environment to read `AUTH_*` variables from, e.g. `env` of `$env/dynamic/private`. Default `process.env`. */
  env?: EnvObject
}

/** Fields of the `signIn` form action whose names start with this become authorization parameters. */
export type AuthorizationParamsField = `authorizationParams-${string}`

/** What the `signIn`/`signOut` form actions return when the form sets `redirect=false`. */
export interface AuthActionData {
  /** Where the user would have been redirected. */
  url: string
}

/** What `SvelteKitAuth()` returns; the second-factor functions are {@link SvelteKitFactorActions}', the password ones {@link SvelteKitPasswordActions}'. */
export interface SvelteKitAuthResult extends SvelteKitFactorActions, SvelteKitAccountActions, SvelteKitPasswordActions {
  /** Checks that the signed-in user authenticated recently enough, or redirects through the step-up (see {@link SvelteKitRequireRecentAuth}). */
  requireRecentAuth: SvelteKitRequireRecentAuth
  /**
   * The server hook (`src/hooks.server.ts`): answers `<basePath>/<action>` requests with authflow
   * and gives every request `event.locals.auth()` (alias `getSession`).
   */
  handle: Handle
  /**
   * A form action that signs in. Form fields: `providerId`, `redirectTo` (default: the Referer,
   * else `/`), `redirect` (`"false"` returns `{ url }` instead of redirecting),
   * `authorizationParams-<key>`, and the credentials. Throws the `AuthError` of a refused sign-in
   * (`CredentialsSignin`…).
   */
  signIn: Action<RequestEvent["params"], AuthActionData | void>
  /** A form action that signs out. Form fields: `redirectTo`, `redirect`. */
  signOut: Action<RequestEvent["params"], AuthActionData | void>
}

declare global {
  // The `App` namespace of SvelteKit (declared by `@sveltejs/kit`); these members merge into it.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace App {
    interface Locals {
      /** The session of the request, or `null`. Set by the `handle` of `SvelteKitAuth()`. */
      auth(): Promise<Session | null>
      /** Alias of `auth()`. */
      getSession(): Promise<Session | null>
    }
    interface PageData {
      session?: Session | null
    }
  }
}

/** The second-factor functions of `SvelteKitAuth()` (see the module). */
export interface SvelteKitFactorActions {
  /**
   * The user's authenticator apps and how many backup codes are left; for a `load`.
   *
   * @example
   * ```ts
   * export const load = async (event) => ({ listed: await listFactors(event) })
   * ```
   */
  listFactors: (event: RequestEvent) => Promise<FactorsResult<FactorCallResults["list"]>>
  /**
   * Form action: starts adding an app; the result's `otpauthUri` (a QR code) and `secret` are for
   * the page, and the enrolment waits 5 minutes, in a cookie, for `confirmAuthenticatorApp`.
   *
   * @example
   * ```ts
   * export const actions = { enrol: enrolAuthenticatorApp }
   * ```
   */
  enrolAuthenticatorApp: (event: RequestEvent) => Promise<FactorsResult<FactorCallResults["enrol"]>>
  /**
   * Form action (fields `code`, `name`): finishes the enrolment; the first app comes with
   * `backupCodes`, shown this once. A wrong code: `{ ok: false, error: "wrong-code", status: 400 }`.
   *
   * @example
   * ```ts
   * export const actions = { confirm: confirmAuthenticatorApp }
   * ```
   */
  confirmAuthenticatorApp: (event: RequestEvent, input?: ConfirmFactorInput) => Promise<FactorsResult<FactorCallResults["confirm"]>>
  /**
   * Form action (fields `factorId`, `name`): renames one of the user's apps.
   *
   * @example
   * ```ts
   * export const actions = { rename: renameFactor }
   * ```
   */
  renameFactor: (event: RequestEvent, input?: RenameFactorInput) => Promise<FactorsResult>
  /**
   * Form action (fields `factorId`, `code`): removes one of the user's apps; the last one only
   * with a current code from it (else `removal-refused`, 403).
   *
   * @example
   * ```ts
   * export const actions = { remove: removeFactor }
   * ```
   */
  removeFactor: (event: RequestEvent, input?: RemoveFactorInput) => Promise<FactorsResult>
  /**
   * Form action: makes 10 new backup codes, which replace the old ones; shown this once.
   *
   * @example
   * ```ts
   * export const actions = { regenerate: regenerateBackupCodes }
   * ```
   */
  regenerateBackupCodes: (event: RequestEvent) => Promise<FactorsResult<FactorCallResults["regenerate"]>>
}

/**
 * Resolves with when and how the user authenticated when they meet the demand; otherwise throws
 * SvelteKit's redirect to the step-up (back to `callbackUrl`, by default the event's URL).
 *
 * @example
 * ```ts
 * // src/routes/settings/security/+page.server.ts
 * import { requireRecentAuth } from "../../../auth"
 * export const load = async (event) => {
 *   const { authTime } = await requireRecentAuth(event, { maxAge: 300, factor: "second" })
 *   return { verifiedAt: authTime.toISOString() }
 * }
 * ```
 */
export type SvelteKitRequireRecentAuth = (event: RequestEvent, demand: RecentAuthDemand) => Promise<{ recent: true; authTime: Date; amr: string[] }>

/** The account functions of `SvelteKitAuth()`. */
export interface SvelteKitAccountActions {
  /**
   * The browser's accounts: the active session and the others; for a `load`.
   *
   * @example
   * ```ts
   * export const load = async (event) => ({ accounts: await listAccounts(event) })
   * ```
   */
  listAccounts(event: RequestEvent): Promise<Accounts>
  /**
   * Makes another account active: `id` given, or the form's `account` field.
   *
   * @example
   * ```ts
   * export const actions = { switch: (event) => switchAccount(event) }
   * ```
   */
  switchAccount(event: RequestEvent, id?: string): Promise<SwitchAccountResult>
}

/**
 * The password form actions of `SvelteKitAuth()`: each reads its fields from the form, or from
 * `input` when called from your own action, and returns `{ ok: true }` or `{ ok: false, error,
 * status }` for the page's `form` prop.
 */
export interface SvelteKitPasswordActions {
  /**
   * Form action (fields `currentPassword`, `newPassword`): changes the signed-in user's password;
   * they stay signed in, their other sessions end. Signed out: `signed-out` (401); a wrong current
   * password: `CredentialsSignin` (400).
   *
   * @example
   * ```ts
   * export const actions = { password: changePassword }
   * ```
   */
  changePassword: (event: RequestEvent, input?: PasswordCallFields["change-password"] & PasswordProviderOption) => Promise<PasswordResult>
  /**
   * Form action (fields `newEmail`, `password`): mails a link to the new address, which makes the
   * change when followed.
   *
   * @example
   * ```ts
   * export const actions = { email: changeEmail }
   * ```
   */
  changeEmail: (event: RequestEvent, input?: PasswordCallFields["change-email"] & PasswordProviderOption) => Promise<PasswordResult>
  /**
   * Form action (field `email`): mails a reset link; the answer is the same whether or not the
   * address has an account.
   *
   * @example
   * ```ts
   * export const actions = { default: requestPasswordReset }
   * ```
   */
  requestPasswordReset: (event: RequestEvent, input?: PasswordCallFields["forgot-password"] & PasswordProviderOption) => Promise<PasswordResult>
  /**
   * Form action (fields `token`, `password`): sets a new password with a mailed link's token.
   *
   * @example
   * ```ts
   * export const actions = { default: resetPassword }
   * ```
   */
  resetPassword: (event: RequestEvent, input?: PasswordCallFields["reset-password"] & PasswordProviderOption) => Promise<PasswordResult>
}
