/**
 * The password sign-up machine for one Password provider: the kit signs up with a new address (or
 * the fixtures' existing user's, or one no mail can reach, or a password the rules refuse), with
 * the store, the mail service and a sign-up racing it for the address answering as the path says.
 *
 * @module
 */
import { passwordSignUpMachine, type PasswordSignUpPolicy } from "../../machines/password-sign-up.js"
import { everyTailPolicy, has, limiterModeOf, prepareSecondFactor, rateLimitEvents, rateLimitRole, rateLimitUnreachable, secondFactorFinding, signInTailEvents, signInTailRole, signInTailUnreachable, tailPolicyNote, tailPolicyOf, type EventRole, type MachineDriver } from "./driver.js"
import { strategyOf } from "../world.js"
import { csrfUnreachable, existingPasswordUser, failsOpenBeside, kitPassword, tooShort } from "./password-account.js"
import type { MachineEvent } from "../transitions.js"
import type { AuthConfig, CredentialsConfig } from "../../types.js"

/** What a sign-up mails and where it ends, under a provider's `verification`, `verifyBy` and `sendMail`. */
type VerificationPolicy = Required<Pick<PasswordSignUpPolicy, "requiresVerifiedEmail" | "mailsVerification" | "verifiesByCode">>

/** Every verification policy a provider can have: off or without mail, optional or required, by link or by code. */
const verificationPolicies: readonly VerificationPolicy[] = [
  { requiresVerifiedEmail: false, mailsVerification: false, verifiesByCode: false },
  { requiresVerifiedEmail: false, mailsVerification: true, verifiesByCode: false },
  { requiresVerifiedEmail: false, mailsVerification: true, verifiesByCode: true },
  { requiresVerifiedEmail: true, mailsVerification: true, verifiesByCode: false },
  { requiresVerifiedEmail: true, mailsVerification: true, verifiesByCode: true },
]

const sameVerification = (a: VerificationPolicy, b: PasswordSignUpPolicy) =>
  a.requiresVerifiedEmail === Boolean(b.requiresVerifiedEmail) && a.mailsVerification === Boolean(b.mailsVerification) && a.verifiesByCode === Boolean(b.verifiesByCode)

/** How a verification policy reads in a path's name. */
function verificationNote(policy: PasswordSignUpPolicy): string {
  if (!policy.mailsVerification && !policy.requiresVerifiedEmail) return "nothing mailed"
  return `verification ${policy.requiresVerifiedEmail ? "required" : "optional"}, by ${policy.verifiesByCode ? "code" : "link"}`
}

/**
 * The driver of the password sign-up machine for one Password provider of `config`.
 *
 * @example
 * ```ts
 * passwordSignUpDriver(config, Password()).target // "password-sign-up password"
 * ```
 */
