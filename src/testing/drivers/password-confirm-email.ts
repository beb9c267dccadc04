/**
 * The email change confirmation machine for one Password provider that mails: the kit signs its
 * own account in and asks to move it to the fixtures' new address (through the real change
 * request, not recorded), takes the link from the mail your `sendMail` accepted, and follows it as
 * mailed or after something happened to it (its token taken out, tampered with, expired; followed
 * already; the user gone; the new address taken since).
 *
 * @module
 */
import { passwordConfirmEmailMachine } from "../../machines/password-confirm-email.js"
import type { EventRole, MachineDriver } from "./driver.js"
import { editLink, existingPasswordUser, kitPassword, linkEditOf, linkRole, mailedLink, storePasswordAccount, passwordRole } from "./password-account.js"
import type { MachineEvent } from "../transitions.js"
import type { AuthConfig, CredentialsConfig } from "../../types.js"

// The two lookups that can fail, told apart by what they read: the link's user, then the new address.
const userLookupFailed = { type: "lookup.failed", error: "getUser threw" }
const addressLookupFailed = { type: "lookup.failed", error: "getUserByEmail threw" }

/**
 * The driver of the email change confirmation machine for one Password provider of `config` (with `sendMail`).
 *
 * @example
 * ```ts
 * passwordConfirmEmailDriver(config, Password({ sendMail })).target // "password-confirm-email password"
 * ```
 */
export function passwordConfirmEmailDriver(config: AuthConfig, provider: CredentialsConfig): MachineDriver {
  const hashing = provider.passwordAccounts!.hashing ?? {}

  function role(event: MachineEvent): EventRole {
    const link = linkRole(event)
    if (link) return link
    switch (event.type) {
      case "user.found":
        return (event as { bound?: boolean }).bound ? {} : { condition: "link followed already" }
      case "lookup.failed":
        return { condition: (event as { error?: string }).error === userLookupFailed.error ? "user lookup failed" : "new address lookup failed" }
      case "newEmail.taken":
        return { condition: "new address taken since" }
      case "update.failed":
        return { condition: "changing the address failed" }
      default:
        return passwordRole(event) ?? {}
    }
  }

  return {
    machine: passwordConfirmEmailMachine,
    target: `password-confirm-email ${provider.id}`,
    provider: provider.id,
    events: [
      { type: "link.opened", link: { userId: "u1", email: "a user", newEmail: "new address" } },
      { type: "user.found", bound: true, verified: true },
      { type: "user.found", bound: false, verified: true },
      userLookupFailed,
      addressLookupFailed,
      { type: "update.failed", error: "updateUser threw" },
      { type: "mail.failed", error: "sendMail threw" },
    ],
    role,
    impossible(path) {
      // The user is looked up first, the new address after.
      return path.some((event, index) => event.type === "lookup.failed" && (event as { error?: string }).error === (path[index - 1]?.type === "link.opened" ? addressLookupFailed.error : userLookupFailed.error))
    },
    unreachable(path) {
      if (path.some((event) => event.type === "user.missing") && !config.adapter?.deleteUser) return "the adapter has no deleteUser: the kit cannot remove the user a link names"
      return undefined
    },
    async drive(scenario, world) {
      const labels = new Set(scenario.conditions.map((event) => role(event).condition))
      const database = world.database!
      const user = await existingPasswordUser(world, true)
      await storePasswordAccount(world, provider.id, user, hashing)
      const newEmail = world.users.newEmail
      // The link is asked for by the signed-in user (not recorded: the change request has its own paths)…
      await world.signInAs(user)
      await world.browser.send(`/change-email/${provider.id}`, { form: { newEmail, password: kitPassword, csrfToken: await world.csrfToken() }, record: false })
      const mailed = mailedLink(world, "change-email", "password-change-email")
      if (!mailed) return
      const link = await editLink(world, mailed, "change-email", linkEditOf(labels))
      // …something happens meanwhile…
      if (labels.has("link followed already")) await world.browser.send(link.href, { record: false })
      if (labels.has("user gone")) await database.deleteUser!(user.id)
      if (labels.has("new address taken since")) await world.ensureUser(newEmail, "Another User")
      if (labels.has("user lookup failed")) world.record.failing.add("getUser")
      if (labels.has("new address lookup failed")) world.record.failing.add("getUserByEmail")
      if (labels.has("changing the address failed")) world.record.failing.add("updateUser")
      if (labels.has("mail service down")) world.mailFails = true
      // …and it is followed.
      await world.send(link.href)
    },
  }
}
