/**
 * What the model tests share beyond authflow/testing's machinery, which they use as it ships
 * (src/testing: `modelPaths`, `TransitionRecorder`, `coverageReport`): the answers of the
 * `signIn` and `redirect` callbacks a path's sign-in tail meets, what the callbacks do to give
 * them, and the inputs that make the model walk both session strategies.
 */
import { AccessDenied } from "../../src/errors.js"
import { defaultCallbacks } from "../../src/core/callbacks.js"
import type { SignInTailPolicy } from "../../src/machines/sign-in-tail.js"
import { memoryStore, type RateLimitStore } from "../../src/core/rate-limit/store.js"
import type { RateLimitEvent, RateLimitRoute } from "../../src/core/rate-limit/limiter.js"
import type { AuthConfig, CallbacksOptions } from "../../src/types.js"
import type { InspectionEvent } from "xstate"
import type { TransitionRecorder } from "../../src/testing/recorder.js"
import type { SecondFactorFound, SignInTailEvent } from "../../src/machines/sign-in-tail.js"
import type { Adapter, AdapterFactor } from "../../src/adapters.js"
import type { AuthOptions } from "../../src/core/options.js"
import { adapterReplayStore, type ReplayStore } from "../../src/core/replay-store.js"
import type { SecondFactorOptions } from "../../src/core/second-factor-options.js"
import { hashBackupCode, newTotpSecret, sealFactorSecret } from "../../src/core/second-factor/index.js"
import { factorsFingerprint, trustedDeviceCookie } from "../../src/actions/second-factor/trusted-device.js"
import type { AnyStateMachine } from "xstate"
import { coverageReport } from "../../src/testing/coverage.js"
import { cookieNames, csrfTokenFor, origin, recordingLogger, send, type CookieJar } from "../helpers.js"
import { expect, vi } from "vitest"

/** The URL the `signIn` callback answers when a path redirects. */
export const signInRedirect = "/welcome"

/**
 * What the `signIn` callback can do, and then the `redirect` callback with the URL it answered:
 * allow, refuse, answer a URL (resolved, or the `redirect` callback throws), throw an `AuthError`
 * (kept) or any other error (wrapped in `AccessDenied`).
 */
export const signInDecisions = [
  { type: "signIn.answered", result: true },
  { type: "signIn.answered", result: false },
  { type: "signIn.answered", result: signInRedirect },
  { type: "signIn.threw", error: new AccessDenied("the signIn callback refused") },
  { type: "signIn.threw", error: new Error("callback threw") },
  { type: "redirect.resolved", url: signInRedirect },
  { type: "redirect.threw", error: new AccessDenied("the redirect callback refused") },
  { type: "redirect.threw", error: new Error("redirect callback threw") },
] as const

/**
 * What the `signIn` callback must answer (or throw) for the engine to meet a path's
 * `signIn.answered` or `signIn.threw`. A path without either never asks; it allows.
 */
export function signInDecisionOf(path: readonly { type: string }[]): boolean | string {
  const threw = path.find((event) => event.type === "signIn.threw") as { error?: unknown } | undefined
  if (threw) throw threw.error
  const answered = path.find((event) => event.type === "signIn.answered") as { result?: unknown } | undefined
  // The callback's declared type is `boolean | string`; a JavaScript callback can answer anything, and the tail's guards read it as it is.
  return answered ? (answered.result as boolean | string) : true
}

/**
 * The `redirect` callback for a path: it throws the path's `redirect.threw` error for the URL the
 * `signIn` callback answered, and otherwise is the default one.
 */
export function redirectCallbackOf(path: readonly { type: string }[]): Pick<CallbacksOptions, "redirect"> | Record<string, never> {
  const threw = path.find((event) => event.type === "redirect.threw") as { error?: unknown } | undefined
  if (!threw) return {}
  return {
    redirect(params) {
      if (params.url === signInRedirect) throw threw.error
      return defaultCallbacks.redirect(params)
    },
  }
}

/**
 * The inputs that make the model walk both session strategies, with `pages.newUser` set (a user
 * the sign-in creates goes there; any other one does not).
 */
export const tailInputs: { policy: SignInTailPolicy }[] = [
  { policy: { databaseSessions: true, newUserPage: true } },
  { policy: { databaseSessions: false, newUserPage: true } },
]

