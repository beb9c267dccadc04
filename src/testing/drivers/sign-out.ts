/**
 * The sign-out machine: a browser signed in (or not, or with a session cookie that no longer
 * decodes), signing out the way the configuration keeps sessions.
 *
 * @module
 */
import { signOutMachine } from "../../machines/sign-out.js"
import { skipCSRFCheck } from "../../core/symbols.js"
import { find, has, type MachineDriver } from "./driver.js"
import { strategyOf } from "../world.js"
import type { AuthConfig } from "../../types.js"

/**
 * The driver of the sign-out machine for `config`.
 *
 * @example
 * ```ts
 * signOutDriver(config).target // "sign-out"
 * ```
 */
export function signOutDriver(config: AuthConfig): MachineDriver {
  const strategy = strategyOf(config)
  return {
    machine: signOutMachine,
    target: "sign-out",
    events: [
      { type: "session.found", strategy: "jwt" },
      { type: "session.found", strategy: "database" },
      { type: "decode.failed", error: "the session cookie does not decode" },
      { type: "delete.failed", error: "deleteSession threw" },
    ],
    role(event) {
      if (event.type === "session.found" && event.strategy !== strategy) return { condition: "session.found", note: `${String(event.strategy)} session` }
      return ["csrf.invalid", "session.none", "session.found", "decode.failed", "delete.failed"].includes(event.type) ? { condition: event.type } : {}
    },
    unreachable(path) {
      if (has(path, "csrf.invalid") && config.skipCSRFCheck === skipCSRFCheck) return "skipCSRFCheck: the CSRF token is not checked"
      const found = find<{ type: string; strategy: string }>(path, "session.found")
      if (found && found.strategy !== strategy) return `sessions are ${strategy} sessions${strategy === "database" ? ": no JWT is decoded" : ": no session row is deleted"}`
      return undefined
    },
    async drive(scenario, world) {
      const { conditions } = scenario
      if (has(conditions, "decode.failed")) world.browser.cookies.set(world.sessionCookie, "a-session-cookie-that-does-not-decode")
      else if (!has(conditions, "session.none")) await world.signInAs(await world.existingUser())
      if (has(conditions, "delete.failed")) world.record.failing.add("deleteSession")
      const csrfToken = await world.csrfToken()
      await world.send("/signout", { form: { callbackUrl: world.callbackUrl, ...(!has(conditions, "csrf.invalid") && { csrfToken }) } })
    },
  }
}
