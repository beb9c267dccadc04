/**
 * What the drivers of the Password provider's machines share: the kit's own password account for
 * the fixtures' existing user, the links the provider mails (captured from your `sendMail`, then
 * edited, expired or tampered with as a path needs), and the reasons a configuration cannot reach
 * a path.
 *
 * @module
 */
import { hashPassword, type PasswordHashOptions } from "../../core/password/index.js"
import { openPasswordLink, sealPasswordLink, type PasswordLinkPurpose } from "../../actions/password/link-token.js"
import { skipCSRFCheck } from "../../core/symbols.js"
import type { PasswordChangePolicy } from "../../machines/password-reset.js"
import type { World } from "../world.js"
import { limiterModeOf, type EventRole } from "./driver.js"
import type { MachineEvent } from "../transitions.js"
import type { AdapterUser } from "../../adapters.js"
import type { AuthConfig, CredentialsConfig, PasswordMail } from "../../types.js"

/** The password of the kit's own account (never a real one: the kit's database is yours to test on). */
export const kitPassword = "authflow/testing password"

/** The new password a reset or change sets, and one the length rules refuse. */
export const newPassword = `${kitPassword} (new)`

/** Why a path that needs a CSRF token refused cannot happen, or undefined. */
export function csrfUnreachable(path: readonly MachineEvent[], config: AuthConfig): string | undefined {
  return path.some((event) => event.type === "csrf.invalid") && config.skipCSRFCheck === skipCSRFCheck ? "skipCSRFCheck: the CSRF token is not checked" : undefined
}

/**
 * True for a path where the rate-limit store fails open beside other conditions: failing open
 * lets the request through, so the path takes the transitions of its other conditions, taken
 * without it, and the one path where it is alone takes its own.
 */
export function failsOpenBeside(path: readonly MachineEvent[], role: (event: MachineEvent) => { condition?: string }): boolean {
  const conditions = path.map((event) => role(event).condition).filter((condition) => condition !== undefined)
  return conditions.includes("rate-limit store down (fails open)") && conditions.length > 1
}

/** A password the provider's length rules refuse (one code point under `minLength`), or undefined where none is (`minLength` 1 or less). */
export function tooShort(provider: CredentialsConfig): string | undefined {
  const min = provider.passwordAccounts!.minLength ?? 8
  return min > 1 ? "x".repeat(min - 1) : undefined
}

/**
 * Keeps the kit's password account for `user` in the path's database (not recorded): the hash of
 * {@link kitPassword}, made with `hashing`, written over the one stored.
 */
export async function storePasswordAccount(world: World, providerId: string, user: AdapterUser, hashing: PasswordHashOptions): Promise<string> {
  const database = world.database!
  const hash = await hashPassword(kitPassword, hashing)
  const stored = await database.getAccount!(user.id, providerId)
  if (stored?.refresh_token) await database.updateAccountTokens!({ provider: providerId, providerAccountId: stored.providerAccountId }, stored.refresh_token, { refresh_token: hash })
  else await database.linkAccount!({ userId: user.id, type: "credentials" as never, provider: providerId, providerAccountId: user.id, refresh_token: hash })
  return hash
}

/** The existing user of the fixtures, verified or not as the path needs (not recorded). */
export async function existingPasswordUser(world: World, verified: boolean): Promise<AdapterUser> {
  const user = await world.existingUser()
  await world.database!.updateUser!({ id: user.id, emailVerified: verified ? new Date() : null })
  return user
}

/** The link of the last mail of `kind` your `sendMail` accepted, or undefined (the path is noted). */
export function mailedLink(world: World, kind: "verify-email" | "reset-password" | "change-email", asked: string): URL | undefined {
  const mail = world.passwordMail.filter((each): each is Extract<PasswordMail, { url: string }> => each.kind === kind).at(-1)
  if (mail) return new URL(mail.url)
  const run = world.recorder.runs.filter((each) => each.machine === asked).at(-1)
  world.note = `mails no ${kind} link: asking for it ended in ${run?.states.at(-1) ?? "nothing"}`
  return undefined
}

/**
 * The code of the last verification mail (or, with `kind` `"reset-password"`, reset mail) your
 * `sendMail` accepted, or undefined (the path is noted): the kit types it as the user would, in
 * the browser that asked for it.
 */
export function mailedCode(world: World, asked: string, kind: "verify-email" | "reset-password" = "verify-email"): string | undefined {
  const mail = world.passwordMail.filter((each): each is Extract<PasswordMail, { kind: "verify-email" | "reset-password" }> => each.kind === kind && each.code !== undefined).at(-1)
  if (mail) return mail.code
  const run = world.recorder.runs.filter((each) => each.machine === asked).at(-1)
  world.note = `mails no ${kind === "verify-email" ? "verification" : "reset"} code: asking for it ended in ${run?.states.at(-1) ?? "nothing"}`
  return undefined
}

/** What a path does to a mailed link before following it: nothing, its token taken out, edited, or sealed again already expired. */
export type LinkEdit = "none" | "no token" | "tampered" | "expired"

/** The link as the path follows it (see {@link LinkEdit}). */
export async function editLink(world: World, link: URL, purpose: PasswordLinkPurpose, edit: LinkEdit): Promise<URL> {
  const token = link.searchParams.get("token") ?? ""
  const edited = new URL(link)
  if (edit === "no token") edited.searchParams.delete("token")
  if (edit === "tampered") edited.searchParams.set("token", `${token.slice(0, 12)}${token[12] === "A" ? "B" : "A"}${token.slice(13)}`)
  if (edit === "expired") {
    // The kit has no clock: the link's own claims, sealed again an hour past their end.
    const opened = await openPasswordLink(world.config.secret as string | string[], purpose, token)
    if (opened.ok) edited.searchParams.set("token", await sealPasswordLink(world.config.secret as string | string[], purpose, opened.claims, -3600))
  }
  return edited
}

