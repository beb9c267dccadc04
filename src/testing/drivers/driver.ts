/**
 * How the kit drives one machine for one provider: the events the model generates paths with,
 * which of them the kit makes happen and which the user's own code decides, which paths the
 * configuration cannot reach, and how a path's world is set up and its requests sent.
 *
 * @module
 */
import type { AnyMachineSnapshot, AnyStateMachine } from "xstate"
import { AccessDenied } from "../../core/errors.js"
import type { SignInTailPolicy } from "../../machines/sign-in-tail.js"
import type { MachineEvent } from "../transitions.js"
import type { LimiterMode, World } from "../world.js"
import { rateLimitOf, type RateLimitRoute } from "../../core/rate-limit/limiter.js"
import { resolveSecondFactor } from "../../core/second-factor-options.js"
import type { AuthConfig } from "../../types.js"
import { Browser, type SendInit } from "../browser.js"

/** What an event of a generated path means for the kit. */
export interface EventRole {
  /**
   * The world condition the event needs, named for the path: a provider fault, a database row, a
   * browser state, a request (`"code.refused"`, `"account.new.emailTaken"`). Events that need no
   * condition (the ordinary outcome of an effect) have none.
   */
  condition?: string
  /**
   * The part of the user's configuration that decides whether the event happens
   * (`"callbacks.signIn"`): the kit does not force it, it observes it. Its transitions count as
   * reachable once some path took them.
   */
  decidedBy?: string
  /** Told in the name of an unreachable path, to set it apart (`no adapter`). */
  note?: string
  /** How an unreachable path names an event your code decides (its type unless given). */
  label?: string
  /** The ordinary outcome your code decides (the `signIn` callback allows): not named in an unreachable path. */
  ordinary?: boolean
}

/** One path's world conditions, as the driver sets them up. */
export interface Scenario {
  /** The path's name: `<machine> <provider>: <conditions>`. */
  name: string
  /** The events of the path that carry a condition, in path order. */
  conditions: MachineEvent[]
  /** The input the machine was started with in the model, for a driver with more than one the configuration can reach. */
  input?: unknown
}

/** A machine driven for one provider (or for the whole configuration). */
export interface MachineDriver {
  machine: AnyStateMachine
  /** `oauth github`, `credentials-sign-in credentials`, `sign-out`. */
  target: string
  /** The provider's id, for drivers of one provider. */
  provider?: string
  /** The payload-carrying events the model generates paths with, or a function of the snapshot giving them. */
  events: MachineEvent[] | ((snapshot: any) => MachineEvent[]) // eslint-disable-line @typescript-eslint/no-explicit-any -- the snapshot of the driver's own machine
  role(event: MachineEvent): EventRole
  /**
   * The inputs the machine is started with, one model per input (the sign-in tail's policy, for a
   * machine that takes it as input): the configuration's own first.
   */
  inputs?: readonly unknown[]
  /** Told in the name of an unreachable path generated with `input`, to set it apart (`database sessions`). */
  inputNote?(input: unknown): string | undefined
  /** Why this configuration (or its fixtures) cannot produce a path (started with `input`), or undefined when it can. */
  unreachable(path: readonly MachineEvent[], input?: unknown): string | undefined
  /** True for a generated path no world can produce (the model does not know what the effects know). */
  impossible?(path: readonly MachineEvent[]): boolean
  /**
   * True for a generated path that takes no transition other paths of the driver do not take in
   * the same way (a fault met again at a later attempt): the kit leaves it out, to keep the paths few.
   */
  redundant?(path: readonly MachineEvent[], input?: unknown): boolean
  /** Sets the path's world up and sends its requests through `world.send`. */
  drive(scenario: Scenario, world: World): Promise<void>
}

/** The first event of `type` among `events`. */
export function find<T extends MachineEvent>(events: readonly MachineEvent[], type: string): T | undefined {
  return events.find((event) => event.type === type) as T | undefined
}

/** True when an event of `type` is among `events`. */
export function has(events: readonly MachineEvent[], type: string): boolean {
  return events.some((event) => event.type === type)
}

/**
 * Sends a request to `route` once, unrecorded, from a copy of the browser (its cookies as they
 * are now): the flow whose cookie it carries is then used already, as a replay of it finds it.
 *
 * @example
 * ```ts
 * await sendFromCopy(world, "/callback/github") // the flow cookie is claimed; the next callback is a replay
 * ```
 */
