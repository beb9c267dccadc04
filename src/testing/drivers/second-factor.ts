/**
 * The second-factor machine: a first factor the kit can pass (the credentials of the fixtures, or
 * an email link for the fixtures' existing user) stops for the second factor of a user the world
 * enrolled a software authenticator and backup codes for; then each attempt posts what the path
 * says: the app's current code (`softwareTotp`), a stale one, one used already, a backup code, an
 * unknown one, a request for an emailed code, the captured emailed code, a wrong one, or the
 * captured one past its end (the waiting flow sealed again with the code expired).
 *
 * @module
 */
import { secondFactorMachine, type SecondFactorPolicy } from "../../machines/second-factor.js"
import { skipCSRFCheck } from "../../core/symbols.js"
import { resolveSecondFactor } from "../../core/second-factor-options.js"
import { newBackupCodes, totpStep } from "../../core/second-factor/index.js"
import { everyTailPolicy, has, limiterModeOf, sendFromCopy, tailPolicyNote, rateLimitEvents, rateLimitRole, rateLimitUnreachable, signInTailEvents, signInTailRole, signInTailUnreachable, tailPolicyOf, type EventRole, type MachineDriver, type Scenario } from "./driver.js"
import { Browser } from "../browser.js"
import { expireEmailedCode } from "./flow-expiry.js"
import { resumedFlowRole } from "./code-flow.js"
import { configuredProviders, strategyOf, type World } from "../world.js"
import type { MachineEvent } from "../transitions.js"
import type { CredentialsFixture } from "../fixtures.js"
import type { SecondFactorMethod, SignInTailPolicy } from "../../machines/sign-in-tail.js"
import type { AuthConfig } from "../../types.js"
import type { EmailConfig } from "../../providers/email-config.js"

/** The first factor the kit passes before the second: a credentials provider with fixtures, or an email provider (whose mail carries a code instead of the link, with `code: "instead"`). */
type FirstFactorRoute = { kind: "credentials"; provider: string; fixture: CredentialsFixture } | { kind: "email"; provider: string; codeInstead: boolean }

/** A refusal sends the flow back to wait for another code; the model allows at most this many attempts, so that its paths stay few. */
const modelAttempts = 2

/** Events that make an attempt fail whatever was typed. */
const faults: ReadonlySet<string> = new Set(["flow.replayed", "flow.claimFailed", "csrf.invalid", "totp.failed", "step.failed", "backupCode.failed", "emailCode.failed", "device.failed", "session.failed", "encode.failed"])

/** The conditions that refuse what was typed. */
const refusals: ReadonlySet<string> = new Set(["wrong code", "code used already", "unknown backup code", "emailed code expired"])

const submissionLabels: Record<SecondFactorMethod, string> = { totp: "authenticator code", backup: "backup code", email: "emailed code" }

/** What the kit types or asks for in one attempt, from the events of the path that follow the submission. */
interface Attempt {
  submission: MachineEvent
  outcome: MachineEvent[]
}

function attemptsOf(conditions: readonly MachineEvent[]): Attempt[] {
  const attempts: Attempt[] = []
  for (const event of conditions) {
    if (event.type === "code.submitted" || event.type === "emailCode.requested") attempts.push({ submission: event, outcome: [] })
    else attempts.at(-1)?.outcome.push(event)
  }
  return attempts
}

/** The first factor the kit can pass for a user it enrolled, if the configuration has one. */
function firstFactorRoute(config: AuthConfig, credentials: Record<string, CredentialsFixture> | undefined): FirstFactorRoute | undefined {
  const providers = configuredProviders(config)
  const withFixture = providers.find((provider) => provider.type === "credentials" && credentials?.[provider.id])
  if (withFixture) return { kind: "credentials", provider: withFixture.id, fixture: credentials![withFixture.id]! }
  const email = providers.find((provider) => provider.type === "email")
  return email ? { kind: "email", provider: email.id, codeInstead: (email as EmailConfig).code === "instead" } : undefined
}

