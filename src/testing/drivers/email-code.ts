/**
 * The email code machine for one email provider that mails a code (`code: "instead"` or
 * `"beside"`): the kit asks for a sign-in email in its browser (through the real email sign-in,
 * not recorded: it has its own paths), takes the code from the mail, and types it in that browser:
 * the right one, a wrong one until the tries run out, the right one past its end (the waiting flow
 * sealed again with the code expired); with the flow's cookie sent twice, without CSRF, over the
 * rate limit; the link mailed beside the code followed first, or using it up failing; then the
 * sign-in as the link does it (a new or an existing user, a browser signed in already, the
 * database failing, the sign-in tail).
 *
 * @module
 */
import { emailCodeMachine, type EmailCodeStart } from "../../machines/email-code.js"
import type { SignInTailPolicy } from "../../machines/sign-in-tail.js"
import { Browser } from "../browser.js"
import { everyTailPolicy, has, limiterModeOf, prepareSecondFactor, rateLimitRole, rateLimitUnreachable, signInTailEvents, signInTailRole, signInTailUnreachable, tailPolicyNote, tailPolicyOf, type EventRole, type MachineDriver } from "./driver.js"
import { emailAddressOf, emailUserEvents, emailUserRole, newUserMismatch, prepareEmailUser } from "./email-user.js"
import { csrfUnreachable, failsOpenBeside } from "./password-account.js"
import { codeAgainEvents, codeCheckEvents, codeFlowRole, otherThanWrongCodes, submittedPolicyOf, typeCode, typeWrongCodes } from "./code-flow.js"
import { strategyOf } from "../world.js"
import type { MachineEvent } from "../transitions.js"
import type { EmailConfig } from "../../providers/email-config.js"
import type { AuthConfig } from "../../types.js"

/** The model's flows: the code's hash is `mailed`, it dies at time 2; with `beside`, the link's token is stored too. */
const instead: EmailCodeStart = { identifier: "someone@example.test", codeHash: "mailed", expiresAt: 2, callbackUrl: "/" }
const beside: EmailCodeStart = { ...instead, linkTokenHash: "link" }

/**
 * The driver of the email code machine for one email provider of `config` (with `code`
 * `"instead"` or `"beside"`).
 *
 * @example
 * ```ts
 * emailCodeDriver(config, Nodemailer({ server, code: "instead" })).target // "email-code nodemailer"
 * ```
 */
export function emailCodeDriver(config: AuthConfig, provider: EmailConfig): MachineDriver {
  const strategy = strategyOf(config)
  const own = tailPolicyOf(config, strategy)
  const policies = everyTailPolicy(own)
  const policyOf = submittedPolicyOf<SignInTailPolicy>
  // The provider's own mode first: the other one's paths are named unreachable.
  const starts = provider.code === "beside" ? [beside, instead] : [instead, beside]
  const user = emailUserEvents(instead.identifier)

  function role(event: MachineEvent): EventRole {
    const shared = codeFlowRole(event, instead)
    if (shared) return shared
    switch (event.type) {
      case "code.submitted": {
        const note = tailPolicyNote(event.policy as SignInTailPolicy, own)
        return note ? { note } : {}
      }
      case "token.used":
        return event.row === null ? { condition: "link mailed beside the code followed first" } : {}
      case "token.failed":
        return { condition: "using up the link failed" }
      default:
        return emailUserRole(event) ?? rateLimitRole(event) ?? signInTailRole(event, strategy, config) ?? {}
    }
  }

  return {
    machine: emailCodeMachine,
    target: `email-code ${provider.id}`,
    provider: provider.id,
    events: (snapshot) => {
      const { context } = snapshot
      // After a wrong code, the next request types a wrong one again, until the last try: its faults take the same transitions as the first request's.
      if (context.attempts > 0) return codeAgainEvents(context)
      return [
        ...codeCheckEvents(context, policies, instead),
        // The link mailed beside the code: still there (the code uses it up), or it signed in first.
        { type: "token.used", row: { identifier: instead.identifier, expires: new Date(0) } },
        { type: "token.used", row: null },
        { type: "token.failed", error: "useVerificationToken threw" },
        ...user.lookup,
        ...signInTailEvents(snapshot),
        ...user.writes,
      ]
    },
    inputs: starts,
    inputNote: (input) => (input === starts[0] ? undefined : (input as EmailCodeStart).linkTokenHash === undefined ? "code instead of the link" : "code beside the link"),
    role,
    impossible: newUserMismatch,
    // After a wrong code, a fault takes the same transitions as at the first request: the later requests type wrong codes until the last try.
    // A right code always finds the address someone's or new: failing open is driven beside a new address.
    redundant: (path) => failsOpenBeside(path, (event) => (event.type === "user.lookedUp" && !event.user ? {} : role(event))) || otherThanWrongCodes(path, role),
    unreachable(path, input) {
      if (input !== starts[0]) {
        return provider.code === "beside"
          ? `providers.${provider.id}.code is "beside": the link is mailed beside the code, and a right code uses it up`
          : `providers.${provider.id}.code is "instead": no link is mailed beside the code`
      }
      const csrf = csrfUnreachable(path, config)
      if (csrf) return csrf
      if (has(path, "flow.claimFailed") && config.replayStore) return "replayStore is your own: the kit makes only the adapter-backed default fail"
      const limited = rateLimitUnreachable(path, config, "email-code")
      if (limited) return limited
      return signInTailUnreachable(path, strategy, config, policyOf(path), { email: true })
    },
    async drive(scenario, world) {
      const labels = new Set(scenario.conditions.map((event) => role(event).condition))
      const route = `/callback/${provider.id}`
      // The code is asked for in this browser, which the flow then waits in (not recorded: the email sign-in has its own paths)…
      await world.browser.send(`/signin/${provider.id}`, { form: { email: await emailAddressOf(labels, world), callbackUrl: world.callbackUrl, csrfToken: await world.csrfToken() }, record: false })
      const mailed = world.mail.at(-1)
      if (mailed?.code === undefined) {
        const asked = world.recorder.runs.filter((run) => run.machine === "email-sign-in").at(-1)
        world.note = `mails no code: asking for it ended in ${asked?.states.at(-1) ?? "nothing"}`
        return
      }
      const { code } = mailed
      // …the link mailed beside it is followed first, in another browser, where the path says so…
      if (labels.has("link mailed beside the code followed first")) await new Browser(world.config, world.browser.origin, world.browser.basePath).send(mailed.url, { record: false })
      // …wrong codes are typed first, where the path says so (every try, where they run out)…
      const typed = await typeWrongCodes(world, route, code, scenario.conditions.filter((event) => role(event).condition === "wrong code").length)
      // …then the path's own request.
      if (labels.has("claimFlow failed")) for (const method of ["useVerificationToken", "createVerificationToken"]) world.record.failing.add(method)
      // The flow is claimed first (the replay store's row): only using up the link's token fails.
      if (labels.has("using up the link failed")) world.record.failingOwnRows.add("useVerificationToken")
      await prepareEmailUser(labels, world)
      prepareSecondFactor(scenario.conditions, world)
      world.limitRequests(limiterModeOf(scenario.conditions))
      await typeCode(world, labels, route, typed, { kind: "email-code", providerId: provider.id })
    },
  }
}
