/**
 * What the email flows share, the link (email.ts) and the emailed code (email-code.ts): how a
 * link's token is stored, the adapter methods they use, the account of an address, and the
 * effects that find, verify or create the user an email sign-in signs in.
 *
 * @module
 */
import { randomUUID, sha256Hex } from "../core/crypto.js"
import { emitEvent } from "../core/events.js"
import { sessionStoreOf } from "../core/session-cookie.js"
import { askSignIn, resolveRedirect } from "./sign-in-callback.js"
import type { SignInOutcome } from "./issue-session.js"
import type { EmailUserContext, EmailUserEvent, EmailUserPlan } from "../machines/email-user.js"
import type { SignInTailEvent } from "../machines/sign-in-tail.js"
import type { EmailConfig } from "../providers/email-config.js"
import type { AuthOptions } from "../core/options.js"
import type { Account } from "../types.js"
import type { Adapter, AdapterUser } from "../adapters.js"

/**
 * A link's token as stored: `sha256(token + secret)`, so a database leak reveals no usable link.
 *
 * @example
 * ```ts
 * await adapter.createVerificationToken({ identifier, token: hashToken(options, provider, token), expires })
 * ```
 */
export function hashToken(options: AuthOptions, provider: EmailConfig, token: string): string {
  const secret = provider.secret ?? options.secret
  return sha256Hex(`${token}${Array.isArray(secret) ? secret.join(",") : secret}`)
}

/**
 * The account an email sign-in signs in with: the address at the provider.
 *
 * @example
 * ```ts
 * emailAccount(provider, "ada@example.com", user.id) // { providerAccountId: "ada@example.com", type: "email", provider: "email", userId }
 * ```
 */
export function emailAccount(provider: EmailConfig, email: string, userId: string | undefined): Account {
  return { providerAccountId: email, type: "email", provider: provider.id, ...(userId && { userId }) }
}

/** The adapter methods the email flows write and read with. */
export type EmailAdapter = Adapter & Required<Pick<Adapter, "createVerificationToken" | "useVerificationToken" | "getUserByEmail" | "createUser" | "updateUser" | "deleteSession">>

/**
 * The configuration's adapter, with the methods the email flows use (the configuration checks
 * refuse an email provider without them).
 *
 * @example
 * ```ts
 * const adapter = emailAdapter(options)
 * ```
 */
export function emailAdapter(options: AuthOptions): EmailAdapter {
  const adapter = options.adapter
  const missing = (["createVerificationToken", "useVerificationToken", "getUserByEmail", "createUser", "updateUser", "deleteSession"] as const).filter((method) => !adapter?.[method])
  if (!adapter || missing.length) throw new TypeError(`Email sign-in needs an adapter with ${missing.join(", ")}`)
  return adapter as EmailAdapter
}

/**
 * Who an email sign-in signs in, from its flow's context: the user it planned (or wrote) and the
 * address's account.
 *
 * @example
 * ```ts
 * const { user, account } = signingIn(provider, context)
 * ```
 */
export function signingIn(provider: EmailConfig, { user, identifier, isNewUser }: EmailUserContext): SignInOutcome {
  if (!user || identifier === undefined) throw new Error("The email sign-in has no user to sign in yet")
  return { user, account: emailAccount(provider, identifier, user.id), isNewUser: isNewUser ?? false }
}

type Outcome<TType extends string> = Extract<EmailUserEvent | SignInTailEvent, { type: TType }>

/**
 * The effects that find who has the address, ask the `signIn` callback, sign a browser out of
 * another user's database session, and verify or create the user (firing `updateUser` or
 * `createUser`): the same for a link and a code.
 *
 * @example
 * ```ts
 * const effects = { ...emailUserEffects(options, provider), … }
 * ```
 */
export function emailUserEffects(options: AuthOptions, provider: EmailConfig) {
  const adapter = emailAdapter(options)
  return {
    lookUpUser: async ({ identifier }: EmailUserContext): Promise<Outcome<"user.lookedUp" | "lookup.failed">> => {
      try {
        // The id a user the sign-in creates gets: the `signIn` callback sees the user it will write.
        return { type: "user.lookedUp", user: await adapter.getUserByEmail(identifier ?? ""), newUserId: randomUUID() }
      } catch (error) {
        return { type: "lookup.failed", error }
      }
    },
    askSignIn: (context: EmailUserContext) => {
      const { user, account } = signingIn(provider, context)
      return askSignIn(options, { user, account })
    },
    resolveRedirect: ({ requestedRedirect }: EmailUserContext) => resolveRedirect(options, requestedRedirect ?? ""),
    findCurrentSession: async (): Promise<Outcome<"currentSession.found" | "currentSession.none" | "currentSession.failed">> => {
      try {
        const sessionToken = sessionStoreOf(options).value
        const current = sessionToken ? await adapter.getSessionAndUser?.(sessionToken) : null
        return current ? { type: "currentSession.found", userId: current.user.id } : { type: "currentSession.none" }
      } catch (error) {
        return { type: "currentSession.failed", error }
      }
    },
    endOtherSession: async (): Promise<Outcome<"otherSession.ended" | "otherSession.failed">> => {
      try {
        const sessionToken = sessionStoreOf(options).value
        if (sessionToken) await adapter.deleteSession(sessionToken)
        return { type: "otherSession.ended" }
      } catch (error) {
        return { type: "otherSession.failed", error }
      }
    },
    persistUser: async (context: EmailUserContext): Promise<Outcome<"user.persisted" | "persist.failed">> => {
      const writes: Record<EmailUserPlan, (user: AdapterUser) => Promise<{ user: AdapterUser; isNewUser: boolean }>> = {
        verifyExistingUser: async (user) => {
          const updated = await adapter.updateUser({ id: user.id, emailVerified: new Date() })
          await emitEvent(options.config, options.logger, "updateUser", { user: updated })
          return { user: updated, isNewUser: false }
        },
        createUser: async (user) => {
          const created = await adapter.createUser({ ...user, emailVerified: new Date() })
          await emitEvent(options.config, options.logger, "createUser", { user: created })
          return { user: created, isNewUser: true }
        },
      }
      try {
        if (!context.plan || !context.user) throw new Error("The email sign-in has no user to write")
        return { type: "user.persisted", ...(await writes[context.plan](context.user)) }
      } catch (error) {
        return { type: "persist.failed", error }
      }
    },
  }
}