export async function sendFromCopy(world: World, route: string, init: Omit<SendInit, "record"> = {}): Promise<void> {
  const copy = new Browser(world.config, world.browser.origin, world.browser.basePath)
  for (const [name, value] of world.browser.cookies) copy.cookies.set(name, value)
  const runs = world.recorder.runs.length
  await copy.send(route, { ...init, record: false })
  world.recorder.runs.splice(runs) // its transitions count for coverage; its states are not the path's
}

/**
 * What the `signIn` callback can do: allow, refuse, answer a URL, throw an `AuthError` or another
 * error; and what the `redirect` callback can do with that URL. For every sign-in machine's events.
 */
export const signInCallbackEvents: MachineEvent[] = [
  { type: "signIn.answered", result: true },
  { type: "signIn.answered", result: false },
  { type: "signIn.answered", result: "/elsewhere" },
  { type: "signIn.threw", error: new AccessDenied("the signIn callback threw an AuthError") },
  { type: "signIn.threw", error: new Error("the signIn callback threw") },
  { type: "redirect.resolved", url: "/elsewhere" },
  { type: "redirect.threw", error: new AccessDenied("the redirect callback threw an AuthError") },
  { type: "redirect.threw", error: new Error("the redirect callback threw") },
]

/**
 * What the rate limiter can report at a limited state: within the budgets (the ordinary case), over
 * one, or its store down, failing open or closed. `at` tells a flow's second limited state (the
 * callback's) apart, so that its paths are named apart.
 */
export function limiterEvents(at?: string): MachineEvent[] {
  return [
    { type: "rateLimit.counted", hits: [] },
    { type: "rateLimit.counted", hits: [{ rule: "ip", subject: "203.0.113.10", count: 2, max: 1, resetAt: 0 }], ...(at && { at }) },
    { type: "rateLimit.failed", error: "the rate-limit store is down", failOpen: true, ...(at && { at }) },
    { type: "rateLimit.failed", error: "the rate-limit store is down", failOpen: false, ...(at && { at }) },
  ]
}

/** {@link limiterEvents} of a machine's first (or only) limited state. */
export const rateLimitEvents: MachineEvent[] = limiterEvents()

/** The role of a limiter event: a condition, except within the budgets. */
export function rateLimitRole(event: MachineEvent): EventRole | undefined {
  const at = (event as { at?: string }).at ? ` at the ${(event as { at?: string }).at}` : ""
  if (event.type === "rateLimit.failed") return { condition: `rate-limit store down${at} (fails ${(event as { failOpen?: boolean }).failOpen ? "open" : "closed"})` }
  if (event.type === "rateLimit.counted") return (event as { hits?: unknown[] }).hits?.length ? { condition: `over a rate limit${at}` } : {}
  return undefined
}

/**
 * The limiter outcome a path needs at its limited state, as the world's store produces it: within
 * the budgets, over one, or the store down with the limiter failing open or closed.
 */
export function limiterModeOf(events: readonly MachineEvent[]): LimiterMode {
  const failed = events.find((event) => event.type === "rateLimit.failed") as { failOpen?: boolean } | undefined
  if (failed) return failed.failOpen ? "down-open" : "down-closed"
  return events.some((event) => event.type === "rateLimit.counted" && (event as { hits?: unknown[] }).hits?.length) ? "over" : "within"
}

/**
 * Why a configuration cannot produce a path where the limiter refuses or fails: rate limiting is
 * off, or the route has no budget. With rate limiting on, the kit drives those paths: its worlds
 * count in a store of their own that answers as the path needs (every other budget is the
 * configuration's).
 */
export function rateLimitUnreachable(path: readonly MachineEvent[], config: AuthConfig, route: RateLimitRoute): string | undefined {
  if (limiterModeOf(path) === "within") return undefined
  const limiter = rateLimitOf(config)
  if (!limiter) return "rateLimit is off (it is on by default only when NODE_ENV=production): no request is ever limited"
  const budgets = limiter.limits[route]
  if (!budgets.ip && !budgets.identifier) return `rateLimit.limits.${route} has no budget: these requests are never counted`
  return undefined
}

