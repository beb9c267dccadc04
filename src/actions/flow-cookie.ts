import * as joseErrors from "jose/errors"
import { InvalidCheck } from "../core/errors.js"
import { encode, decode } from "../core/jwt/index.js"
import { randomHex, sha256Hex } from "../core/crypto.js"
import { replayStoreOf, type ReplayStore } from "../core/replay-store.js"
import { effectOf } from "../machines/run-flow.js"
import type { FlowClaimEvent } from "../machines/flow-claim.js"
import type { AnyStateMachine, ContextFrom, SnapshotFrom } from "xstate"
import type { AuthOptions } from "../core/options.js"
import type { Cookie, CookieOption } from "../types.js"

/** Lifetime of a sealed flow: long enough to sign in at the provider, short enough to be useless later. */
export const FLOW_MAX_AGE = 15 * 60

/** The two cookies of a sealed flow: the sealed snapshot, and the value binding it to the browser. */
export interface FlowCookies {
  flow: CookieOption
  binding: CookieOption
}

/** Why a flow cookie was refused. */
export type FlowRefusal =
  | "missing"
  | "expired"
  | "undecodable"
  | "foreign-machine"
  | "old-version"
  | "foreign-provider"
  | "foreign-issuer"
  | "foreign-browser"
  | "invalid-state"
  | "replayed"

/** Refusal of a flow cookie: an `InvalidCheck` with the reason in `cause.reason`. */
export class FlowCookieRefused extends InvalidCheck {
  readonly reason: FlowRefusal
  constructor(reason: FlowRefusal, detail: string, err?: Error) {
    super(`Flow cookie refused (${reason}): ${detail}`, { cause: { reason, ...(err && { err }) } })
    this.reason = reason
  }
}

interface SealedPayload {
  /** Machine id, machine version, provider id, issuer. */
  m: string
  v: number
  p: string
  i?: string
  /** The flow's id: what the replay store records once the flow resumes. */
  j: string
  /** 1 when the flow was issued in the replay store (see {@link SealedFlow.issue}): it is then claimed there. */
  r?: 1
  /** SHA-256 (128 bits, hex) of the binding cookie's value. */
  b: string
  s: unknown
  exp?: number
}

/** How the binding cookie's value is kept in the sealed payload. */
function bindingHash(value: string): string {
  return sha256Hex(value).slice(0, 32)
}

/**
 * A new flow's id: the replay store records it when the flow resumes, and the inspector joins the
 * flow's requests by it (through {@link SealedFlow.actorId}).
 *
 * @example
 * ```ts
 * const flowId = newFlowId() // "3f9c…" (24 hex digits)
 * ```
 */
export function newFlowId(): string {
  return randomHex(12)
}

/** The replay store's key of a flow: its machine and its id (`oauth:3f9c…`). */
function flowReplayKey(machineId: string, flowId: string): string {
  return `${machineId}:${flowId}`
}

/**
 * Where one request seals or opens a flow: the provider (and issuer) the flow is bound to, the
 * secret, the two cookies, and the replay store that issues and claims it. Actions get it from
 * {@link SealedFlow.site}.
 */
export interface FlowSite {
  /** The provider the flow is for: a flow resumes only for the provider it started with. */
  providerId: string
  /** The issuer the flow started with, when the provider has one (the mix-up defence). @default none */
  issuer?: string
  secret: string | string[]
  cookies: FlowCookies
  replayStore: ReplayStore
}

/** A flow cookie that passed every check but the replay check: claim it with {@link SealedFlow.claim} before resuming. */
export interface OpenedFlow<TMachine extends AnyStateMachine> {
  snapshot: SnapshotFrom<TMachine>
  flowId: string
  /** The replay store's key of the flow. */
  replayKey: string
  /** When the sealed flow expires (epoch milliseconds): the replay store keeps the key until then. */
  expiresAt: number
  /** Whether the flow was issued in the replay store when it was sealed (see {@link SealedFlow.issue}). */
  issued: boolean
}

