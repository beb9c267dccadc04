/**
 * The address verification machine for one Password provider that mails verification links: the
 * kit signs a new user up (through the real sign-up, not recorded), takes the link from the mail
 * your `sendMail` accepted, and follows it as mailed or after something happened to it (its token
 * taken out, tampered with, expired; the address verified already or changed since; the user gone).
 *
 * @module
 */
import { passwordVerifyEmailMachine } from "../../machines/password-verify-email.js"
import { Browser } from "../browser.js"
import type { EventRole, MachineDriver } from "./driver.js"
import { editLink, kitPassword, linkEditOf, linkRole, mailedLink, passwordRole } from "./password-account.js"
import type { MachineEvent } from "../transitions.js"
import type { AuthConfig, CredentialsConfig } from "../../types.js"

/**
 * The driver of the address verification machine for one Password provider of `config` (with
 * `sendMail`, and `verification` not `"off"`).
 *
 * @example
 * ```ts
 * passwordVerifyEmailDriver(config, Password({ sendMail })).target // "password-verify-email password"
 * ```
 */
export function passwordVerifyEmailDriver(config: AuthConfig, provider: CredentialsConfig): MachineDriver {
  function role(event: MachineEvent): EventRole {
    const link = linkRole(event)
    if (link) return link
    switch (event.type) {
      case "user.found": {
        const found = event as { bound?: boolean; verified?: boolean }
        if (!found.bound) return { condition: "address changed since the link was mailed" }
        return found.verified ? { condition: "address verified already" } : {}
      }
      case "lookup.failed":
        return { condition: "user lookup failed" }
      case "update.failed":
        return { condition: "marking the address verified failed" }
      default:
        return passwordRole(event) ?? {}
    }
  }

  return {
    machine: passwordVerifyEmailMachine,
    target: `password-verify-email ${provider.id}`,
    provider: provider.id,
    events: [
      { type: "link.opened", link: { userId: "u1", email: "a user" } },
      { type: "user.found", bound: true, verified: false },
      { type: "user.found", bound: true, verified: true },
      { type: "user.found", bound: false, verified: false },
      { type: "lookup.failed", error: "getUser threw" },
      { type: "update.failed", error: "updateUser threw" },
    ],
    role,
    unreachable(path) {
      if (path.some((event) => event.type === "user.missing") && !config.adapter?.deleteUser) return "the adapter has no deleteUser: the kit cannot remove the user a link names"
      return undefined
    },
    async drive(scenario, world) {
      const labels = new Set(scenario.conditions.map((event) => role(event).condition))
      const database = world.database!
      const email = world.users.newEmail
      // The link is mailed at sign-up, in another browser (not recorded: sign-up has its own paths)…
      const asking = new Browser(world.config, world.browser.origin, world.browser.basePath)
      await asking.send(`/signup/${provider.id}`, { form: { email, password: kitPassword, callbackUrl: world.callbackUrl, csrfToken: await asking.csrfToken() }, record: false })
      const mailed = mailedLink(world, "verify-email", "password-sign-up")
      if (!mailed) return
      const link = await editLink(world, mailed, "verify-email", linkEditOf(labels))
      // …something happens to the account meanwhile…
      const user = await database.getUserByEmail!(email)
      if (user && labels.has("address verified already")) await database.updateUser!({ id: user.id, emailVerified: new Date() })
      if (user && labels.has("address changed since the link was mailed")) await database.updateUser!({ id: user.id, email: `changed-${email}` })
      if (user && labels.has("user gone")) await database.deleteUser!(user.id)
      if (labels.has("user lookup failed")) world.record.failing.add("getUser")
      if (labels.has("marking the address verified failed")) world.record.failing.add("updateUser")
      // …and it is followed.
      await world.send(link.href)
    },
  }
}