/** What `findSecondFactor` finds for a user of the model: no factor, nothing required, no trusted device. */
const nobodyFound = {
  type: "secondFactor.found",
  factors: 0,
  backupCodes: 0,
  required: false,
  emailCode: false,
  firstFactorEmail: false,
  passkeyVerified: false,
  current: { userId: "u1", fingerprint: "F" },
}

/**
 * What the second-factor lookup of the sign-in tail can find, each told apart by the guard it
 * meets first: a passkey that counts as both factors, a trusted device, an enrolled factor, a
 * factor required of a user who can be emailed a code or of one who cannot, nothing; or the
 * lookup failing.
 */
export const secondFactorLookupEvents: MachineEvent[] = [
  { ...nobodyFound, factors: 1, passkeyVerified: true },
  { ...nobodyFound, factors: 1, trustedDevice: { ...nobodyFound.current, issuedAt: 1 } },
  { ...nobodyFound, factors: 1, backupCodes: 10 },
  { ...nobodyFound, required: true, emailCode: true },
  { ...nobodyFound, required: true },
  nobodyFound,
  { type: "secondFactor.failed", error: "listFactorsByUserId threw" },
]

/** The guard each finding of {@link secondFactorLookupEvents} meets first (finding nothing, and the lookup failing, meet none). */
const findingGuards: Partial<Record<NonNullable<ReturnType<typeof secondFactorFinding>>, string>> = {
  passkey: "passkeyCountsAsTwoFactors",
  "trusted device": "deviceTrusted",
  enrolled: "hasSecondFactor",
  "required, email code": "requiredByEmailCode",
  "required, no method": "requiredWithoutMethod",
}

/**
 * The second-factor lookup's events a machine's `checkingSecondFactor` has a rule for: a machine
 * carries only the rules its first factor can meet (no passkey rule after a password, say).
 */
function secondFactorLookupEventsOf(snapshot: AnyMachineSnapshot): MachineEvent[] {
  const rules = new Set(snapshot.machine.root.states.checkingSecondFactor?.on["secondFactor.found"]?.map((transition) => transition.guard))
  return secondFactorLookupEvents.filter((event) => {
    const guard = findingGuards[secondFactorFinding(event)!]
    return guard === undefined || rules.has(guard)
  })
}

/**
 * The events of the whole sign-in tail at `snapshot`: the callbacks', the second-factor lookup's
 * (only where the machine looks it up, and only those it has a rule for: offered everywhere, they
 * would slow the model down for nothing), then issuing the session failing either way.
 */
export function signInTailEvents(snapshot: AnyMachineSnapshot): MachineEvent[] {
  return [
    ...signInCallbackEvents,
    ...(snapshot.value === "checkingSecondFactor" ? secondFactorLookupEventsOf(snapshot) : []),
    { type: "session.failed", error: "createSession threw" },
    { type: "encode.failed", error: "the jwt callback threw" },
  ]
}

/** The sign-in tail's policy of a configuration: its session strategy, whether `pages.newUser` is set, and whether second factors are on. */
export function tailPolicyOf(config: { pages?: { newUser?: string }; secondFactor?: AuthConfig["secondFactor"] }, strategy: "jwt" | "database"): SignInTailPolicy {
  const secondFactor = resolveSecondFactor(config.secondFactor)
  return {
    databaseSessions: strategy === "database",
    newUserPage: Boolean(config.pages?.newUser),
    secondFactor: secondFactor !== undefined,
    ...(secondFactor && { passkeyCountsAsTwoFactors: secondFactor.passkeyCountsAsTwoFactors }),
  }
}

/**
 * Every sign-in tail policy, the configuration's own first: each session strategy and
 * `pages.newUser` with the configuration's second-factor setting, and its own with second factors
 * the other way. The others' paths are listed as unreachable, with why.
 */
export function everyTailPolicy(own: SignInTailPolicy): SignInTailPolicy[] {
  const all = [true, false].flatMap((databaseSessions) => [true, false].map((newUserPage) => ({ ...own, databaseSessions, newUserPage })))
  const others = all.filter((policy) => policy.databaseSessions !== own.databaseSessions || policy.newUserPage !== own.newUserPage)
  const { passkeyCountsAsTwoFactors: _counts, ...withoutSecondFactor } = own
  return [own, ...others, own.secondFactor ? { ...withoutSecondFactor, secondFactor: false } : { ...own, secondFactor: true }]
}