export function passwordSignUpDriver(config: AuthConfig, provider: CredentialsConfig): MachineDriver {
  const strategy = strategyOf(config)
  const settings = provider.passwordAccounts!
  const mails = settings.sendMail !== undefined
  const own: VerificationPolicy = {
    requiresVerifiedEmail: settings.verification === "required",
    mailsVerification: mails && settings.verification !== "off",
    verifiesByCode: mails && (settings.verifyBy ?? "link") !== "link",
  }
  const tail = tailPolicyOf(config, strategy)
  const policyOf = (input: unknown) => (input as { policy?: PasswordSignUpPolicy } | undefined)?.policy
  // The provider's own verification with every tail policy, then every other verification with its own tail (their paths are named, not driven).
  const inputs = [...everyTailPolicy(tail).map((each) => ({ policy: { ...each, ...own } })), ...verificationPolicies.filter((each) => !sameVerification(each, { ...tail, ...own })).map((each) => ({ policy: { ...tail, ...each } }))]
  const ownInput = inputs[0]!.policy

  function verificationUnreachable(policy: PasswordSignUpPolicy): string | undefined {
    if (sameVerification(own, policy)) return undefined
    const at = `providers.${provider.id}`
    if (!mails) return `${at} has no sendMail: a sign-up mails nothing, and signs the new user in at once`
    if (settings.verification === "off") return `${at}.verification is "off": a sign-up mails no verification, and signs the new user in at once`
    if (Boolean(policy.requiresVerifiedEmail) !== own.requiresVerifiedEmail || !policy.mailsVerification) {
      return own.requiresVerifiedEmail ? `${at}.verification is "required": a new account waits for its address to be verified` : `${at}.verification is "optional": a new account is mailed its verification and signed in at once`
    }
    return own.verifiesByCode ? `${at}.verifyBy is "${settings.verifyBy}": the mail carries a code, typed in the browser that signed up` : `${at}.verifyBy is "link": the mail carries a link, and no code`
  }

  function role(event: MachineEvent): EventRole {
    switch (event.type) {
      case "csrf.invalid":
        return { condition: "csrf.invalid" }
      case "signUp.read": {
        const read = event as { emailProblem?: string; passwordProblem?: string }
        if (read.emailProblem) return { condition: "not an address" }
        return read.passwordProblem ? { condition: "password too short" } : {}
      }
      case "user.exists":
        return { condition: "email taken" }
      case "lookup.failed":
        return { condition: "user lookup failed" }
      case "create.failed":
        return (event as { addressTaken?: boolean }).addressTaken ? { condition: "another sign-up took the address meanwhile" } : { condition: "writing the account failed" }
      case "mail.failed":
        return { condition: "mail service down" }
      case "user.absent":
      case "account.created":
      case "mail.sent":
        return {}
      default:
        return rateLimitRole(event) ?? signInTailRole(event, strategy, config) ?? {}
    }
  }

  return {
    machine: passwordSignUpMachine,
    target: `password-sign-up ${provider.id}`,
    provider: provider.id,
    events: (snapshot) => [
      { type: "signUp.read", email: "someone@example.test", name: "Someone" },
      { type: "signUp.read", emailProblem: "syntax" },
      { type: "signUp.read", email: "someone@example.test", passwordProblem: "too-short" },
      ...rateLimitEvents,
      { type: "user.exists" },
      { type: "user.absent" },
      { type: "lookup.failed", error: "getUserByEmail threw" },
      { type: "account.created", user: { id: "u1", email: "someone@example.test" } },
      { type: "create.failed", error: "linkAccount threw", addressTaken: false },
      { type: "create.failed", error: "the address is taken", addressTaken: true },
      { type: "mail.sent" },
      { type: "mail.failed", error: "sendMail threw" },
      ...signInTailEvents(snapshot),
    ],
    inputs,
    inputNote(input) {
      const policy = policyOf(input)
      if (!policy) return undefined
      if (!sameVerification(own, policy)) return verificationNote(policy)
      return tailPolicyNote(policy, tail)
    },
    role,
    redundant: (path) => failsOpenBeside(path, role),
    unreachable(path, input) {
      const policy = policyOf(input) ?? ownInput
      const verification = verificationUnreachable(policy)
      if (verification) return verification
      const csrf = csrfUnreachable(path, config)
      if (csrf) return csrf
      const limited = rateLimitUnreachable(path, config, "credentials")
      if (limited) return limited
      if (path.some((event) => event.type === "signUp.read" && (event as { passwordProblem?: string }).passwordProblem) && tooShort(provider) === undefined) {
        return `providers.${provider.id}.minLength is 1 or less: every password the form can post is long enough`
      }
      // A new user has nothing the tail's lookup could find but a requirement (or the lookup failing).
      const finding = path.map(secondFactorFinding).find((each) => each !== undefined)
      if (Boolean(policy.secondFactor) === Boolean(tail.secondFactor)) {
        if (finding === "enrolled") return "a user the sign-up creates has no second factor yet"
        if (finding === "trusted device") return "a user the sign-up creates has no trusted device yet"
      }
      return signInTailUnreachable(path, strategy, config, policy)
    },
    async drive(scenario, world) {
      const labels = new Set(scenario.conditions.map((event) => role(event).condition))
      let email = world.users.newEmail
      if (labels.has("email taken")) email = (await existingPasswordUser(world, true)).email
      if (labels.has("another sign-up took the address meanwhile")) world.userLandsFirst = true
      if (labels.has("user lookup failed")) world.record.failing.add("getUserByEmail")
      if (labels.has("writing the account failed")) world.record.failing.add("linkAccount")
      if (has(scenario.conditions, "session.failed")) world.record.failing.add("createSession")
      world.mailFails = labels.has("mail service down")
      prepareSecondFactor(scenario.conditions, world)
      world.limitRequests(limiterModeOf(scenario.conditions))
      const csrfToken = await world.csrfToken()
      const form: Record<string, string> = {
        email: labels.has("not an address") ? "not an address" : email,
        password: labels.has("password too short") ? tooShort(provider)! : kitPassword,
        name: "Sign-up User",
        callbackUrl: world.callbackUrl,
        ...(!labels.has("csrf.invalid") && { csrfToken }),
      }
      await world.send(`/signup/${provider.id}`, { form })
    },
  }
}