/**
 * The driver of the second-factor machine, for a configuration with `secondFactor` on.
 *
 * @example
 * ```ts
 * secondFactorDriver({ ...config, secondFactor: true }, fixtures.credentials).target // "second-factor credentials"
 * ```
 */
export function secondFactorDriver(config: AuthConfig, credentials: Record<string, CredentialsFixture> | undefined): MachineDriver {
  const strategy = strategyOf(config)
  const settings = resolveSecondFactor(config.secondFactor ?? true)!
  const route = firstFactorRoute(config, credentials)
  const emailOffered = settings.sendCode !== undefined && route?.kind !== "email"
  const methods: SecondFactorMethod[] = ["totp", "backup", ...(emailOffered ? (["email"] as const) : [])]
  const own = tailPolicyOf(config, strategy)
  const asPolicy = (tail: SignInTailPolicy): SecondFactorPolicy => ({ ...tail, maxAttempts: Math.min(settings.maxAttempts, modelAttempts), trustsDevices: settings.trustedDeviceDays > 0 })
  const policy = asPolicy(own)
  // The other session strategy and pages.newUser, offered with an authenticator code, so that the paths they rule out are listed with why.
  const otherPolicies = everyTailPolicy(own)
    .slice(1)
    .filter((tail) => tail.secondFactor === own.secondFactor)
    .map(asPolicy)
  const submitted = (method: SecondFactorMethod, rememberDevice = false, given = policy) => ({ type: "code.submitted", method, code: "123456", rememberDevice, policy: given })
  const policyOf = (path: readonly MachineEvent[]) => path.find((event) => event.type === "code.submitted" && event.policy !== policy)?.policy as SecondFactorPolicy | undefined
  // The user the world enrols has an authenticator app and backup codes; a second input has spent every backup code, for the form that names a method the user lacks.
  const everyMethod = { user: { id: "u1", email: "u1@example.test" }, account: { provider: route?.provider ?? "credentials", type: route?.kind ?? "credentials", providerAccountId: "u1" }, callbackUrl: "/", methods }
  const noBackupCodes = { ...everyMethod, methods: methods.filter((method) => method !== "backup") }
  const spentBackupCodes = (input: unknown) => input === noBackupCodes

  function role(event: MachineEvent): EventRole {
    const resumed = resumedFlowRole(event)
    if (resumed) return resumed
    switch (event.type) {
      case "code.submitted": {
        const note = tailPolicyNote(event.policy as SecondFactorPolicy, own)
        return { condition: `${submissionLabels[event.method as SecondFactorMethod]}${event.rememberDevice ? " (remember this device)" : ""}`, ...(note && { note }) }
      }
      case "emailCode.requested":
        return { condition: "asks for an emailed code" }
      case "totp.unmatched":
        return { condition: "wrong code" }
      case "step.taken":
        return { condition: "code used already" }
      case "backupCode.unknown":
        return { condition: "unknown backup code" }
      case "emailCode.hashed":
        if (event.now === 2) return { condition: "emailed code expired" }
        return (event.hashes as string[]).includes("H") ? {} : { condition: "wrong code" }
      case "totp.failed":
      case "step.failed":
      case "backupCode.failed":
      case "emailCode.failed":
      case "device.failed":
        return { condition: event.type }
      case "session.created":
        return event.providerTokens ? { condition: "provider tokens to store" } : {}
      default:
        return rateLimitRole(event) ?? signInTailRole(event, strategy, config) ?? {}
    }
  }

  return {
    machine: secondFactorMachine,
    target: `second-factor ${route?.provider ?? "(no first factor)"}`,
    ...(route && { provider: route.provider }),
    events: (snapshot) => {
      const { context } = snapshot
      // The user without backup codes is a path of its own only for the form that names them.
      if (!context.methods.includes("backup")) return [submitted("backup")]
      // Both answers of a written session row: listed, neither would be derived.
      const tail = [{ type: "session.created" }, { type: "session.created", providerTokens: true }, ...signInTailEvents(snapshot)]
      // Another policy's paths are all unreachable: one authenticator code, told apart at the first attempt, and its ordinary outcomes.
      if (context.policy !== undefined && context.policy !== policy) return [{ type: "totp.matched", factorId: "f1", step: 1 }, ...tail]
      const submissions = [submitted("totp"), submitted("totp", true), submitted("backup"), submitted("backup", true), submitted("email"), { type: "emailCode.requested", policy }]
      const ordinary = [{ type: "totp.matched", factorId: "f1", step: 1 }, { type: "emailCode.sent", hash: "H", expiresAt: 1 }, { type: "emailCode.hashed", hashes: ["H"], now: 0 }, { type: "emailCode.hashed", hashes: ["X"], now: 0 }, { type: "emailCode.hashed", hashes: ["H"], now: 2 }]
      // A later attempt (after a refusal, or after asking for an emailed code) meets no fault and remembers no device: those take the same transitions at every attempt, and the model's paths stay few.
      if (context.attempts > 0 || context.emailCode !== undefined) {
        return [submitted("totp"), submitted("backup"), submitted("email"), { type: "emailCode.requested", policy }, ...ordinary, rateLimitEvents[0]!, ...tail]
      }
      return [
        ...(context.submission === undefined ? otherPolicies.map((other) => submitted("totp", false, other)) : []),
        ...submissions,
        ...ordinary,
        { type: "flow.claimFailed", error: "the replay store threw" },
        ...rateLimitEvents,
        { type: "totp.failed", error: "listFactorsByUserId threw" },
        { type: "step.failed", error: "useFactorStep threw" },
        { type: "backupCode.failed", error: "useBackupCode threw" },
        { type: "emailCode.failed", error: "sendCode threw" },
        { type: "device.failed", error: "listFactorsByUserId threw" },
        ...tail,
      ]
    },
    // An emailed code past its end stays past it: until a new one is mailed, the engine refuses every emailed code typed as expired (it checks the expiry first).
    impossible(path) {
      let expired = false
      for (const event of path) {
        if (event.type === "emailCode.sent") expired = false
        else if (event.type === "emailCode.hashed" && role(event).condition === "emailed code expired") expired = true
        else if (event.type === "emailCode.hashed" && expired) return true
      }
      return false
    },
    // The faults of the flow and of the request take the same transitions at every attempt, and remembering the device matters only where the factor passes: driven at the first, and at the passing one.
    redundant(path, input) {
      const attempts = attemptsOf(path)
      // Without backup codes, only the form that names them is a path of its own.
      if (spentBackupCodes(input)) return attempts.length !== 1 || attempts[0]!.submission.method !== "backup" || attempts[0]!.outcome.some((event) => role(event).condition !== undefined)
      // Another policy's paths are listed as unreachable once: at the first attempt.
      if (attempts.slice(1).some((attempt) => attempt.submission.policy !== undefined && attempt.submission.policy !== policy)) return true
      return attempts.some((attempt, index) => {
        const faulted = attempt.outcome.some((event) => faults.has(event.type) || (rateLimitRole(event)?.condition !== undefined))
        const refused = attempt.outcome.some((event) => refusals.has(role(event).condition ?? ""))
        return (index > 0 && faulted) || (attempt.submission.rememberDevice === true && (index < attempts.length - 1 || faulted || refused))
      })
    },
    inputs: [everyMethod, noBackupCodes],
    inputNote: (input) => (spentBackupCodes(input) ? "no backup codes left" : undefined),
    role,
    unreachable(path) {
      if (!route) return "no first factor the kit can pass for a user it enrolled: a credentials provider with fixtures.credentials, or an email provider"
      if (has(path, "csrf.invalid") && config.skipCSRFCheck === skipCSRFCheck) return "skipCSRFCheck: the CSRF token is not checked"
      if (has(path, "flow.claimFailed") && config.replayStore) return "replayStore is your own: the kit makes only the adapter-backed default fail"
      const limited = rateLimitUnreachable(path, config, "second-factor")
      if (limited) return limited
      const remembers = path.some((event) => event.type === "code.submitted" && event.rememberDevice === true)
      if (remembers && !policy.trustsDevices) return "secondFactor.trustedDeviceDays is 0: the page offers no \"remember this device\""
      const lastSubmission = path.filter((event) => event.type === "code.submitted").at(-1)
      if (has(path, "device.failed") && lastSubmission?.method !== "backup") {
        return "the kit makes remembering the device fail by making listFactorsByUserId fail, which checking an authenticator code reads first: only a backup code gets that far"
      }
      const attempts = attemptsOf(path)
      const used = attempts.findIndex((attempt) => attempt.outcome.some((event) => event.type === "step.taken"))
      if (used >= 0 && attempts.slice(used + 1).some((attempt) => attempt.submission.method === "totp" && !attempt.outcome.some((event) => role(event).condition !== undefined))) {
        return "the app shows a new code only after its period: an authenticator code typed after one used already is of the same time step"
      }
      const tail = signInTailUnreachable(path, strategy, config, policyOf(path))
      if (tail) return tail
      if (path.some((event) => event.type === "session.created" && event.providerTokens === true)) return `the first factor the kit passes (${route.kind}) brings no provider tokens to store`
      return undefined
    },
    drive: (scenario, world) => {
      world.enrollBackupCodes = !spentBackupCodes(scenario.input)
      return driveSecondFactor(route!, settings.maxAttempts, scenario, world, role)
    },
  }
}

