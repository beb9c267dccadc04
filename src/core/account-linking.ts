import { OAuthAccountNotLinked } from "./errors.js"
import { randomUUID } from "./crypto.js"
import { emitEvent } from "./events.js"
import { sessionStoreOf } from "./session-cookie.js"
import type { AuthOptions } from "./options.js"
import type { Account, Profile, User } from "../types.js"
import type { AdapterAccount, AdapterUser } from "../adapters.js"

/**
 * The user this browser is already signed in as, read through the adapter (the JWT's `sub`, or the
 * database session). Anything unreadable counts as not signed in.
 *
 * @example
 * ```ts
 * const current = await signedInUser(options) // AdapterUser | null
 * ```
 */
export async function signedInUser(options: AuthOptions): Promise<AdapterUser | null> {
  const adapter = options.adapter
  const token = sessionStoreOf(options).value
  if (!adapter || !token) return null
  try {
    if (options.session.strategy === "jwt") {
      const payload = await options.jwt.decode({ token, secret: options.jwt.secret, salt: options.cookies.sessionToken.name })
      return payload?.sub && adapter.getUser ? await adapter.getUser(payload.sub) : null
    }
    return (await adapter.getSessionAndUser?.(token))?.user ?? null
  } catch {
    return null
  }
}

/** The user a sign-in ends with, and whether it was created by it. */
export interface ResolvedUser {
  user: User | AdapterUser
  isNewUser: boolean
}

/**
 * Resolves an OAuth sign-in against the database: the user already linked to this provider
 * account, the signed-in user (the account gets linked to them, only if they started this
 * sign-in themselves), an existing user with the same
 * email (only with `allowDangerousEmailAccountLinking`), or a new user. Refuses with
 * `OAuthAccountNotLinked` when the account belongs to someone else or the email is taken. If
 * linking fails after a user was created, that user is deleted again, so nothing half-written
 * survives. Without an adapter the provider's user is used as it is.
 *
 * @example
 * ```ts
 * const { user, isNewUser } = await resolveOAuthUser(options, { user, account, profile, stored, userByAccount })
 * ```
 */
export async function resolveOAuthUser(
  options: AuthOptions,
  sign: {
    user: User
    account: Account
    profile: Profile
    stored: Partial<Account>
    userByAccount: AdapterUser | null
    allowEmailLinking: boolean
    /** The user signed in when the sign-in started; a new account is linked only to them. */
    startedBy?: string | undefined
  },
): Promise<ResolvedUser> {
  const adapter = options.adapter
  if (!adapter) return { user: sign.user, isNewUser: false }
  const current = await signedInUser(options)
  if (sign.userByAccount) {
    if (current && current.id !== sign.userByAccount.id) {
      throw new OAuthAccountNotLinked("The account is already associated with another user", { cause: { provider: sign.account.provider } })
    }
    return { user: sign.userByAccount, isNewUser: false }
  }
  const link = async (userId: string, user: User | AdapterUser) => {
    const account = { ...sign.stored, providerAccountId: sign.account.providerAccountId, provider: sign.account.provider, type: sign.account.type, userId } as AdapterAccount
    await adapter.linkAccount!(account)
    await emitEvent(options.config, options.logger, "linkAccount", { user, account, profile: sign.profile as User })
  }
  if (current) {
    // A flow started elsewhere (a planted flow cookie) must not attach its account to this user.
    if (current.id !== sign.startedBy) {
      throw new OAuthAccountNotLinked("The sign-in was not started by the signed-in user: the account is not linked", { cause: { provider: sign.account.provider } })
    }
    await link(current.id, current)
    return { user: current, isNewUser: false }
  }
  const byEmail = sign.user.email && adapter.getUserByEmail ? await adapter.getUserByEmail(sign.user.email) : null
  if (byEmail) {
    if (!sign.allowEmailLinking) {
      throw new OAuthAccountNotLinked("Another account already exists with the same e-mail address", { cause: { provider: sign.account.provider } })
    }
    await link(byEmail.id, byEmail)
    return { user: byEmail, isNewUser: false }
  }
  const created = await adapter.createUser!({ ...sign.user, id: sign.user.id ?? randomUUID(), email: sign.user.email ?? "", emailVerified: null } as AdapterUser)
  try {
    await link(created.id, created)
  } catch (error) {
    await adapter.deleteUser?.(created.id)
    throw error
  }
  await emitEvent(options.config, options.logger, "createUser", { user: created })
  return { user: created, isNewUser: true }
}