/** The link edit a path's conditions ask for. */
export function linkEditOf(labels: ReadonlySet<string | undefined>): LinkEdit {
  if (labels.has("link without token")) return "no token"
  if (labels.has("link tampered with")) return "tampered"
  if (labels.has("link expired")) return "expired"
  return "none"
}

/** The conditions of the link refusals every link-following machine shares (`openLink`). */
export function linkRole(event: MachineEvent): { condition: string } | undefined {
  if (event.type === "link.missing") return { condition: "link without token" }
  if (event.type === "link.invalid") return { condition: "link tampered with" }
  if (event.type === "link.expired") return { condition: "link expired" }
  return undefined
}

/** The policy a password reset or change follows under this provider's settings. */
export function changePolicyOf(provider: CredentialsConfig): Required<PasswordChangePolicy> {
  const settings = provider.passwordAccounts!
  return { endsOtherSessions: settings.endOtherSessions !== false, mailsNotice: settings.sendMail !== undefined }
}

/** Why a path generated with another policy than the provider's cannot happen, or undefined. */
export function changePolicyUnreachable(own: Required<PasswordChangePolicy>, policy: PasswordChangePolicy | undefined): string | undefined {
  if (!policy) return undefined
  if (policy.endsOtherSessions !== own.endsOtherSessions) {
    return own.endsOtherSessions ? "endOtherSessions is on (the default): the user's other sessions are ended" : "endOtherSessions is false: every session is kept"
  }
  if ((policy.mailsNotice ?? true) !== own.mailsNotice) return own.mailsNotice ? "sendMail is set: the account is told its password changed" : "no sendMail: nobody is told the password changed"
  return undefined
}

/** Told in the name of a path generated with another policy than the provider's. */
export function changePolicyNote(policy: PasswordChangePolicy | undefined, own: Required<PasswordChangePolicy>): string | undefined {
  if (!policy) return undefined
  const notes = [
    ...(policy.endsOtherSessions !== own.endsOtherSessions ? [policy.endsOtherSessions ? "ending other sessions" : "keeping other sessions"] : []),
    ...((policy.mailsNotice ?? true) !== own.mailsNotice ? [policy.mailsNotice === false ? "no notice mailed" : "notice mailed"] : []),
  ]
  return notes.length ? notes.join(", ") : undefined
}

/** Ending the user's sessions fails where the path says: the adapter's `deleteUserSessions` (database sessions) or the revocation store (JWT). */
export function failSessionEnding(world: World): void {
  if (world.strategy === "database") world.record.failing.add("deleteUserSessions")
  else world.revocationFails = true
}

/**
 * The role of an event both reset machines (by link and by code) send after the new password is
 * read, its condition the same in each driver: undefined for any other event.
 *
 * @example
 * ```ts
 * resetRole({ type: "account.missing" }) // { condition: "user gone" }
 * ```
 */
export function resetRole(event: MachineEvent): EventRole | undefined {
  switch (event.type) {
    case "account.missing":
      return { condition: "user gone" }
    case "lookup.failed":
      return { condition: "account lookup failed" }
    case "verify.failed":
      return { condition: "marking the address verified failed" }
    case "sessions.failed":
      return { condition: "ending the sessions failed" }
    default:
      return undefined
  }
}

/**
 * The role of an event that several password machines share, its condition the same in each
 * driver: undefined for any other event (the driver's own roles come first).
 */
export function passwordRole(event: MachineEvent): EventRole | undefined {
  switch (event.type) {
    case "csrf.invalid":
      return { condition: "csrf.invalid" }
    case "session.none":
      return { condition: "not signed in" }
    case "session.failed":
      return { condition: "session lookup failed" }
    case "account.none":
      return { condition: "no password account" }
    case "check.failed":
      return { condition: "account lookup failed" }
    case "newPassword.read":
      return (event as { problem?: string }).problem ? { condition: "new password too short" } : {}
    case "password.raced":
      return { condition: "another change won the race" }
    case "write.failed":
      return { condition: "storing the new hash failed" }
    case "mail.failed":
      return { condition: "mail service down" }
    case "user.missing":
      return { condition: "user gone" }
    default:
      return undefined
  }
}

/**
 * Makes the world fail as a scenario's conditions (`labels`) say: each condition of `failing` makes
 * its adapter method throw, "mail service down" your `sendMail`; and the kit's rate limiter answers
 * as the scenario's limiter events say.
 */
export function failAsLabelled(world: World, labels: ReadonlySet<string | undefined>, conditions: readonly MachineEvent[], failing: Record<string, string>): void {
  for (const [condition, method] of Object.entries(failing)) if (labels.has(condition)) world.record.failing.add(method)
  if (labels.has("mail service down")) world.mailFails = true
  world.limitRequests(limiterModeOf(conditions))
}

/** Why a path with a new password too short cannot happen (no password is, `minLength` 1 or less), or undefined. */
export function tooShortUnreachable(path: readonly MachineEvent[], provider: CredentialsConfig): string | undefined {
  if (path.some((event) => event.type === "newPassword.read" && (event as { problem?: string }).problem) && !tooShort(provider)) return `providers.${provider.id}.minLength is 1 or less: no password is too short`
  return undefined
}