/** Passes the first factor for a user the world enrols, then posts each attempt of the path. */
async function driveSecondFactor(route: FirstFactorRoute, maxAttempts: number, scenario: Scenario, world: World, role: (event: MachineEvent) => EventRole): Promise<void> {
  world.enrollOnLookup = true
  const stopped = route.kind === "credentials" ? await passCredentials(route, world) : await passEmail(route, world)
  if (!stopped) return
  const attempts = attemptsOf(scenario.conditions)
  const labelsOf = (attempt: Attempt) => new Set(attempt.outcome.map((event) => role(event).condition))
  const refuses = (attempt: Attempt, index: number): boolean => {
    const labels = labelsOf(attempt)
    const emailTooEarly = attempt.submission.method === "email" && !attempts.slice(0, index).some((earlier) => earlier.submission.type === "emailCode.requested")
    return [...refusals].some((label) => labels.has(label)) || (attempt.submission.type === "code.submitted" && emailTooEarly)
  }
  const refusedAttempts = attempts.filter(refuses).length
  let backupCodes = 0
  for (const [index, attempt] of attempts.entries()) {
    const labels = labelsOf(attempt)
    // The model folds the attempts between the first and the last: a configuration allowing more is refused as often before its last.
    if (refusedAttempts === modelAttempts && refuses(attempt, index) && attempts.slice(index + 1).every((later, offset) => !refuses(later, index + 1 + offset))) {
      for (let extra = modelAttempts; extra < maxAttempts; extra++) await world.send("/second-factor", { form: { method: "totp", code: await staleCode(world), csrfToken: await world.csrfToken() } })
    }
    const form: Record<string, string> = {}
    if (attempt.submission.type === "emailCode.requested") Object.assign(form, { method: "email", send: "true" })
    else {
      const method = attempt.submission.method as SecondFactorMethod
      form.method = method
      if (attempt.submission.rememberDevice) form.remember = "true"
      if (method === "totp") {
        if (labels.has("code used already")) await claimCurrentStep(world)
        form.code = labels.has("wrong code") ? await staleCode(world) : await world.enrolled!.app.code()
      }
      if (method === "backup") form.code = labels.has("unknown backup code") ? newBackupCodes(1)[0]! : world.enrolled!.backupCodes[backupCodes++]!
      if (method === "email") form.code = labels.has("wrong code") ? wrongEmailCode(world) : (world.secondFactorCodes.at(-1)?.code ?? "123456")
    }
    if (labels.has("claimFlow failed")) for (const method of ["useVerificationToken", "createVerificationToken"]) world.record.failing.add(method)
    if (labels.has("totp.failed") || labels.has("device.failed")) world.record.failing.add("listFactorsByUserId")
    if (labels.has("step.failed")) world.record.failing.add("useFactorStep")
    if (labels.has("backupCode.failed")) world.record.failing.add("useBackupCode")
    if (labels.has("session.failed")) world.record.failing.add("createSession")
    world.sendCodeFails = labels.has("emailCode.failed")
    world.limitRequests(limiterModeOf(attempt.outcome))
    // The kit has no clock: the flow waiting in this browser, sealed again with its emailed code past its end.
    if (labels.has("emailed code expired") && !(await expireEmailedCode(world, "second-factor"))) return
    const csrfToken = labels.has("csrf.invalid") ? undefined : await world.csrfToken()
    if (labels.has("flow cookie sent twice")) await postFromCopy(world, "/second-factor", { ...form, ...(csrfToken && { csrfToken }) })
    await world.send("/second-factor", { form: { ...form, ...(csrfToken && { csrfToken }) } })
    world.record.failing.clear()
    world.sendCodeFails = false
    world.limitRequests("within")
  }
}

