/**
 * When and how the signed-in user last authenticated: `authTime` and `amr` (RFC 8176's
 * authentication method references, where one fits), in a cookie sealed with the secret (the
 * cookie's name as salt) that names the user. A sign-in writes it beside the session cookie when
 * `secondFactor` is on; a step-up renews it without touching the session. The step-up machine's
 * guards read it: it only reports.
 *
 * @module
 */
import { decode, encode } from "../../core/jwt/index.js"
import type { AuthOptions } from "../../core/options.js"
import type { SecondFactorMethod } from "../../machines/sign-in-tail.js"
import type { Account, Cookie } from "../../types.js"

/**
 * How a user authenticated, as `amr` lists it: the first factor (`pwd` a password, `fed` an OAuth
 * or OpenID provider, `email` an email link, `hwk` a passkey), the second (`otp` an authenticator
 * app's code, `backup-code`, `email-code`), and `mfa` once two factors passed (or a passkey
 * verified the user, where it counts as both).
 */
export type AuthMethod = "pwd" | "fed" | "email" | "hwk" | "otp" | "backup-code" | "email-code" | "mfa"

/** The user's last authentication: who, when (epoch ms) and how. */
export interface AuthContext {
  userId: string
  authTime: number
  amr: AuthMethod[]
}

const firstFactorMethods: Record<string, AuthMethod> = { credentials: "pwd", oauth: "fed", oidc: "fed", email: "email", webauthn: "hwk" }
const secondFactorMethods: Record<SecondFactorMethod, AuthMethod> = { totp: "otp", backup: "backup-code", email: "email-code" }

/**
 * The `amr` of a sign-in: its first factor (by the type of the provider signed in with), and the
 * second factor that passed, if one did.
 *
 * @example
 * ```ts
 * amrOf(options, account, "totp") // ["pwd", "otp", "mfa"]
 * ```
 */
export function amrOf(options: AuthOptions, account: Pick<Account, "provider">, secondFactor?: SecondFactorMethod): AuthMethod[] {
  const provider = options.providers.find((candidate) => candidate.id === account.provider)
  const first = provider ? firstFactorMethods[provider.type] : undefined
  const amr: AuthMethod[] = first ? [first] : []
  if (secondFactor) amr.push(secondFactorMethods[secondFactor], "mfa")
  else if (provider?.type === "webauthn" && options.secondFactor?.passkeyCountsAsTwoFactors && (provider.verifyAuthenticationOptions?.requireUserVerification ?? true)) amr.push("mfa")
  return amr
}

/**
 * The `amr` of a step-up: what the user had, and the second factor that passed now.
 *
 * @example
 * ```ts
 * steppedUpAmr(["pwd"], "backup") // ["pwd", "backup-code", "mfa"]
 * ```
 */
export function steppedUpAmr(previous: readonly AuthMethod[], secondFactor: SecondFactorMethod): AuthMethod[] {
  return [...new Set<AuthMethod>([...previous.filter((method) => method !== "mfa"), secondFactorMethods[secondFactor], "mfa"])]
}

/**
 * The auth-context cookie of this request, opened, or `undefined` when there is none or it does
 * not open (tampered, expired, made with another secret).
 *
 * @example
 * ```ts
 * await readAuthContext(options) // { userId: "u1", authTime: 1790000000000, amr: ["pwd", "otp", "mfa"] }
 * ```
 */
export async function readAuthContext(options: AuthOptions): Promise<AuthContext | undefined> {
  const { name } = options.cookies.authContext
  const value = options.request.cookies[name]
  if (!value) return undefined
  try {
    const payload = (await decode({ token: value, secret: options.secret, salt: name })) as { u?: unknown; t?: unknown; a?: unknown } | null
    if (typeof payload?.u !== "string" || typeof payload.t !== "number" || !Array.isArray(payload.a)) return undefined
    return { userId: payload.u, authTime: payload.t, amr: payload.a.filter((method): method is AuthMethod => typeof method === "string") }
  } catch {
    return undefined
  }
}

/**
 * The auth-context cookie for a user who authenticated now, living as long as a session.
 *
 * @example
 * ```ts
 * const cookie = await authContextCookie(options, { userId: "u1", amr: ["pwd"] }) // set beside the session's
 * ```
 */
export async function authContextCookie(options: AuthOptions, context: Omit<AuthContext, "authTime">): Promise<Cookie> {
  const { name, options: cookieOptions } = options.cookies.authContext
  const maxAge = options.session.maxAge
  const value = await encode({ token: { u: context.userId, t: Date.now(), a: context.amr } as never, secret: options.secret, salt: name, maxAge })
  return { name, value, options: { ...cookieOptions, maxAge, expires: new Date(Date.now() + maxAge * 1000) } }
}
