/**
 * The WebAuthn machine for one WebAuthn or Passkey provider: GET `/webauthn-options` as a
 * signed-in user, with a new or a known email, or with none; the software authenticator
 * ({@link SoftCredential}) answering the options, straight or bent in each way the machine tells
 * apart; and POST `/callback` with its answer.
 *
 * @module
 */
import type { SnapshotFrom } from "xstate"
import { webAuthnMachine, type CeremonyFindings, type WebAuthnCeremony } from "../../machines/webauthn.js"
import { skipCSRFCheck } from "../../core/symbols.js"
import { SoftCredential, type AuthenticationOptionsJSON, type Bend, type RegistrationOptionsJSON } from "../authenticator.js"
import { everyTailPolicy, find, has, prepareSecondFactor, limiterEvents, limiterModeOf, rateLimitEvents, rateLimitRole, rateLimitUnreachable, signInTailEvents, signInTailRole, signInTailUnreachable, tailPolicyNote, tailPolicyOf, type EventRole, type MachineDriver, type Scenario } from "./driver.js"
import { strategyOf, type World } from "../world.js"
import type { SignInTailPolicy } from "../../machines/sign-in-tail.js"
import type { MachineEvent } from "../transitions.js"
import type { WebAuthnConfig } from "../../providers/webauthn-config.js"
import type { AuthConfig } from "../../types.js"

/** A ceremony's answer bent one way: the finding the machine judges, and how the authenticator (or the world) produces it. */
interface Bent {
  condition: string
  findings: Partial<CeremonyFindings>
  bend?: Bend
  ceremony?: WebAuthnCeremony
}

const bents: Bent[] = [
  { condition: "wrong ceremony type", findings: { type: "webauthn.other" }, bend: { type: "webauthn.other" } },
  { condition: "wrong challenge", findings: { challenge: "OTHER" }, bend: { challenge: "T1RIRVI" } },
  { condition: "wrong origin", findings: { originExpected: false, origin: "https://evil.test" }, bend: { origin: "https://evil.test" } },
  { condition: "wrong RP ID", findings: { rpIdExpected: false }, bend: { rpId: "evil.test" } },
  { condition: "user not present", findings: { userPresent: false }, bend: { userPresent: false } },
  { condition: "user not verified", findings: { userVerified: false }, bend: { userVerified: false } },
  { condition: "counter regressed", findings: { storedCounter: 5, counter: 5 }, bend: { counter: 5 }, ceremony: "authenticate" },
  { condition: "bad signature", findings: { verified: false }, bend: { badSignature: true }, ceremony: "authenticate" },
  { condition: "attestation refused", findings: { verified: false }, ceremony: "register" },
  { condition: "credential taken", findings: { credentialTaken: true }, ceremony: "register" },
  { condition: "signed in as another user", findings: { signedInAs: "someone-else" } },
]

/** Ids the model's events use for the user the options are about. */
const known = "known-user"

/** The findings of an answer every check accepts. */
function goodFindings(ceremony: WebAuthnCeremony, userId: string | undefined): CeremonyFindings {
  return {
    type: ceremony === "register" ? "webauthn.create" : "webauthn.get",
    challenge: "CHALLENGE",
    origin: "https://app.test",
    originExpected: true,
    rpIdExpected: true,
    userPresent: true,
    userVerified: true,
    userVerificationRequired: true,
    counter: ceremony === "register" ? 0 : 6,
    verified: true,
    ...(ceremony === "register" ? { credentialTaken: false, ...(userId && { signedInAs: userId }) } : { storedCounter: 5, credentialOwner: known }),
  }
}

type ModelEvent = MachineEvent & { bent?: string; mismatched?: boolean }

