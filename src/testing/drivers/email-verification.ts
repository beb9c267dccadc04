/**
 * The email verification machine for one email provider: a link asked for in one browser (through
 * the real email sign-in) and followed in another, as it was mailed, or after something happened
 * to it (used already, expired, edited, its token stored by older code).
 *
 * @module
 */
import { emailVerificationMachine } from "../../machines/email-verification.js"
import { sha256Hex } from "../../core/crypto.js"
import { Browser } from "../browser.js"
import { everyTailPolicy, find, has, prepareSecondFactor, signInTailEvents, signInTailRole, signInTailUnreachable, tailPolicyNote, tailPolicyOf, type EventRole, type MachineDriver } from "./driver.js"
import type { SignInTailPolicy } from "../../machines/sign-in-tail.js"
import { emailAddressOf, emailUserEvents, emailUserRole, newUserMismatch, prepareEmailUser } from "./email-user.js"
import { strategyOf } from "../world.js"
import type { MachineEvent } from "../transitions.js"
import type { EmailConfig } from "../../providers/email-config.js"
import type { AuthConfig } from "../../types.js"

// The model's addresses and clock: the link's address, another one, and one outside the grammar.
const linked = "linked@example.test"
const other = "other@example.test"
const hostile = "x<evil@evil.test>"
const checkedAt = new Date("2026-01-01T00:00:00.000Z")
const later = new Date(checkedAt.getTime() + 60_000)
const earlier = new Date(checkedAt.getTime() - 1_000)

type TokenUsed = { type: "token.used"; row: { identifier: string; expires: Date } | null }

/**
 * The driver of the email verification machine for one email provider of `config`.
 *
 * @example
 * ```ts
 * emailVerificationDriver(config, provider).target // "email-verification email"
 * ```
 */
export function emailVerificationDriver(config: AuthConfig, provider: EmailConfig): MachineDriver {
  const strategy = strategyOf(config)
  const policy = tailPolicyOf(config, strategy)
  const policyOf = (input: unknown) => (input as { policy?: SignInTailPolicy } | undefined)?.policy

  function role(event: MachineEvent): EventRole {
    switch (event.type) {
      case "link.read":
        return event.hasToken ? {} : { condition: "link without token" }
      case "token.used": {
        const row = (event as TokenUsed).row
        if (row === null) return { condition: "link used already" }
        if (row.identifier === hostile) return { condition: "token stored for an address outside the grammar" }
        if (row.identifier === other) return { condition: "link edited to another address", decidedBy: "adapter.useVerificationToken" }
        return row.expires < checkedAt ? { condition: "link expired" } : {}
      }
      case "token.failed":
      case "restore.failed":
        return { condition: event.type }
      case "token.restored":
        return { ordinary: true }
      default:
        return emailUserRole(event) ?? signInTailRole(event, strategy, config) ?? {}
    }
  }

  const user = emailUserEvents(linked)

  return {
    machine: emailVerificationMachine,
    target: `email-verification ${provider.id}`,
    provider: provider.id,
    events: (snapshot) => [
      { type: "link.read", hasToken: true, email: linked },
      { type: "link.read", hasToken: true, email: hostile },
      { type: "link.read", hasToken: false, email: linked },
      { type: "token.used", row: null, checkedAt },
      { type: "token.used", row: { identifier: linked, expires: earlier }, checkedAt },
      { type: "token.used", row: { identifier: other, expires: later }, checkedAt },
      { type: "token.used", row: { identifier: linked, expires: later }, checkedAt },
      { type: "token.used", row: { identifier: hostile, expires: later }, checkedAt },
      { type: "token.failed", error: "useVerificationToken threw" },
      ...user.lookup,
      ...signInTailEvents(snapshot),
      // Database sessions: the browser following the link is signed in already, as that user or as another one.
      ...user.writes,
      { type: "token.restored" },
      { type: "restore.failed", error: "createVerificationToken threw" },
    ],
    inputs: everyTailPolicy(policy).map((each) => ({ policy: each })),
    inputNote: (input) => tailPolicyNote(policyOf(input), policy),
    role,
    impossible(path) {
      // The database finds a token by its address: a link for the hostile address finds only the hostile row, and only it does.
      const link = find<{ type: string; email?: string }>(path, "link.read")
      const row = find<TokenUsed>(path, "token.used")?.row
      if (row && (link?.email === hostile) !== (row.identifier === hostile)) return true
      if (link?.email === hostile && (row === null || has(path, "token.failed"))) return true
      return newUserMismatch(path)
    },
    unreachable(path, input) {
      return signInTailUnreachable(path, strategy, config, policyOf(input), { email: true })
    },
    async drive(scenario, world) {
      prepareSecondFactor(scenario.conditions, world)
      const labels = new Set(scenario.conditions.map((event) => role(event).condition))
      const address = await emailAddressOf(labels, world)
      let link: URL
      if (labels.has("token stored for an address outside the grammar")) {
        // A token stored for an address no mail can have gone to as written (older code did that).
        const token = "f".repeat(64)
        const secret = provider.secret ?? world.config.secret!
        const hashed = sha256Hex(`${token}${Array.isArray(secret) ? secret.join(",") : secret}`)
        await world.database!.createVerificationToken!({ identifier: hostile, token: hashed, expires: new Date(Date.now() + 60_000) })
        link = new URL(`${world.browser.origin}${world.browser.basePath}/callback/${provider.id}`)
        link.search = new URLSearchParams({ callbackUrl: world.callbackUrl, token, email: hostile }).toString()
      } else {
        // The link is asked for in one browser (not recorded: the email sign-in has its own paths)…
        const asking = new Browser(world.config, world.browser.origin, world.browser.basePath)
        const edited = labels.has("link edited to another address")
        if (labels.has("link expired")) world.record.expireTokens = true
        await asking.send(`/signin/${provider.id}`, { form: { email: edited ? `other-${address}` : address, callbackUrl: world.callbackUrl, csrfToken: await asking.csrfToken() }, record: false })
        world.record.expireTokens = false
        const mailed = world.mail.at(-1)
        if (!mailed) {
          const asked = world.recorder.runs.filter((run) => run.machine === "email-sign-in").at(-1)
          world.note = `mails no link: asking for it ended in ${asked?.states.at(-1) ?? "nothing"}`
          return
        }
        link = new URL(mailed.url)
        if (labels.has("link without token")) link.searchParams.delete("token")
        if (edited) link.searchParams.set("email", address)
        if (labels.has("link used already")) await new Browser(world.config, world.browser.origin, world.browser.basePath).send(link.href, { record: false })
      }
      if (labels.has("token.failed")) world.record.failing.add("useVerificationToken")
      // Putting the token back after a failure is a write of its own, failing only where the path says.
      if (labels.has("restore.failed")) world.record.failing.add("createVerificationToken")
      // The browser that follows the link, signed in already (its own database session), and the database failing where the path says.
      await prepareEmailUser(labels, world)
      // …and followed in another.
      await world.send(link.href)
    },
  }
}