/** The tail policy a path was generated with. */
export function policyOf(path: { input?: unknown }): SignInTailPolicy {
  return (path.input as { policy?: SignInTailPolicy } | undefined)?.policy ?? { databaseSessions: false, newUserPage: false }
}

/** The store error the model's failing rate-limit store throws. */
export const limiterDown = new Error("rate-limit store down")

/**
 * What the rate limiter can report at a limited state: the request is within its budgets, over
 * one, or the store failed and the limiter fails open or closed.
 */
export const rateLimitOutcomes: RateLimitEvent[] = [
  { type: "rateLimit.counted", hits: [] },
  { type: "rateLimit.counted", hits: [{ rule: "ip", subject: "203.0.113.7", count: 1, max: 0, resetAt: 0 }] },
  { type: "rateLimit.failed", error: limiterDown, failOpen: true },
  { type: "rateLimit.failed", error: limiterDown, failOpen: false },
]

/** A store that always fails, as a Redis that is down does. */
export const failingStore: RateLimitStore = {
  hit: () => Promise.reject(limiterDown),
  refund: () => Promise.reject(limiterDown),
}

/**
 * The `rateLimit` option that makes the engine report a path's limiter outcome at every limited
 * state of the path: off (within budgets), a budget of 0 for the route's client address (over it;
 * the model's requests come from 203.0.113.7), or a failing store that fails open or closed.
 */
export function rateLimitOf(path: readonly { type: string }[], route: RateLimitRoute): Pick<AuthConfig, "rateLimit"> {
  const reported = path.filter((event) => event.type === "rateLimit.counted" || event.type === "rateLimit.failed") as { type: string; hits?: unknown[]; failOpen?: boolean }[]
  const over = reported.some((event) => event.hits?.length)
  const failed = reported.find((event) => event.type === "rateLimit.failed")
  if (over) return { rateLimit: { store: memoryStore(), trustedProxies: 1, limits: { [route]: { ip: { max: 0, windowSeconds: 60 } } } } }
  if (failed) return { rateLimit: { store: failingStore, trustedProxies: 1, onStoreError: failed.failOpen ? "open" : "closed" } }
  return { rateLimit: false }
}

/** The header the model's requests carry, naming the client behind one trusted proxy. */
export const modelClientHeaders = { "X-Forwarded-For": "203.0.113.7" }

/**
 * The paths worth driving once the limiter's outcomes are in the model. A request the limiter
 * lets through because its store failed open walks on exactly as an admitted one does, so of the
 * paths that fail open only one per limited state is kept (the first the model generated, the
 * fail-open being its only limiter event that is not a plain admission): it covers that
 * transition, and every path after it is driven with the plain admission already.
 */
export function limiterRepresentatives<TPath extends { events: readonly { type: string }[]; states: readonly string[] }>(paths: readonly TPath[]): TPath[] {
  const kept = new Set<string>()
  return paths.filter((path) => {
    const unusual = path.events
      .map((event, index) => ({ event: event as { type: string; hits?: unknown[]; failOpen?: boolean }, state: path.states[index]! }))
      .filter(({ event }) => event.type === "rateLimit.failed" || (event.type === "rateLimit.counted" && event.hits?.length))
    const failedOpen = unusual.filter(({ event }) => event.type === "rateLimit.failed" && event.failOpen)
    if (failedOpen.length === 0) return true
    if (unusual.length > 1) return false
    const state = failedOpen[0]!.state
    if (kept.has(state)) return false
    kept.add(state)
    return true
  })
}

/** Every limiter outcome of these events admitted the request within its budgets (none over one, no store failing). */
export function limiterAdmitted(events: readonly { type: string }[]): boolean {
  return !events.some((event) => event.type === "rateLimit.failed" || (event.type === "rateLimit.counted" && "hits" in event && Array.isArray(event.hits) && event.hits.length > 0))
}

/** The events of a path up to (not including) `type`, and from it on: the two requests of a flow that waits. */
export function splitAt<TEvent extends { type: string }>(events: readonly TEvent[], type: string): [TEvent[], TEvent[]] {
  const at = events.findIndex((event) => event.type === type)
  return at < 0 ? [[...events], []] : [events.slice(0, at), events.slice(at)]
}