/** The payload-carrying events, given what the flow decided so far. */
function eventsFor(policies: SignInTailPolicy[]) {
  return (snapshot: SnapshotFrom<typeof webAuthnMachine>): ModelEvent[] => {
    const { requested, flow, user } = snapshot.context
    const signedIn = { type: "user.found", signedIn: true, exists: true, user: { id: known, email: "known@example.test" } }
    const knownEmail = { type: "user.found", signedIn: false, exists: true, user: { id: known, email: "known@example.test" } }
    const newEmail = { type: "user.found", signedIn: false, exists: false, user: { email: "new@example.test" } }
    const noEmail = { type: "user.found", signedIn: false, exists: false }
    const list: ModelEvent[] = [
      // The answer's limited state offers its own variants, so that its paths are named apart from the options request's.
      ...(snapshot.value === "checkingCallbackRateLimit" ? limiterEvents("callback") : rateLimitEvents),
      { type: "options.requested", action: "register" },
      { type: "options.requested", action: "authenticate" },
      { type: "options.requested", action: "delete" },
      { type: "options.requested" },
    ]
    if (requested === "authenticate") list.push(noEmail)
    if (requested === "register") list.push(newEmail, signedIn, knownEmail)
    if (requested === undefined && !flow) list.push(signedIn, newEmail, knownEmail, noEmail, { type: "lookup.failed", error: "getUserByEmail threw" })
    list.push({ type: "options.ready", challenge: "CHALLENGE" })
    if (requested === "authenticate" || (requested === "register" && user?.id === undefined)) list.push({ type: "options.failed", error: "the WebAuthn library threw" })
    if (flow) {
      const other = flow.ceremony === "register" ? "authenticate" : "register"
      list.push(...policies.map((policy) => ({ type: "ceremony.received", action: flow.ceremony, policy })))
      list.push({ type: "ceremony.received", action: other, policy: policies[0]!, mismatched: true })
      list.push({ type: "challenge.replayed" }, { type: "challenge.failed", error: "the replay store threw" }, { type: "response.malformed", error: "unreadable response" })
      if (flow.ceremony === "authenticate") list.push({ type: "credential.unknown", error: "no such authenticator" })
      const good = goodFindings(flow.ceremony, flow.user?.id)
      list.push({ type: "response.checked", findings: good })
      for (const bent of bents) {
        if (!bent.ceremony || bent.ceremony === flow.ceremony) list.push({ type: "response.checked", findings: { ...good, ...bent.findings }, bent: bent.condition })
      }
      if (flow.ceremony === "authenticate") list.push({ type: "counter.failed", error: "updateAuthenticatorCounter threw" })
      list.push(...signInTailEvents(snapshot), { type: "user.persisted", isNewUser: flow.user?.id === undefined }, { type: "persist.failed", error: "createAuthenticator threw" })
      // Undoing a registration whose write failed: the user it created goes (deleteUser), or the passkey account linked to an existing user (unlinkAccount).
      if (flow.ceremony === "register") list.push({ type: "undo.failed", error: flow.user?.id === undefined ? "deleteUser threw" : "unlinkAccount threw" })
    }
    return list
  }
}

const requestConditions: Record<string, string> = { register: "action=register", authenticate: "action=authenticate", delete: "action=delete" }

/**
 * The driver of the WebAuthn machine for one WebAuthn (or Passkey) provider of `config`.
 *
 * @example
 * ```ts
 * webAuthnDriver(config, Passkey()).target // "webauthn passkey"
 * ```
 */