/** Signs in with the accepted credentials: true when the sign-in stopped for the second factor (else the world says where it went). */
async function passCredentials(route: Extract<FirstFactorRoute, { kind: "credentials" }>, world: World): Promise<boolean> {
  const csrfToken = await world.csrfToken()
  const response = await world.send(`/callback/${route.provider}`, { form: { ...route.fixture.accepted, callbackUrl: world.callbackUrl, csrfToken } })
  return stoppedForSecondFactor(response, world)
}

/**
 * Follows an email link for the fixtures' existing user (asked for unrecorded in another browser,
 * as the email-verification paths do); where the mail carries a code instead, asks in the path's
 * browser and types the code there.
 */
async function passEmail(route: Extract<FirstFactorRoute, { kind: "email" }>, world: World): Promise<boolean> {
  const asking = route.codeInstead ? world.browser : new Browser(world.config, world.browser.origin, world.browser.basePath)
  const { email } = await world.existingUser()
  await asking.send(`/signin/${route.provider}`, { form: { email: email!, callbackUrl: world.callbackUrl, csrfToken: await asking.csrfToken() }, record: false })
  const mailed = world.mail.at(-1)
  if (!mailed || (route.codeInstead && mailed.code === undefined)) {
    world.note = `mails no ${route.codeInstead ? "code" : "link"}: the first factor could not be passed`
    return false
  }
  if (route.codeInstead) return stoppedForSecondFactor(await world.send(`/callback/${route.provider}`, { form: { code: mailed.code!, csrfToken: await world.csrfToken() } }), world)
  return stoppedForSecondFactor(await world.send(mailed.url), world)
}