/** How a path generated with another tail policy than the configuration's is told apart (`database sessions`). */
export function tailPolicyNote(policy: SignInTailPolicy | undefined, own: SignInTailPolicy): string | undefined {
  if (!policy) return undefined
  const notes = [
    ...(policy.databaseSessions !== own.databaseSessions ? [policy.databaseSessions ? "database sessions" : "jwt sessions"] : []),
    ...(policy.newUserPage !== own.newUserPage ? [policy.newUserPage ? "with pages.newUser" : "without pages.newUser"] : []),
    ...(Boolean(policy.secondFactor) !== Boolean(own.secondFactor) ? [policy.secondFactor ? "with secondFactor" : "without secondFactor"] : []),
  ]
  return notes.length ? notes.join(", ") : undefined
}

/** Which of {@link secondFactorLookupEvents} an event is, by the guard it meets first. */
export function secondFactorFinding(event: MachineEvent): "passkey" | "trusted device" | "enrolled" | "required, email code" | "required, no method" | "none" | "failed" | undefined {
  if (event.type === "secondFactor.failed") return "failed"
  if (event.type !== "secondFactor.found") return undefined
  const found = event as unknown as typeof nobodyFound & { trustedDevice?: unknown }
  if (found.passkeyVerified) return "passkey"
  if (found.trustedDevice) return "trusted device"
  if (found.factors > 0 || found.backupCodes > 0) return "enrolled"
  if (found.required) return found.emailCode ? "required, email code" : "required, no method"
  return "none"
}

/** The role of a second-factor lookup event: an enrolled factor and a failing lookup are conditions the kit's world sets up. */
function secondFactorLookupRole(event: MachineEvent, config: { secondFactor?: AuthConfig["secondFactor"] }): EventRole | undefined {
  const finding = secondFactorFinding(event)
  if (finding === undefined) return undefined
  const required = typeof config.secondFactor === "object" ? config.secondFactor.required : undefined
  switch (finding) {
    case "enrolled":
      return { condition: "second factor enrolled" }
    case "failed":
      return { condition: "secondFactor.failed" }
    case "passkey":
      return { condition: "passkey counts as both factors" }
    case "trusted device":
      return { condition: "trusted device" }
    case "none":
      return typeof required === "function" ? { decidedBy: "secondFactor.required", ordinary: true } : {}
    default: {
      const condition = finding === "required, email code" ? "second factor required, by emailed code" : "second factor required, no way to pass it"
      return { condition, ...(typeof required === "function" && { decidedBy: "secondFactor.required" }) }
    }
  }
}

/** What a driver's first factor means for the second-factor lookup. */
export interface FirstFactorFacts {
  /** The first factor is a passkey verified with user verification (the provider requires it). */
  passkeyVerified?: boolean
  /** The first factor is an email, its link or its code: an emailed code would be the same factor again. */
  email?: boolean
}

/** Why the configuration never finds what a path's second-factor lookup finds, or undefined when it may. */
function secondFactorUnreachable(path: readonly MachineEvent[], config: { secondFactor?: AuthConfig["secondFactor"] }, first: FirstFactorFacts): string | undefined {
  const lookup = path.find((event) => secondFactorFinding(event) !== undefined)
  const settings = resolveSecondFactor(config.secondFactor)
  if (!lookup || !settings) return undefined
  const finding = secondFactorFinding(lookup)
  const required = typeof config.secondFactor === "object" ? config.secondFactor.required : undefined
  if (finding === "failed") return undefined
  if (finding === "passkey") {
    if (!first.passkeyVerified) return "the first factor is not a passkey verified with user verification"
    if (!settings.passkeyCountsAsTwoFactors) return "secondFactor.passkeyCountsAsTwoFactors is off: a passkey is one factor"
    return undefined
  }
  if (first.passkeyVerified && settings.passkeyCountsAsTwoFactors) return "a passkey verified with user verification counts as both factors: nothing else is looked at"
  if (finding === "trusted device") return "the kit's browser holds no trusted-device cookie when it signs in (one is set when a second factor passes with \"remember this device\": the second-factor paths)"
  const created = path.some((event) => event.type === "user.persisted" && (event as { isNewUser?: boolean }).isNewUser === true)
  if (finding === "enrolled") return created ? "a user the sign-in creates has no second factor yet" : undefined
  if (finding === "none") return required === true ? "secondFactor.required is true: a second factor is required of every user" : undefined
  if (!required) return "secondFactor.required is off: only a user who enrolled a factor is asked for one"
  if (finding === "required, email code") {
    if (!settings.sendCode) return "no secondFactor.sendCode: no code is emailed"
    return undefined
  }
  if (settings.sendCode && !first.email) return "secondFactor.sendCode is set: a user without a factor is emailed a code"
  return undefined
}