export function webAuthnDriver(config: AuthConfig, provider: WebAuthnConfig): MachineDriver {
  const strategy = strategyOf(config)
  const tail = tailPolicyOf(config, strategy)
  const policyOf = (path: readonly MachineEvent[]) => find<{ type: string; policy: SignInTailPolicy }>(path, "ceremony.received")?.policy
  const verificationRequired = (ceremony: WebAuthnCeremony) =>
    (ceremony === "register" ? provider.verifyRegistrationOptions : provider.verifyAuthenticationOptions)?.requireUserVerification !== false

  function role(event: MachineEvent): EventRole {
    const modelEvent = event as ModelEvent
    switch (event.type) {
      case "options.requested":
        return { condition: requestConditions[String(event.action)] ?? "no action" }
      case "user.found":
        return { condition: event.signedIn ? "signed in" : event.exists ? "known email" : event.user ? "new email" : "no email" }
      case "lookup.failed":
      case "options.failed":
      case "csrf.invalid":
      case "challenge.replayed":
      case "response.malformed":
      case "credential.unknown":
      case "counter.failed":
      case "undo.failed":
        return { condition: event.type }
      case "challenge.failed":
        return { condition: "replay store failed" }
      case "ceremony.received": {
        if (modelEvent.mismatched) return { condition: "answer posted for the other ceremony" }
        const note = tailPolicyNote(event.policy as SignInTailPolicy, tail)
        return note ? { note } : {}
      }
      case "response.checked":
        return modelEvent.bent ? { condition: modelEvent.bent } : {}
      default:
        return rateLimitRole(event) ?? signInTailRole(event, strategy, config) ?? {}
    }
  }

  return {
    machine: webAuthnMachine,
    target: `webauthn ${provider.id}`,
    provider: provider.id,
    events: eventsFor(everyTailPolicy(tail)),
    role,
    unreachable(path) {
      if (!config.adapter) return "no adapter: WebAuthn stores its authenticators in the database"
      if (has(path, "csrf.invalid") && config.skipCSRFCheck === skipCSRFCheck) return "skipCSRFCheck: the CSRF token is not checked"
      if (has(path, "challenge.failed") && config.replayStore) return "replayStore is your own: the kit makes only the adapter-backed default fail"
      if (has(path, "undo.failed")) {
        // The undo calls only the adapter's own optional method: without it there is nothing to fail.
        const found = find<{ type: string; user?: { id?: string } }>(path, "user.found")
        const method = found?.user?.id === undefined ? "deleteUser" : "unlinkAccount"
        if (typeof config.adapter[method] !== "function") return `the adapter has no ${method}: undoing a registration does not call the database`
      }
      const limited = rateLimitUnreachable(path, config, "webauthn")
      if (limited) return limited
      const checked = path.find((event) => event.type === "response.checked") as (ModelEvent & { findings: CeremonyFindings }) | undefined
      if (checked?.bent === "user not verified" && !verificationRequired(checked.findings.type === "webauthn.create" ? "register" : "authenticate")) {
        return `providers.${provider.id} does not require user verification: an unverified user is accepted`
      }
      // As the engine reads it: a passkey of a provider that requires user verification was verified with it.
      const passkeyVerified = provider.verifyAuthenticationOptions?.requireUserVerification ?? true
      return signInTailUnreachable(path, strategy, config, policyOf(path), { passkeyVerified })
    },
    drive: (scenario, world) => driveWebAuthn(provider, scenario, world, role),
  }
}