/** What claiming a sealed flow found, as the event a machine's `claimingFlow` state (the shared `claimingFlowState`) takes. */
export type { FlowClaimEvent }

/** What a kind of sealed flow is: defined once per machine that waits for another request. */
export interface SealedFlowSpec<TMachine extends AnyStateMachine, TProvider extends { id: string; issuer?: string }> {
  machine: TMachine
  /** Bump when the machine's waiting state or sealed context change shape: older snapshots are then refused. */
  version: number
  /**
   * The context the next request needs, by key: nothing else of the context is sealed, so what an
   * effect found for this request's answer (the URL to redirect to, the options to send) never
   * reaches the cookie.
   */
  seals: readonly (keyof ContextFrom<TMachine> & string)[]
  /** The flow cookie and its binding cookie, for a request about `provider`. */
  cookies(options: AuthOptions, provider: TProvider): FlowCookies
  /**
   * Seconds a sealed flow lives.
   * @default 900 (15 minutes, {@link FLOW_MAX_AGE})
   */
  maxAge?: number
}

/**
 * One kind of sealed flow, with the one API every flow that waits for another request uses: a new
 * flow is {@link SealedFlow.issue issued} in the replay store and {@link SealedFlow.seal sealed}
 * into its cookie; the next request {@link SealedFlow.open opens} it (every check but the replay
 * check) and {@link SealedFlow.claim claims} it (used once), as a step its machine can name; the
 * cookies are {@link SealedFlow.clear cleared} whatever happens.
 */
export interface SealedFlow<TMachine extends AnyStateMachine, TProvider extends { id: string; issuer?: string }> {
  readonly machine: TMachine
  readonly version: number
  /** Where this request seals or opens the flow for `provider`. */
  site(options: AuthOptions, provider: TProvider): FlowSite
  /**
   * The flow's actor id in each of its requests, so observers join them: derived from the flow
   * id, which stays a secret between the cookie and the replay store.
   */
  actorId(flowId: string): string
  /**
   * Records a new flow in the replay store before it is sealed, when the store can issue and
   * claim (the adapter-backed store: one verification-token row, taken back with the
   * delete-and-return `useVerificationToken` when the flow resumes). Resolves whether it did: pass
   * that to {@link SealedFlow.seal}. A store that fails rejects.
   */
  issue(site: FlowSite, flowId: string): Promise<boolean>
  /**
   * Seals a waiting flow's persisted snapshot (its sealed context only) into one cookie: a JWE
   * keyed from the secret with the cookie's name as salt, expiring in 15 minutes, bound to the
   * machine, its version, the provider, the issuer, and the browser (a random value in a second
   * cookie, `__Host-` when secure, whose hash is sealed). Only a flow waiting for another request
   * (an active state with no effect) can be sealed, so nothing is ever in flight inside it.
   *
   * @param issued - Whether {@link SealedFlow.issue} recorded the flow: it is then claimed with the store's `claim`. @default false
   * @returns the flow cookie and the binding cookie, to set together.
   */
  seal(site: FlowSite, snapshot: SnapshotFrom<TMachine>, flowId: string, issued?: boolean): Promise<[flow: Cookie, binding: Cookie]>
  /**
   * Opens the flow cookie among `requestCookies` after checking everything it is bound to
   * (machine, version, provider, issuer, the browser's binding cookie) and that its state is a
   * waiting state of this machine. It does not mark the flow used: {@link SealedFlow.claim} does.
   * Anything wrong resolves with a {@link FlowCookieRefused} that says what (a refusal is an
   * answer, not a throw).
   */
  open(site: FlowSite, requestCookies: Record<string, string>): Promise<OpenedFlow<TMachine> | FlowCookieRefused>
  /**
   * Marks an opened flow used in the replay store: `true` the first time, `false` when it was
   * resumed before (here, or on any instance sharing the store). A flow issued when it was sealed
   * is claimed with the store's `claim` (exactly one winner even where an insert overwrites); any
   * other with `markUsed`. A store that fails rejects.
   */
  claim(site: FlowSite, opened: Pick<OpenedFlow<TMachine>, "replayKey" | "expiresAt" | "issued">): Promise<boolean>
  /**
   * {@link SealedFlow.claim} reported as the event of a machine's `claimingFlow` state:
   * `flow.fresh` the first time, `flow.replayed` after, `flow.claimFailed` when the store fails.
   */
  claimEvent(site: FlowSite, opened: Pick<OpenedFlow<TMachine>, "replayKey" | "expiresAt" | "issued">): Promise<FlowClaimEvent>
  /** The two cookies, expired: a flow's cookies are cleared whatever its next request ends with. */
  clear(site: FlowSite): Cookie[]
}

