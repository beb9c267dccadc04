/**
 * The `secondFactor` option: who must pass a second factor after signing in, how authenticator
 * app codes are made, how long a trusted device is remembered, how many attempts a sign-in gets,
 * and how a code is emailed. Resolved once per configuration object.
 *
 * @module
 */
import type { Account, Awaitable, User } from "../base-types.js"

/** The hash an authenticator app's codes use (RFC 6238 allows these three). */
export type TotpAlgorithm = "SHA-1" | "SHA-256" | "SHA-512"

/** How new authenticator apps make their codes. Apps enrolled before keep the parameters they were enrolled with. */
export interface TotpOptions {
  /** @default "SHA-1" (what every authenticator app supports) */
  algorithm?: TotpAlgorithm
  /** @default 6 */
  digits?: 6 | 7 | 8
  /** Seconds each code lives. @default 30 */
  period?: number
}

/**
 * What `secondFactor.sendCode` is given: the address, the code, when it expires, the request, and
 * the built-in message in the request's language (see the `i18n` option).
 */
export interface SendSecondFactorCodeParams {
  email: string
  code: string
  expires: Date
  request: Request
  /** The request's locale (a BCP 47 tag such as `"de"`, `"pt-BR"`). */
  locale: string
  /** The built-in email for the code, in `locale`: send it as it is, or write your own. */
  message: { subject: string; text: string; html: string }
}

/**
 * Second factors (`secondFactor` in the configuration): after any first factor (credentials,
 * OAuth/OIDC, an email link, a passkey), a user who enrolled an authenticator app or backup codes,
 * or whom `required` names, passes a second factor before a session is written. `true` turns it
 * on with the defaults.
 *
 * @example
 * ```ts
 * const config = {
 *   adapter: KyselyAdapter(db),
 *   providers: [Credentials({ authorize })],
 *   secondFactor: {
 *     required: ({ user }) => user.email?.endsWith("@example.com") ?? false,
 *     issuer: "Example",
 *     sendCode: ({ email, message }) => mailer.send({ to: email, ...message }),
 *   },
 * }
 * ```
 */
export interface SecondFactorOptions {
  /**
   * Whether a user must pass a second factor even without one enrolled: `true` for everyone, or a
   * callback per user (a role, an email domain). Such a user without an authenticator app is
   * emailed a code (with `sendCode`), or refused with `SecondFactorUnavailable`.
   * @default false: only users who enrolled a factor
   */
  required?: boolean | ((params: { user: User; account: Account }) => Awaitable<boolean>)
  /**
   * The name authenticator apps show beside the account.
   * @default the host name of the request's origin
   */
  issuer?: string
  /** @default `{ algorithm: "SHA-1", digits: 6, period: 30 }` */
  totp?: TotpOptions
  /**
   * A passkey verified with user verification (a PIN or biometric on the device) counts as both factors.
   * @default true
   */
  passkeyCountsAsTwoFactors?: boolean
  /**
   * Days "remember this device" lasts; `0` removes the choice.
   * @default 30
   */
  trustedDeviceDays?: number
  /**
   * Wrong codes one sign-in may submit before it ends with `SecondFactorAttemptsExhausted`.
   * @default 5
   */
  maxAttempts?: number
  /**
   * Sends a 6-digit code by email (your mailer): with it, users may ask for a code by email instead
   * of using their app. Codes live 10 minutes.
   * @default none: no emailed codes
   */
  sendCode?: (params: SendSecondFactorCodeParams) => Awaitable<void>
}

/** {@link SecondFactorOptions} with every default filled in. */
export interface ResolvedSecondFactor {
  required: (params: { user: User; account: Account }) => Awaitable<boolean>
  issuer?: string
  totp: Required<TotpOptions>
  passkeyCountsAsTwoFactors: boolean
  trustedDeviceDays: number
  maxAttempts: number
  sendCode?: (params: SendSecondFactorCodeParams) => Awaitable<void>
}

/** Seconds an emailed code lives. */
export const EMAIL_CODE_LIFETIME = 10 * 60

const resolved = new WeakMap<object, ResolvedSecondFactor>()
/** What `secondFactor: true` stands for: one object, so its resolution is cached like any other. */
const defaults: SecondFactorOptions = Object.freeze({})
const never = () => false
const always = () => true

/**
 * The option with its defaults, or `undefined` when second factors are off (`undefined` or `false`).
 *
 * @example
 * ```ts
 * resolveSecondFactor(true)?.totp // { algorithm: "SHA-1", digits: 6, period: 30 }
 * ```
 */
export function resolveSecondFactor(given: SecondFactorOptions | boolean | undefined): ResolvedSecondFactor | undefined {
  if (given === undefined || given === false) return undefined
  const options = given === true ? defaults : given
  const cached = resolved.get(options)
  if (cached) return cached
  const required = options.required
  const result: ResolvedSecondFactor = {
    required: typeof required === "function" ? required : required === true ? always : never,
    ...(options.issuer !== undefined && { issuer: options.issuer }),
    totp: { algorithm: options.totp?.algorithm ?? "SHA-1", digits: options.totp?.digits ?? 6, period: options.totp?.period ?? 30 },
    passkeyCountsAsTwoFactors: options.passkeyCountsAsTwoFactors ?? true,
    trustedDeviceDays: options.trustedDeviceDays ?? 30,
    maxAttempts: options.maxAttempts ?? 5,
    ...(options.sendCode && { sendCode: options.sendCode }),
  }
  resolved.set(options, result)
  return result
}
