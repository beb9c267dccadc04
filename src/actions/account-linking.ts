import { randomUUID } from "../core/crypto.js"
import { AdapterError } from "../core/errors.js"
import { emitEvent } from "../core/events.js"
import { decodeSessionCookie, sessionStoreOf } from "../core/session-cookie.js"
import type { AuthOptions } from "../core/options.js"
import type { Account, Profile, User } from "../types.js"
import type { Adapter, AdapterAccount, AdapterUser } from "../adapters.js"
import type { AccountLinkingEvent, AccountPlan } from "../machines/account-linking.js"

/**
 * The user this browser is already signed in as, read through the adapter (the JWT's `sub`, or the
 * database session). Anything unreadable counts as not signed in; a failing adapter does too,
 * unless `adapterFailures` is `"throw"` (for account linking, where it must fail the sign-in).
 *
 * @example
 * ```ts
 * const current = await signedInUser(options) // AdapterUser | null
 * ```
 */
export async function signedInUser(options: AuthOptions, { adapterFailures = "signedOut" }: { adapterFailures?: "signedOut" | "throw" } = {}): Promise<AdapterUser | null> {
  const adapter = options.adapter
  const store = sessionStoreOf(options)
  const token = store.value
  if (!adapter || !token) return null
  try {
    if (options.session.strategy === "jwt") {
      const payload = await decodeSessionCookie(options, store)
      return payload?.sub && adapter.getUser ? await adapter.getUser(payload.sub) : null
    }
    return (await adapter.getSessionAndUser?.(token))?.user ?? null
  } catch (error) {
    // Linking must not mistake a database that failed for a browser that is signed out: that
    // would sign in a new user where the account belonged with the signed-in one.
    if (adapterFailures === "throw" && error instanceof AdapterError) throw error
    return null
  }
}

function adapterOf(options: AuthOptions): Adapter {
  if (!options.adapter) throw new TypeError("Account linking looks users up through an adapter, and none is configured")
  return options.adapter
}

/**
 * Looks up who a provider account is linked to and who this browser is signed in as, and reports
 * it, deciding nothing (the account-linking states of the machine decide). Only an adapter that
 * fails rejects; the machine's effect reports that as `lookup.failed`.
 *
 * @example
 * ```ts
 * await findAccount(options, { provider: "github", providerAccountId: "42" })
 * // { type: "account.linked", user: ada, signedInAs: "u-bob" } or { type: "account.new" }
 * ```
 */
export async function findAccount(
  options: AuthOptions,
  account: Pick<Account, "provider" | "providerAccountId">,
): Promise<Extract<AccountLinkingEvent, { type: "account.linked" | "account.new" }>> {
  const adapter = adapterOf(options)
  const [linked, signedIn] = await Promise.all([
    adapter.getUserByAccount ? adapter.getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId }) : null,
    signedInUser(options, { adapterFailures: "throw" }),
  ])
  if (linked) return { type: "account.linked", user: linked, ...(signedIn && { signedInAs: signedIn.id }) }
  return { type: "account.new", ...(signedIn && { signedIn }) }
}

/**
 * Looks up who owns an email address and reports it: an account without an email, or an adapter
 * that cannot look users up by email, has no owner.
 *
 * @example
 * ```ts
 * await findEmailOwner(options, "ada@example.test") // { type: "emailOwner.found", user: ada }
 * ```
 */
export async function findEmailOwner(options: AuthOptions, email: string | null | undefined): Promise<Extract<AccountLinkingEvent, { type: "emailOwner.found" | "emailOwner.none" }>> {
  const adapter = adapterOf(options)
  const owner = email && adapter.getUserByEmail ? await adapter.getUserByEmail(email) : null
  return owner ? { type: "emailOwner.found", user: owner } : { type: "emailOwner.none" }
}

/** The user a sign-in ends with, and whether it was created by it. */
export interface ResolvedUser {
  user: User | AdapterUser
  isNewUser: boolean
}

/**
 * Carries out what the machine decided for an account: sign in its linked user (`user`, as it
 * is), link it to `linkTo` (the signed-in user or the owner of its email), create a user and link
 * it, or (without a database) use the provider's user as it is. `onCreating` learns the id of a
 * user about to be created: if creating or linking fails, the machine deletes that user
 * (`undoingCreatedUser`).
 *
 * @example
 * ```ts
 * const { user, isNewUser } = await persistAccount(options, { plan: "createUser", user, account, profile, stored }, (id) => (creating = id))
 * ```
 */
export async function persistAccount(
  options: AuthOptions,
  sign: { plan: AccountPlan; linkTo?: AdapterUser; user: User | AdapterUser; account: Account; profile: Profile; stored: Partial<Account> },
  onCreating?: (userId: string) => void,
): Promise<ResolvedUser> {
  const adapter = options.adapter
  const link = async (user: AdapterUser) => {
    if (!adapter?.linkAccount) throw new TypeError("Linking an account needs an adapter with linkAccount")
    const account = { ...sign.stored, providerAccountId: sign.account.providerAccountId, provider: sign.account.provider, type: sign.account.type, userId: user.id } as AdapterAccount
    await adapter.linkAccount(account)
    await emitEvent(options.config, options.logger, "linkAccount", { user, account, profile: sign.profile as User })
    return { user, isNewUser: false }
  }
  switch (sign.plan) {
    case "noDatabase":
    case "signInLinkedUser":
      return { user: sign.user, isNewUser: false }
    case "linkToSignedInUser":
    case "linkToEmailOwner":
      if (!sign.linkTo) throw new TypeError(`The plan ${sign.plan} names no user to link the account to`)
      return link(sign.linkTo)
    case "createUser": {
      if (!adapter?.createUser) throw new TypeError("Creating a user needs an adapter with createUser")
      // The id is chosen here and reported before the write, so a failed sign-in can delete the user
      // by it (the OAuth machine's undoingCreatedUser), even when the write landed and its answer did not.
      const id = sign.user.id ?? randomUUID()
      onCreating?.(id)
      const created = await adapter.createUser({ ...sign.user, id, email: sign.user.email ?? "", emailVerified: null } as AdapterUser)
      await link(created)
      await emitEvent(options.config, options.logger, "createUser", { user: created })
      return { user: created, isNewUser: true }
    }
  }
}