/**
 * Defines a kind of sealed flow once: its machine, version, sealed context and cookies. The wire
 * is the same for every kind (see {@link SealedFlow}).
 *
 * @example
 * ```ts
 * const oauthFlow = sealedFlow({ machine: oauthMachine, version: 2, seals: ["checks"], cookies: (options) => ({ flow: options.cookies.flow, binding: options.cookies.flowBinding }) })
 * const site = oauthFlow.site(options, provider)
 * const [flow, binding] = await oauthFlow.seal(site, waiting, flowId, await oauthFlow.issue(site, flowId))
 * // the next request:
 * const opened = await oauthFlow.open(site, options.request.cookies)
 * if (opened instanceof FlowCookieRefused) return errorAnswer(opened, cookies)
 * if (!(await oauthFlow.claim(site, opened))) return errorAnswer(new FlowCookieRefused("replayed", "the flow was resumed before"), cookies)
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7516
 */
export function sealedFlow<TMachine extends AnyStateMachine, TProvider extends { id: string; issuer?: string }>(
  spec: SealedFlowSpec<TMachine, TProvider>,
): SealedFlow<TMachine, TProvider> {
  const { machine, version, seals } = spec
  const maxAge = spec.maxAge ?? FLOW_MAX_AGE
  const claim = (site: FlowSite, opened: Pick<OpenedFlow<TMachine>, "replayKey" | "expiresAt" | "issued">) =>
    opened.issued && site.replayStore.claim ? site.replayStore.claim(opened.replayKey) : site.replayStore.markUsed(opened.replayKey, opened.expiresAt)
  return {
    machine,
    version,
    site: (options, provider) => ({
      providerId: provider.id,
      ...(provider.issuer && { issuer: provider.issuer }),
      secret: options.secret,
      cookies: spec.cookies(options, provider),
      replayStore: replayStoreOf(options.config, options.logger),
    }),
    actorId: (flowId) => `${machine.id}-${sha256Hex(`actor:${flowId}`).slice(0, 16)}`,
    issue: async (site, flowId) => {
      const store = site.replayStore
      if (!store.issue || !store.claim) return false
      await store.issue(flowReplayKey(machine.id, flowId), Date.now() + maxAge * 1000)
      return true
    },
    seal: (site, snapshot, flowId, issued = false) => seal(machine, version, seals, site, snapshot, flowId, issued, maxAge),
    open: (site, requestCookies) => open(machine, version, site, requestCookies, maxAge),
    claim,
    claimEvent: async (site, opened) => {
      try {
        return (await claim(site, opened)) ? { type: "flow.fresh" } : { type: "flow.replayed" }
      } catch (error) {
        return { type: "flow.claimFailed", error }
      }
    },
    clear: ({ cookies }) => [cookies.flow, cookies.binding].map(({ name, options }) => ({ name, value: "", options: { ...options, maxAge: 0 } })),
  }
}