/**
 * A transition recorder's inspection, plus the status each flow actor of the machine `id` reported
 * last, in the order the actors started: `"done"` for a flow that ended in a final state,
 * `"stopped"` for one the engine stopped while it waited (for another request) or stood in a state
 * that is not final. Pass its {@link inspect} as `config.inspect`; {@link reset} resets both.
 */
export class FlowEndings {
  readonly #statuses = new Map<string, string>()

  constructor(
    readonly recorder: TransitionRecorder,
    readonly id: string,
  ) {}

  readonly inspect = (event: InspectionEvent): void => {
    this.recorder.inspect(event)
    if (event.type !== "@xstate.snapshot") return
    const snapshot = event.snapshot as { machine?: { id: string }; status?: string }
    if (snapshot.machine?.id === this.id && snapshot.status) this.#statuses.set(event.actorRef.sessionId, snapshot.status)
  }

  /** The statuses seen since the last {@link reset}. */
  get statuses(): string[] {
    return [...this.#statuses.values()]
  }

  reset(): void {
    this.recorder.reset()
    this.#statuses.clear()
  }
}

/** The tail inputs with second factors on (`secondFactor` in the configuration), for both session strategies. */
export const secondFactorInputs: { policy: SignInTailPolicy }[] = tailInputs.map(({ policy }) => ({ policy: { ...policy, secondFactor: true } }))

/** The error the model's failing factor store throws (`listFactorsByUserId`). */
export const factorsDown = new Error("factor store down")

const nothingEnrolled = { type: "secondFactor.found", factors: 0, backupCodes: 0, required: false, emailCode: false, firstFactorEmail: false, passkeyVerified: false, current: { userId: "u", fingerprint: "none" } } as const

/**
 * What `findSecondFactor` can find after a first factor that is not a passkey, one answer per
 * guard of `checkingSecondFactor`: a trusted device of the user whose factors did not change, an
 * authenticator app and backup codes, a factor required with a code to email, a factor required
 * with no way to pass one, nothing (the sign-in goes on), or the factor store failing.
 * `firstFactorEmail` is the first factor's: an email link (the emailed code is not offered).
 */
export function secondFactorFindings(firstFactorEmail = false): SecondFactorAnswer[] {
  const found = { ...nothingEnrolled, firstFactorEmail }
  return [
    { ...found, factors: 1, trustedDevice: { userId: "u", fingerprint: "f1", issuedAt: 1 }, current: { userId: "u", fingerprint: "f1" } },
    { ...found, factors: 1, backupCodes: 2 },
    ...(firstFactorEmail ? [] : [{ ...found, required: true, emailCode: true }]),
    { ...found, required: true, emailCode: firstFactorEmail },
    found,
    { type: "secondFactor.failed", error: factorsDown },
  ]
}

/** An answer of `findSecondFactor`. */
export type SecondFactorAnswer = Extract<SignInTailEvent, { type: "secondFactor.found" | "secondFactor.failed" }>

/** What `findSecondFactor` finds after a passkey verified with user verification. */
export const passkeyFinding: SecondFactorFound = { ...nothingEnrolled, passkeyVerified: true }

/** The world a path's `findSecondFactor` answer needs (see {@link secondFactorWorldOf}). */
export type SecondFactorWorld = "passkey" | "trustedDevice" | "enrolled" | "emailCode" | "unavailable" | "none" | "failing"

/** Which world the path's second-factor answer needs, or `undefined` for a path that never looks. */
export function secondFactorWorldOf(path: readonly { type: string }[]): SecondFactorWorld | undefined {
  const event = path.find((candidate) => candidate.type === "secondFactor.found" || candidate.type === "secondFactor.failed") as SecondFactorFound | { type: "secondFactor.failed" } | undefined
  if (!event) return undefined
  if (event.type === "secondFactor.failed") return "failing"
  if (event.passkeyVerified) return "passkey"
  if (event.trustedDevice) return "trustedDevice"
  if (event.factors > 0 || event.backupCodes > 0) return "enrolled"
  if (event.required) return event.emailCode && !event.firstFactorEmail ? "emailCode" : "unavailable"
  return "none"
}

/** The backup codes the model's enrolled user has. */
export const modelBackupCodes = ["abcde-fghjk", "mnpqr-stuvw"]

/** An authenticator app, its TOTP secret sealed as the engine seals it, for `userId`. */
export async function enrolledFactor(userId: string, secret: string, totpSecret: Uint8Array = newTotpSecret()): Promise<AdapterFactor> {
  return { id: "f1", userId, type: "totp", name: "Phone", secret: await sealFactorSecret(totpSecret, secret), algorithm: "SHA-1", digits: 6, period: 30, lastUsedStep: null, createdAt: new Date() }
}

/** Options of {@link secondFactorWorld}. */
export interface SecondFactorWorldOptions {
  /** The user the factors are enrolled for (who must exist, for a world with enrolled factors). */
  userId: string
  secret: string
  /** `sendCode` is configured in a world that does not need it (the first factor was an email link). @default false */
  sendCode?: boolean
  /** The rest of the `secondFactor` option. @default {} */
  base?: SecondFactorOptions
  /** When the failing factor store fails (a test that signs in while it builds its world lets those through). @default always */
  failing?: () => boolean
}

/**
 * Builds the world of a second-factor answer: the `secondFactor` option, the adapter (the memory
 * adapter, its factor store failing for `failing`), the user's authenticator app (and, `enrolled`,
 * backup codes; a passkey that counts as both factors skips an app the user has), and the
 * trusted-device cookie of the user (its fingerprint the user's current factors), as
 * `trustDevice` makes it. `sent` collects the codes `sendCode` emails.
 */
export async function secondFactorWorld(world: SecondFactorWorld | undefined, memory: Adapter, { userId, secret, sendCode = false, base = {}, failing = () => true }: SecondFactorWorldOptions) {
  const sent: { email: string; code: string }[] = []
  const mails = { sendCode: ({ email, code }: { email: string; code: string }) => void sent.push({ email, code }) }
  const adapter: Adapter =
    world === "failing" ? { ...memory, listFactorsByUserId: (id) => (failing() ? Promise.reject(factorsDown) : memory.listFactorsByUserId!(id)) } : memory
  const cookies: [string, string][] = []
  if (world === "enrolled" || world === "trustedDevice" || world === "passkey") {
    await memory.createFactor!(await enrolledFactor(userId, secret))
    if (world === "enrolled") await memory.replaceBackupCodes!(userId, await Promise.all(modelBackupCodes.map((code) => hashBackupCode(code, secret))))
  }
  if (world === "trustedDevice") {
    const name = cookieNames.https.trustedDevice
    const fingerprint = factorsFingerprint(userId, await memory.listFactorsByUserId!(userId))
    const options = { secret, cookies: { trustedDevice: { name, options: {} } } } as unknown as AuthOptions
    cookies.push([name, (await trustedDeviceCookie(options, { userId, fingerprint }, 30)).value])
  }
  const secondFactor: SecondFactorOptions = { ...base, ...((world === "emailCode" || world === "unavailable") && { required: true }), ...((world === "emailCode" || sendCode) && mails) }
  return { secondFactor, adapter, cookies, sent }
}

/** The page a sign-in that stopped in `secondFactorRequired` is sent to, offering `methods`. */
export function secondFactorPage(origin: string, methods: string): string {
  return `${origin}/auth/second-factor?${new URLSearchParams({ methods })}`
}

/** The methods the page offers in a world that stops for the second factor. */
export function offeredMethods(world: SecondFactorWorld | undefined): string | undefined {
  return world === "enrolled" ? "totp,backup" : world === "emailCode" ? "email" : undefined
}

/** Options of {@link secondFactorRepresentatives}. */
export interface SecondFactorRepresentativesOptions {
  /** Whether the events before the second-factor check are a way in the test can drive to every answer. @default any */
  acceptable?: (events: readonly { type: string }[]) => boolean
  /** The tail policy a path runs with. @default the path's input ({@link policyOf}) */
  policy?: (path: { events: readonly { type: string }[]; input?: unknown }) => SignInTailPolicy | undefined
}

/**
 * The paths worth driving once second factors are in the model: every answer of
 * `findSecondFactor` (and what follows it) after one way in per policy, the shortest way
 * `acceptable` accepts (ties: the first generated), since the sign-in before the check walks as it
 * does without second factors, which the other paths drive. A path with second factors on that
 * never reaches the check is dropped: the same path without them drives it.
 */
export function secondFactorRepresentatives<TPath extends { events: readonly { type: string }[]; input?: unknown }>(paths: readonly TPath[], options: SecondFactorRepresentativesOptions = {}): TPath[] {
  const { acceptable = () => true, policy = policyOf } = options
  const prefixOf = (path: TPath) => {
    const at = path.events.findIndex((event) => event.type === "secondFactor.found" || event.type === "secondFactor.failed")
    return at < 0 ? undefined : path.events.slice(0, at)
  }
  const chosen = new Map<string, { key: string; length: number }>()
  for (const path of paths) {
    const prefix = prefixOf(path)
    if (!prefix || !acceptable(prefix)) continue
    const group = JSON.stringify(policy(path))
    const current = chosen.get(group)
    if (current === undefined || current.length > prefix.length) chosen.set(group, { key: JSON.stringify(prefix, errorsReadable), length: prefix.length })
  }
  return paths.filter((path) => {
    const prefix = prefixOf(path)
    if (!prefix) return policy(path)?.secondFactor !== true
    return chosen.get(JSON.stringify(policy(path)))?.key === JSON.stringify(prefix, errorsReadable)
  })
}

function errorsReadable(_key: string, value: unknown): unknown {
  return value instanceof Error ? `Error(${value.message})` : value
}

/**
 * What a final of the tail's second-factor check shows: `secondFactorRequired` sends the browser
 * to the second-factor page with the sealed flow and no session; `secondFactorUnavailable` to the
 * error page with `SecondFactorUnavailable` and no session. Whether `state` is one of them.
 */
export function expectSecondFactorFinal(state: string, world: SecondFactorWorld | undefined, response: Response, jar: { get(name: string): string | undefined }, origin: string): boolean {
  if (state !== "secondFactorRequired" && state !== "secondFactorUnavailable") return false
  expect(response.status).toBe(302)
  expect(jar.get(cookieNames.https.sessionToken)).toBeUndefined()
  if (state === "secondFactorRequired") {
    expect(response.headers.get("location")).toBe(secondFactorPage(origin, offeredMethods(world)!))
    expect(jar.get(cookieNames.https.secondFactor)).toBeTruthy()
  } else {
    expect(response.headers.get("location")).toBe(`${origin}/auth/error?error=SecondFactorUnavailable`)
    expect(jar.get(cookieNames.https.secondFactor)).toBeUndefined()
  }
  return true
}

/**
 * The adapter's replay store with only `markUsed` (a flow is claimed there, not issued), throwing
 * while `failing()` does: the model's `flow.claimFailed`.
 */
export function claimFailingReplayStore(adapter: Adapter, failing: () => boolean): ReplayStore {
  const store = adapterReplayStore(adapter)
  return {
    markUsed(key, expiresAt) {
      if (failing()) throw new Error("replay store down")
      return store.markUsed(key, expiresAt)
    },
  }
}

/** A code flow's events the model needs the payload of (`code.submitted` with its policy, `emailCode.hashed` with the hashes and time). */
type CodeFlowEvent = { type: string; [key: string]: unknown }

/**
 * The events of a code flow's request after a refusal that kept the flow: the code typed again with
 * the flow's `policy`, the flow cookie fresh, the CSRF token, within the limits, and the code hashed
 * to `hashes` in time (`["another"]`: a wrong one again; `["mailed"]`: the mailed one).
 */
export function codeRetryEvents<TEvent>(policy: unknown, expiresAt: number, hashes: string[]): TEvent[] {
  return [
    { type: "code.submitted", code: "typed", policy },
    { type: "flow.fresh" },
    { type: "csrf.valid" },
    { type: "rateLimit.counted", hits: [] },
    { type: "emailCode.hashed", hashes, now: expiresAt - 1 },
  ] as TEvent[]
}

/**
 * The events of a code flow's request as far as the code check: after a wrong code (`attempts` over
 * 0), a wrong one again, within the limits ({@link codeRetryEvents}); otherwise the code typed with
 * each of `policies` (or the flow's own), the flow cookie fresh, sent twice or its claim failing, the
 * CSRF token, the limiter, and the mailed code in time, another code, or the mailed code the moment
 * it expires. Where `attempts` is 0, the events the flow's own effects meet follow.
 */
export function codeCheckEvents<TEvent, TPolicy = SignInTailPolicy>(context: { attempts: number; policy?: TPolicy }, policies: readonly TPolicy[], expiresAt: number, after: () => TEvent[]): TEvent[] {
  if (context.attempts > 0) return codeRetryEvents<TEvent>(context.policy!, expiresAt, ["another"])
  return [
    ...(context.policy ? [context.policy] : policies).map((policy) => ({ type: "code.submitted", code: "typed", policy })),
    { type: "flow.fresh" },
    { type: "flow.replayed" },
    { type: "flow.claimFailed", error: new Error("replay store down") },
    { type: "csrf.valid" },
    { type: "csrf.invalid" },
    ...rateLimitOutcomes,
    { type: "emailCode.hashed", hashes: ["mailed"], now: expiresAt - 1 },
    { type: "emailCode.hashed", hashes: ["another"], now: expiresAt - 1 },
    { type: "emailCode.hashed", hashes: ["mailed"], now: expiresAt },
    ...(after() as CodeFlowEvent[]),
  ] as TEvent[]
}

/** The policy a code flow's path typed its code with. */
export const codePolicyOf = (path: { events: readonly { type: string }[] }) => (path.events.find((event) => event.type === "code.submitted") as { policy?: SignInTailPolicy } | undefined)?.policy

/** The events of each request of a code flow: the typed code, then what its effects found. */
export function codeRequestsOf<TEvent extends { type: string }>(events: readonly TEvent[]): TEvent[][] {
  const requests: TEvent[][] = []
  for (const event of events) {
    if (event.type === "code.submitted") requests.push([event])
    else requests.at(-1)!.push(event)
  }
  return requests
}

/**
 * Whether a code flow's path is worth driving: one request, or wrong codes typed the plain way (in
 * time, within the limits, with `policy` only) before the last request, along a path `steady`
 * accepts (what changes meanwhile is walked by first requests); the other ways through the wrong
 * codes the first request drives.
 */
export function plainRetries<TPolicy>(path: { events: readonly { type: string }[] }, policy: TPolicy, steady: (events: readonly { type: string }[]) => boolean = () => true): boolean {
  const requests = codeRequestsOf(path.events)
  if (requests.length === 1) return true
  const plain = (request: readonly { type: string }[]) => limiterAdmitted(request) && !request.some((event) => event.type === "flow.replayed" || event.type === "flow.claimFailed" || event.type === "csrf.invalid")
  return requests.slice(0, -1).every(plain) && (path.events[0] as unknown as { policy: TPolicy }).policy === policy && steady(path.events)
}

/** A six-digit code that is not `code`. */
export const wrongCodeOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0")

/** A fault of an adapter method: the error it throws, or `false` for none; a function is asked at each call. */
export type Fault = Error | false | undefined | (() => Error | false | undefined)

/**
 * The adapter `memory` with each method named in `faults` throwing its fault's error (rejecting,
 * as an async method does) while it has one, and otherwise answering as `memory` does.
 */
export function faultyAdapter(memory: Adapter, faults: { [K in keyof Adapter]?: Fault }): Adapter {
  const adapter: Record<string, unknown> = { ...memory }
  for (const [name, fault] of Object.entries(faults) as [keyof Adapter, Fault][]) {
    const method = memory[name] as (...args: unknown[]) => unknown
    adapter[name] = async (...args: unknown[]) => {
      const error = typeof fault === "function" ? fault() : fault
      if (error) throw error
      return method.apply(memory, args)
    }
  }
  return adapter as Adapter
}

/**
 * The faults of {@link faultyAdapter} that follow a path's events: each method named with an event
 * type and a message throws `new Error(message)` at a call while `meets(type)` (the path, or the
 * request being sent, has that event).
 */
export function faultsOn<TType extends string>(meets: (type: TType) => boolean, methods: { [K in keyof Adapter]?: readonly [type: TType, message: string] }): { [K in keyof Adapter]?: Fault } {
  return Object.fromEntries((Object.entries(methods) as [string, readonly [TType, string]][]).map(([name, [type, message]]) => [name, () => meets(type) && new Error(message)]))
}

/**
 * The `redirect` and `jwt` callbacks of a path's sign-in tail: `redirect` as
 * {@link redirectCallbackOf} says, and `jwt` throwing (the model's `encode.failed`) while
 * `encodeFails()`.
 */
export function tailCallbacks(path: readonly { type: string }[], encodeFails: () => boolean): Partial<Pick<CallbacksOptions, "redirect" | "jwt">> {
  return {
    ...redirectCallbackOf(path),
    jwt({ token }) {
      if (encodeFails()) throw new Error("jwt callback threw")
      return token
    },
  }
}

/**
 * What the sign-in tail's refusals show: `redirected` sends the browser to the URL the `signIn`
 * callback answered, `accessDenied` to the error page with `AccessDenied`. Whether `state` is one
 * of them.
 */
export function expectTailFinal(state: string, location: string | null): boolean {
  if (state !== "redirected" && state !== "accessDenied") return false
  expect(location).toBe(state === "redirected" ? `${origin}${signInRedirect}` : `${origin}/auth/error?error=AccessDenied`)
  return true
}

/**
 * What the finals every flow shows alike show: `rateLimited` sends the browser to the sign-in page
 * with the wait, each state of `failed` to the error page with `Configuration`, an error logged;
 * and the sign-in tail's refusals ({@link expectTailFinal}). Whether `state` is one of them.
 */
export function expectSharedFinal(state: string, location: string | null, errors: readonly unknown[], failed: readonly string[]): boolean {
  if (state === "rateLimited") {
    expect(location).toMatch(new RegExp(`^${origin}/auth/signin\\?error=RateLimited&retryAfter=[1-9]\\d*$`))
    return true
  }
  if (expectTailFinal(state, location)) return true
  if (!failed.includes(state)) return false
  expect(location).toBe(`${origin}/auth/error?error=Configuration`)
  expect(errors.length).toBeGreaterThan(0)
  return true
}

/**
 * Checks that the paths took every transition of `machine` but the `unreachable` ones (each with
 * its reason), and none of those, after logging how many paths were driven (of how many
 * `generated`, where the test picks among them) as `name`.
 */
export function expectFullCoverage(name: string, machine: AnyStateMachine, recorder: TransitionRecorder, paths: number, { generated, unreachable = new Map() }: { generated?: number; unreachable?: ReadonlyMap<string, string> } = {}): void {
  const { line, missing } = coverageReport(machine, recorder)
  const why = unreachable.size > 0 ? [`(unreachable through Auth(): ${[...unreachable].map(([key, reason]) => `${key}: ${reason}`).join("; ")})`] : []
  console.log(`${name}: ${paths} paths${generated === undefined ? "" : ` driven of ${generated} generated`};`, line, ...why)
  expect(missing.filter((key) => !unreachable.has(key)), `uncovered transitions: ${missing.join(", ")}`).toEqual([])
  expect(missing.filter((key) => unreachable.has(key)), "a transition named unreachable that a path took").toEqual([...unreachable.keys()])
}

/** A code flow's requests, as {@link driveCodeRequests} sends them. */
export interface CodeRequests<TEvent extends { type: string }> {
  /** The configuration, and the world whose `request` holds the events of the request being sent (empty between requests). */
  config: AuthConfig
  world: { request: TEvent[] }
  /** The logger of the requests that count (a replayed flow's first use logs elsewhere). */
  logger: NonNullable<AuthConfig["logger"]>
  /** The route that takes the code, and the limiter's route for it. */
  route: string
  limited: RateLimitRoute
  /** The code mailed, and when it expires. */
  code: string
  expiresAt: number
  /** The flow's cookie, sealed anew by every request that does not end the flow. */
  cookie: string
  /** The form's other fields for a request. @default none */
  fields?: (request: readonly TEvent[]) => Record<string, string>
  /** The page a request that does not end the flow sends the browser to: the `index`th of `requests`. */
  retryPage: (index: number, requests: readonly (readonly TEvent[])[]) => string
}

/**
 * Sends each request of a code flow's path ({@link codeRequestsOf}) in the browser of `jar`: the
 * mailed code or another ({@link wrongCodeOf}), with the CSRF token or without, the same flow cookie
 * used once before where the flow is replayed, the clock at the code's expiry where it is late, the
 * limiter as the request says. Every request answers a redirect; each but the last to the retry page
 * with the flow sealed anew. Checks that the requests walked the path's states, and answers the last
 * response.
 */
export async function driveCodeRequests<TEvent extends { type: string }>(path: { events: readonly TEvent[]; states: readonly string[] }, jar: CookieJar, recorder: TransitionRecorder, flow: CodeRequests<TEvent>): Promise<Response> {
  const { config, world, logger, route, limited, code, expiresAt, cookie, fields = () => ({}), retryPage } = flow
  recorder.reset()
  let response: Response | undefined
  const requests = codeRequestsOf(path.events)
  for (const [index, request] of requests.entries()) {
    const has = (type: string) => request.some((event) => event.type === type)
    const hashed = request.find((event) => event.type === "emailCode.hashed") as { hashes: string[]; now: number } | undefined
    if (hashed && hashed.now >= expiresAt) vi.setSystemTime(expiresAt)
    const typed = hashed?.hashes[0] === "mailed" ? code : wrongCodeOf(code)
    const csrf: Record<string, string> = has("csrf.invalid") ? {} : { csrfToken: await csrfTokenFor(config, jar) }
    if (has("flow.replayed")) {
      // The same flow cookie, sent twice: the first use claims it.
      const saved = new Map(jar.cookies)
      await send({ ...config, logger: recordingLogger().logger }, jar, route, { form: { ...csrf, code: wrongCodeOf(code), ...fields(request) } })
      jar.cookies.clear()
      for (const [name, value] of saved) jar.cookies.set(name, value)
    }
    world.request = request
    response = await send({ ...config, logger, inspect: recorder.inspect, ...rateLimitOf(request, limited) }, jar, route, { form: { ...csrf, code: typed, ...fields(request) }, headers: modelClientHeaders })
    world.request = []
    expect(response.status).toBe(302)
    if (index < requests.length - 1) {
      expect(response.headers.get("location")).toBe(retryPage(index, requests))
      expect(jar.get(cookie)).toBeTruthy()
    }
  }
  // The real requests walked exactly the model's path.
  expect(recorder.runs.flatMap((run) => run.states.slice(1))).toEqual(path.states.slice(1))
  return response!
}

/**
 * `config` in the world of a path's second-factor answer ({@link secondFactorWorld}): with the
 * world's `secondFactor` option and adapter, the browser of `jar` holding the world's cookies.
 */
export async function inSecondFactorWorld(config: AuthConfig, world: SecondFactorWorld | undefined, jar: CookieJar, options: SecondFactorWorldOptions): Promise<AuthConfig> {
  const built = await secondFactorWorld(world, config.adapter!, options)
  for (const [name, value] of built.cookies) jar.cookies.set(name, value)
  return { ...config, secondFactor: built.secondFactor, adapter: built.adapter }
}

/**
 * The configuration a code flow's model runs with, before its pages, providers and callbacks: the
 * limiter off (each request brings its own, {@link rateLimitOf}), the adapter's replay store failing
 * while the request meets `flow.claimFailed`, and database sessions or JWTs.
 */
export function codeFlowConfig(secret: string, adapter: Adapter, meets: (type: "flow.claimFailed") => boolean, databaseSessions: boolean): Omit<AuthConfig, "providers"> {
  return { secret, trustHost: true, adapter, rateLimit: false, replayStore: claimFailingReplayStore(adapter, () => meets("flow.claimFailed")), session: { strategy: databaseSessions ? "database" : "jwt" } }
}

/**
 * The configuration of a sign-in's model before its providers and callbacks: the limiter on `route`
 * as the path's events say, database sessions or JWTs as the tail `policy` says, and `newUserPage`
 * as `pages.newUser` where the policy sets one.
 */
export function tailConfig(secret: string, adapter: Adapter, policy: SignInTailPolicy, events: readonly { type: string }[], route: RateLimitRoute, newUserPage: string): Omit<AuthConfig, "providers"> {
  return { secret, trustHost: true, ...rateLimitOf(events, route), adapter, session: { strategy: policy.databaseSessions ? "database" : "jwt" }, ...(policy.newUserPage && { pages: { newUser: newUserPage } }) }
}