/**
 * Sets up what a path's second-factor lookup is to find: the user who signs in has a software
 * authenticator (and backup codes) enrolled, or the lookup fails.
 */
export function prepareSecondFactor(conditions: readonly MachineEvent[], world: World): void {
  const finding = conditions.map(secondFactorFinding).find((each) => each !== undefined)
  if (finding === "enrolled") world.enrollOnLookup = true
  if (finding === "failed") world.record.failing.add("listFactorsByUserId")
}

export function signInTailRole(event: MachineEvent, _strategy: "jwt" | "database", config: { callbacks?: object; secondFactor?: AuthConfig["secondFactor"] }): EventRole | undefined {
  const lookup = secondFactorLookupRole(event, config)
  if (lookup) return lookup
  switch (event.type) {
    case "signIn.answered":
      if (event.result === true) return { decidedBy: "callbacks.signIn", ordinary: true }
      return { decidedBy: "callbacks.signIn", label: typeof event.result === "string" ? "signIn.redirect" : "signIn.denied" }
    case "signIn.threw":
      return { decidedBy: "callbacks.signIn" }
    case "redirect.resolved":
      return { decidedBy: "callbacks.redirect", ordinary: true }
    case "redirect.threw":
      return { decidedBy: "callbacks.redirect" }
    case "session.failed":
      return { condition: "session.failed" }
    case "encode.failed":
      return { decidedBy: typeof (config.callbacks as { jwt?: unknown } | undefined)?.jwt === "function" ? "callbacks.jwt" : "jwt.encode", label: "session.failed" }
    case "persist.failed":
      return { condition: "persist.failed" }
    case "session.created":
    case "token.encoded":
    case "user.persisted":
      return {}
    default:
      return undefined
  }
}

/**
 * Why the configuration's own code never takes a sign-in tail event, or undefined when it may.
 * `policy` is the tail policy the path was generated with, when the machine has one.
 */
export function signInTailUnreachable(
  path: readonly MachineEvent[],
  strategy: "jwt" | "database",
  config: { callbacks?: object; jwt?: { encode?: unknown }; pages?: { newUser?: string }; secondFactor?: AuthConfig["secondFactor"] },
  policy?: SignInTailPolicy,
  first: FirstFactorFacts = {},
): string | undefined {
  const callbacks = (config.callbacks ?? {}) as Record<string, unknown>
  const own = tailPolicyOf(config, strategy)
  if (policy && Boolean(policy.secondFactor) !== Boolean(own.secondFactor)) {
    return own.secondFactor
      ? "secondFactor is on: every sign-in looks up the user's second factor before the session is written"
      : "secondFactor is off: no second factor is looked up, the session is written once the first factor passed"
  }
  if (policy && policy.databaseSessions !== own.databaseSessions) {
    return strategy === "database" ? "sessions are database sessions: no JWT is encoded" : "sessions are jwt sessions: no session row is created"
  }
  if (policy && policy.newUserPage !== own.newUserPage) {
    return own.newUserPage ? "pages.newUser is set: a user the sign-in creates goes there first" : "no pages.newUser: a user the sign-in creates goes to the callback URL"
  }
  const refusesOrRedirects = path.some((event) => (event.type === "signIn.answered" && event.result !== true) || event.type === "signIn.threw")
  if (refusesOrRedirects && typeof callbacks.signIn !== "function") return "no callbacks.signIn: every sign-in is allowed"
  if (has(path, "redirect.threw") && typeof callbacks.redirect !== "function") return "no callbacks.redirect: the default redirect callback does not throw"
  if (has(path, "encode.failed") && typeof callbacks.jwt !== "function" && config.jwt?.encode === undefined) {
    return "JWT sessions with the default jwt callback and encode: issuing the session does not fail"
  }
  return secondFactorUnreachable(path, config, first)
}