async function seal<TMachine extends AnyStateMachine>(
  machine: TMachine,
  version: number,
  seals: readonly string[],
  site: FlowSite,
  snapshot: SnapshotFrom<TMachine>,
  flowId: string,
  issued: boolean,
  maxAge: number,
): Promise<[flow: Cookie, binding: Cookie]> {
  const waiting = snapshot as unknown as { status: string; getMeta(): Record<string, unknown> }
  if (waiting.status !== "active" || effectOf(waiting) !== undefined) {
    throw new TypeError(`${machine.id}: only a flow waiting for another request can be sealed`)
  }
  const persisted = machine.getPersistedSnapshot(snapshot as never) as { context?: Record<string, unknown> }
  const context: Record<string, unknown> = {}
  for (const key of seals) if (persisted.context?.[key] !== undefined) context[key] = persisted.context[key]
  const browserValue = randomHex(16)
  const payload: SealedPayload = { m: machine.id, v: version, p: site.providerId, j: flowId, b: bindingHash(browserValue), s: { ...persisted, context } }
  if (site.issuer !== undefined) payload.i = site.issuer
  if (issued) payload.r = 1
  const { cookies } = site
  const value = await encode({ token: payload as never, secret: site.secret, salt: cookies.flow.name, maxAge })
  const expires = new Date(Date.now() + maxAge * 1000)
  const lifetime = { maxAge, expires }
  return [
    { name: cookies.flow.name, value, options: { ...cookies.flow.options, ...lifetime } },
    { name: cookies.binding.name, value: browserValue, options: { ...cookies.binding.options, ...lifetime } },
  ]
}

async function open<TMachine extends AnyStateMachine>(
  machine: TMachine,
  version: number,
  site: FlowSite,
  requestCookies: Record<string, string>,
  maxAge: number,
): Promise<OpenedFlow<TMachine> | FlowCookieRefused> {
  const { cookies, secret } = site
  const value = requestCookies[cookies.flow.name]
  if (!value) return new FlowCookieRefused("missing", "the flow cookie is missing (was the flow started in another browser?)")
  let payload: SealedPayload | null
  try {
    payload = (await decode({ token: value, secret, salt: cookies.flow.name })) as SealedPayload | null
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) return new FlowCookieRefused("expired", "the flow has expired", error)
    return new FlowCookieRefused("undecodable", "the flow cookie could not be decrypted", error instanceof Error ? error : undefined)
  }
  if (!payload || typeof payload !== "object") return new FlowCookieRefused("undecodable", "the flow cookie is empty")
  if (payload.m !== machine.id) return new FlowCookieRefused("foreign-machine", `the flow belongs to ${String(payload.m)}`)
  if (payload.v !== version) return new FlowCookieRefused("old-version", `the flow was started by version ${String(payload.v)}`)
  if (payload.p !== site.providerId) return new FlowCookieRefused("foreign-provider", `the flow was started for provider ${String(payload.p)}`)
  if (payload.i !== site.issuer) return new FlowCookieRefused("foreign-issuer", `the flow was started with issuer ${String(payload.i)}`)
  const browserValue = requestCookies[cookies.binding.name]
  if (!browserValue || typeof payload.b !== "string" || bindingHash(browserValue) !== payload.b) {
    return new FlowCookieRefused("foreign-browser", "the flow was started in another browser (its binding cookie is missing or different)")
  }

  const persisted = payload.s as { status?: unknown; value?: unknown; context?: unknown } | undefined
  if (!persisted || persisted.status !== "active") return new FlowCookieRefused("invalid-state", "the flow snapshot is not active")
  let resolved: { status: string; getMeta(): Record<string, unknown> }
  try {
    // Resolving throws synchronously for a state the machine does not have; restoring would not.
    resolved = machine.resolveState({ value: persisted.value as never, context: persisted.context as never }) as never
  } catch (error) {
    return new FlowCookieRefused("invalid-state", "the flow's state does not exist in this machine", error instanceof Error ? error : undefined)
  }
  if (resolved.status !== "active" || effectOf(resolved) !== undefined) {
    return new FlowCookieRefused("invalid-state", "the flow's state is not one that waits for a request")
  }
  if (typeof payload.j !== "string") return new FlowCookieRefused("undecodable", "the flow has no id")
  const expiresAt = typeof payload.exp === "number" ? payload.exp * 1000 : Date.now() + maxAge * 1000
  return { snapshot: persisted as SnapshotFrom<TMachine>, flowId: payload.j, replayKey: flowReplayKey(payload.m, payload.j), expiresAt, issued: payload.r === 1 }
}
