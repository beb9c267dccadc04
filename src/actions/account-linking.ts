import { randomUUID } from "../core/crypto.js"
import { AdapterError } from "../core/errors.js"
import { emitEvent } from "../core/events.js"
import { decodeSessionCookie, sessionStoreOf } from "../core/session-cookie.js"
import type { AuthOptions } from "../core/options.js"
import type { Account, Profile, User } from "../types.js"
import type { AdapterAccount, AdapterUser } from "../adapters.js"
import type { AccountPlan } from "../machines/oauth.js"

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

/** What the database says about an OAuth account, as the event the OAuth machine receives. */
export type AccountCase =
  | { type: "account.linkedToUser" }
  | { type: "account.linkedToOther" }
  | { type: "account.new.signedIn"; userId: string }
  | { type: "account.new.emailTaken" }
  | { type: "account.new.noUser" }

/** The users the lookup found, kept by the flow for the writes that follow the `signIn` callback. */
export interface AccountLookup {
  /** The user the provider account is linked to. */
  linked?: AdapterUser
  /** The user this browser is signed in as. */
  signedIn?: AdapterUser
  /** The user who owns the profile's email address. */
  emailOwner?: AdapterUser
}

/**
 * Looks an OAuth account up and reports which case holds, without deciding anything: the account
 * is linked to the signed-in user (or nobody is signed in), linked to someone else, new while a
 * user is signed in, new with its email taken, or new altogether. Without an adapter every
 * account is new and nobody is found.
 *
 * @example
 * ```ts
 * const { event, lookup } = await findAccount(options, { provider: "github", providerAccountId: "42" }, "ada@example.test")
 * event.type // "account.new.noUser"
 * ```
 */
export async function findAccount(
  options: AuthOptions,
  account: Pick<Account, "provider" | "providerAccountId">,
  email: string | null | undefined,
): Promise<{ event: AccountCase; lookup: AccountLookup }> {
  const adapter = options.adapter
  if (!adapter) return { event: { type: "account.new.noUser" }, lookup: {} }
  const [linked, signedIn] = await Promise.all([
    adapter.getUserByAccount ? adapter.getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId }) : null,
    signedInUser(options, { adapterFailures: "throw" }),
  ])
  const lookup: AccountLookup = {}
  if (signedIn) lookup.signedIn = signedIn
  if (linked) {
    lookup.linked = linked
    return { event: { type: signedIn && signedIn.id !== linked.id ? "account.linkedToOther" : "account.linkedToUser" }, lookup }
  }
  if (signedIn) return { event: { type: "account.new.signedIn", userId: signedIn.id }, lookup }
  const emailOwner = email && adapter.getUserByEmail ? await adapter.getUserByEmail(email) : null
  if (emailOwner) {
    lookup.emailOwner = emailOwner
    return { event: { type: "account.new.emailTaken" }, lookup }
  }
  return { event: { type: "account.new.noUser" }, lookup }
}

/** The user a sign-in ends with, and whether it was created by it. */
export interface ResolvedUser {
  user: User | AdapterUser
  isNewUser: boolean
}

/**
 * Carries out what the OAuth machine decided for an account: sign in its linked user, link it to
 * the signed-in user or to the owner of its email, create a user and link it, or (without a
 * database) use the provider's user as it is. `onCreating` learns the id of a user about to be
 * created: if creating or linking fails, the machine deletes that user (`undoingCreatedUser`).
 *
 * @example
 * ```ts
 * const { user, isNewUser } = await persistAccount(options, "createUser", lookup, { user, account, profile, stored }, (id) => (run.creatingUserId = id))
 * ```
 */
export async function persistAccount(
  options: AuthOptions,
  plan: AccountPlan,
  lookup: AccountLookup,
  sign: { user: User; account: Account; profile: Profile; stored: Partial<Account> },
  onCreating?: (userId: string) => void,
): Promise<ResolvedUser> {
  const adapter = options.adapter
  const link = async (user: AdapterUser) => {
    const account = { ...sign.stored, providerAccountId: sign.account.providerAccountId, provider: sign.account.provider, type: sign.account.type, userId: user.id } as AdapterAccount
    await adapter!.linkAccount!(account)
    await emitEvent(options.config, options.logger, "linkAccount", { user, account, profile: sign.profile as User })
    return { user, isNewUser: false }
  }
  switch (plan) {
    case "noDatabase":
      return { user: sign.user, isNewUser: false }
    case "signInLinkedUser":
      return { user: lookup.linked!, isNewUser: false }
    case "linkToSignedInUser":
      return link(lookup.signedIn!)
    case "linkToEmailOwner":
      return link(lookup.emailOwner!)
    case "createUser": {
      // The id is chosen here and reported before the write, so a failed sign-in can delete the user
      // by it (the OAuth machine's undoingCreatedUser), even when the write landed and its answer did not.
      const id = sign.user.id ?? randomUUID()
      onCreating?.(id)
      const created = await adapter!.createUser!({ ...sign.user, id, email: sign.user.email ?? "", emailVerified: null } as AdapterUser)
      await link(created)
      await emitEvent(options.config, options.logger, "createUser", { user: created })
      return { user: created, isNewUser: true }
    }
  }
}