function stoppedForSecondFactor(response: Response, world: World): boolean {
  const location = response.headers.get("location") ?? ""
  if (new URL(location, world.origin).pathname.endsWith("/second-factor")) return true
  world.note = `the first factor did not stop for a second factor: it answered ${response.status} ${location}`
  return false
}

/** A code the enrolled app showed an hour ago: well formed, and refused. */
function staleCode(world: World): Promise<string> {
  return world.enrolled!.app.code(Date.now() - 3600_000)
}

/** A well-formed code that is not the one emailed. */
function wrongEmailCode(world: World): string {
  const sent = world.secondFactorCodes.at(-1)?.code ?? "000000"
  return String((Number(sent) + 1) % 1_000_000).padStart(6, "0")
}

/** Uses the app's current time step (and the next) before the code is typed, as a sign-in elsewhere that typed it first would have. */
async function claimCurrentStep(world: World): Promise<void> {
  const { factorId, app } = world.enrolled!
  await world.database!.useFactorStep!(factorId, totpStep(Date.now(), { period: app.options.period }) + 1)
}

/** Posts the attempt to `route` once, unrecorded, from a copy of the browser: the flow's cookie is then used already. */
export function postFromCopy(world: World, route: string, form: Record<string, string>): Promise<void> {
  return sendFromCopy(world, route, { form })
}