/** Sets the path's world up, asks for options, and posts the software authenticator's answer (bent as the path says). */
async function driveWebAuthn(provider: WebAuthnConfig, scenario: Scenario, world: World, role: (event: MachineEvent) => EventRole): Promise<void> {
  const labels = new Set(scenario.conditions.map((event) => role(event).condition))
  const database = world.database!
  const rpId = [provider.relayingParty?.id].flat()[0] ?? new URL(world.origin).hostname
  const origin = [provider.relayingParty?.origin].flat()[0] ?? world.origin

  // The world before the flow: the existing user holds a passkey, whose counter stands at 5.
  const existing = await world.existingUser()
  const passkey = new SoftCredential(rpId)
  passkey.counter = 5
  const seeded = passkey.adapterAuthenticator(existing.id)
  await database.linkAccount!({ userId: existing.id, type: "webauthn", provider: provider.id, providerAccountId: seeded.providerAccountId })
  await database.createAuthenticator!(seeded)

  const query = new URLSearchParams()
  const action = Object.entries(requestConditions).find(([, condition]) => labels.has(condition))?.[0]
  if (action) query.set("action", action)
  if (labels.has("signed in")) await world.signInAs(existing)
  if (labels.has("known email")) query.set("email", existing.email!)
  if (labels.has("new email") || labels.has("lookup.failed")) query.set("email", world.users.newEmail)
  if (labels.has("lookup.failed")) world.record.failing.add("getUserByEmail")
  if (labels.has("options.failed")) world.webAuthnFaults.add("options")

  // Each request meets its own limiter outcome: the options request's, then the answer's (its events say `at: "callback"`).
  const atCallback = (event: MachineEvent) => (event as { at?: unknown }).at === "callback"
  world.limitRequests(limiterModeOf(scenario.conditions.filter((event) => !atCallback(event))))
  const answer = await world.send(`/webauthn-options/${provider.id}?${query}`)
  world.limitRequests("within")
  world.record.failing.clear()
  world.webAuthnFaults.clear()
  if (answer.status !== 200) return
  const body = (await answer.json()) as { action: WebAuthnCeremony; options: RegistrationOptionsJSON & AuthenticationOptionsJSON }

  const bent = bents.find((candidate) => labels.has(candidate.condition))
  const ceremony = body.action
  let credential = ceremony === "register" ? new SoftCredential(rpId) : passkey
  if (labels.has("credential.unknown")) credential = new SoftCredential(rpId)
  if (bent?.condition === "credential taken") await database.createAuthenticator!(credential.adapterAuthenticator(existing.id))
  if (bent?.condition === "attestation refused") world.webAuthnFaults.add("attestation")
  if (bent?.condition === "signed in as another user") {
    const other = await world.ensureUser("someone-else@example.test", "Someone Else")
    await world.signInAs(labels.has("new email") ? existing : other)
  }
  const data = labels.has("response.malformed")
    ? { id: credential.idBase64Url, rawId: credential.idBase64Url, type: "public-key", response: { clientDataJSON: "!!" } }
    : ceremony === "register"
      ? credential.register(body.options, origin, bent?.bend)
      : credential.authenticate(body.options, origin, bent?.bend)
  if (labels.has("counter.failed")) world.record.failing.add("updateAuthenticatorCounter")
  // The default replay store claims the challenge through the adapter (useVerificationToken, or
  // createVerificationToken for an adapter without it): a database that is down fails it.
  if (labels.has("replay store failed")) for (const method of ["useVerificationToken", "createVerificationToken"]) world.record.failing.add(method)
  if (labels.has("persist.failed")) world.record.failing.add("createAuthenticator")
  // The undo deletes the user the registration created, or unlinks the passkey account it linked to an existing user.
  if (labels.has("undo.failed")) for (const method of ["deleteUser", "unlinkAccount"]) world.record.failing.add(method)
  if (labels.has("session.failed")) world.record.failing.add("createSession")
  prepareSecondFactor(scenario.conditions, world)

  const posted = labels.has("answer posted for the other ceremony") ? (ceremony === "register" ? "authenticate" : "register") : ceremony
  const form = async () => ({
    action: posted,
    data: JSON.stringify(data),
    callbackUrl: world.callbackUrl,
    ...(!labels.has("csrf.invalid") && { csrfToken: await world.csrfToken() }),
  })
  if (labels.has("challenge.replayed")) {
    // The same answer posted once before, unrecorded, from a copy of the browser: its challenge is used.
    const saved = new Map(world.browser.cookies)
    const runs = world.recorder.runs.length
    await world.browser.send(`/callback/${provider.id}`, { form: await form(), record: false })
    world.recorder.runs.splice(runs) // its transitions count for coverage; its states are not the path's
    world.browser.cookies.clear()
    for (const [name, value] of saved) world.browser.cookies.set(name, value)
  }
  world.limitRequests(limiterModeOf(scenario.conditions.filter(atCallback)))
  await world.send(`/callback/${provider.id}`, { form: await form() })
}
