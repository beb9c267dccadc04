import { errors as joseErrors } from "jose"
import { InvalidCheck } from "../core/errors.js"
import { encode, decode } from "../core/jwt/index.js"
import { randomHex, sha256Hex } from "../core/crypto.js"
import type { ReplayStore } from "../core/replay-store.js"
import { effectOf } from "../machines/run-flow.js"
import type { AnyStateMachine, SnapshotFrom } from "xstate"
import type { Cookie, CookieOption } from "../types.js"

/** Lifetime of a sealed flow: long enough to sign in at the provider, short enough to be useless later. */
export const FLOW_MAX_AGE = 15 * 60

/** What a sealed flow is bound to: the flow must resume on the same machine, version, provider and issuer. */
export interface FlowBinding {
  machine: AnyStateMachine
  /** Bump when a machine's states or context change shape: older snapshots are then refused. */
  version: number
  providerId: string
  /** The issuer the flow started with, when the provider has one (the mix-up defence). */
  issuer?: string
}

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
  /** 1 when the flow was issued in the replay store (see {@link issueFlow}): it is then claimed there. */
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
 * flow's requests by it (it is the actor's id in both).
 *
 * @example
 * ```ts
 * const flowId = newFlowId() // "3f9c…" (24 hex digits)
 * ```
 */
export function newFlowId(): string {
  return randomHex(12)
}

/**
 * The replay store's key of a flow: its machine and its id.
 *
 * @example
 * ```ts
 * flowReplayKey("oauth", flowId) // "oauth:3f9c…"
 * ```
 */
export function flowReplayKey(machineId: string, flowId: string): string {
  return `${machineId}:${flowId}`
}

/**
 * Records a new flow in `replayStore` before it is sealed, when the store can issue and claim
 * (the adapter-backed store: one verification-token row, taken back with the delete-and-return
 * `useVerificationToken` when the flow resumes). Resolves whether it did: pass that to
 * {@link sealFlow}. A store that fails rejects.
 *
 * @example
 * ```ts
 * const issued = await issueFlow(oauthMachine.id, flowId, replayStoreOf(config))
 * const cookies = await sealFlow(snapshot, binding, secret, flowCookies, flowId, issued)
 * ```
 */
export async function issueFlow(machineId: string, flowId: string, replayStore: ReplayStore): Promise<boolean> {
  if (!replayStore.issue || !replayStore.claim) return false
  await replayStore.issue(flowReplayKey(machineId, flowId), Date.now() + FLOW_MAX_AGE * 1000)
  return true
}

/**
 * Seals a waiting flow's persisted snapshot into one cookie: a JWE keyed from the secret with the
 * cookie's name as salt, expiring in 15 minutes, bound to the machine, its version, the provider,
 * the issuer, and the browser (a random value in a second cookie, `__Host-` when secure, whose hash
 * is sealed). Only a flow waiting for another request (an active state with no effect) can be
 * sealed, so nothing is ever in flight inside a sealed snapshot.
 *
 * @param flowId - The flow's id (see {@link newFlowId}), recorded as used when the flow resumes.
 * @param issued - Whether {@link issueFlow} recorded the flow: it is then claimed with the store's `claim`. @default false
 * @returns the flow cookie and the binding cookie, to set together.
 * @example
 * ```ts
 * const [flow, binding] = await sealFlow(snapshot, { machine: signInMachine, version: 1, providerId: "github" }, secret, {
 *   flow: options.cookies.flow,
 *   binding: options.cookies.flowBinding,
 * })
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7516
 */
export async function sealFlow<TMachine extends AnyStateMachine>(
  snapshot: SnapshotFrom<TMachine>,
  binding: FlowBinding,
  secret: string | string[],
  cookies: FlowCookies,
  flowId: string = newFlowId(),
  issued = false,
): Promise<[flow: Cookie, binding: Cookie]> {
  const waiting = snapshot as unknown as { status: string; getMeta(): Record<string, unknown> }
  if (waiting.status !== "active" || effectOf(waiting) !== undefined) {
    throw new TypeError(`${binding.machine.id}: only a flow waiting for another request can be sealed`)
  }
  const persisted = (binding.machine as AnyStateMachine).getPersistedSnapshot(snapshot as never)
  const browserValue = randomHex(16)
  const payload: SealedPayload = { m: binding.machine.id, v: binding.version, p: binding.providerId, j: flowId, b: bindingHash(browserValue), s: persisted }
  if (binding.issuer !== undefined) payload.i = binding.issuer
  if (issued) payload.r = 1
  const value = await encode({ token: payload as never, secret, salt: cookies.flow.name, maxAge: FLOW_MAX_AGE })
  const expires = new Date(Date.now() + FLOW_MAX_AGE * 1000)
  const lifetime = { maxAge: FLOW_MAX_AGE, expires }
  return [
    { name: cookies.flow.name, value, options: { ...cookies.flow.options, ...lifetime } },
    { name: cookies.binding.name, value: browserValue, options: { ...cookies.binding.options, ...lifetime } },
  ]
}

/** A flow cookie that passed every check but the replay check: claim it with {@link claimFlow} before resuming. */
export interface OpenedFlow<TMachine extends AnyStateMachine> {
  snapshot: SnapshotFrom<TMachine>
  flowId: string
  /** The replay store's key of the flow. */
  replayKey: string
  /** When the sealed flow expires (epoch milliseconds): the replay store keeps the key until then. */
  expiresAt: number
  /** Whether the flow was issued in the replay store when it was sealed (see {@link issueFlow}). */
  issued: boolean
}

/**
 * Opens a flow cookie after checking everything it is bound to (machine, version, provider,
 * issuer, the browser's binding cookie) and that its state is a waiting state of this machine.
 * It does not mark the flow used: {@link claimFlow} does, as a step the flow's machine can name
 * (the WebAuthn machine's `claimingChallenge`). Anything wrong throws {@link FlowCookieRefused}.
 *
 * @example
 * ```ts
 * const opened = await openFlow(request.cookies, binding, secret, cookies)
 * if (!(await claimFlow(opened, store))) throw new FlowCookieRefused("replayed", "used before")
 * ```
 */
export async function openFlow<TMachine extends AnyStateMachine>(
  requestCookies: Record<string, string>,
  binding: FlowBinding & { machine: TMachine },
  secret: string | string[],
  cookies: FlowCookies,
): Promise<OpenedFlow<TMachine>> {
  const value = requestCookies[cookies.flow.name]
  if (!value) throw new FlowCookieRefused("missing", "the flow cookie is missing (was the flow started in another browser?)")
  let payload: SealedPayload | null
  try {
    payload = (await decode({ token: value, secret, salt: cookies.flow.name })) as SealedPayload | null
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new FlowCookieRefused("expired", "the flow has expired", error)
    throw new FlowCookieRefused("undecodable", "the flow cookie could not be decrypted", error instanceof Error ? error : undefined)
  }
  if (!payload || typeof payload !== "object") throw new FlowCookieRefused("undecodable", "the flow cookie is empty")
  if (payload.m !== binding.machine.id) throw new FlowCookieRefused("foreign-machine", `the flow belongs to ${String(payload.m)}`)
  if (payload.v !== binding.version) throw new FlowCookieRefused("old-version", `the flow was started by version ${String(payload.v)}`)
  if (payload.p !== binding.providerId) throw new FlowCookieRefused("foreign-provider", `the flow was started for provider ${String(payload.p)}`)
  if (payload.i !== binding.issuer) throw new FlowCookieRefused("foreign-issuer", `the flow was started with issuer ${String(payload.i)}`)
  const browserValue = requestCookies[cookies.binding.name]
  if (!browserValue || typeof payload.b !== "string" || bindingHash(browserValue) !== payload.b) {
    throw new FlowCookieRefused("foreign-browser", "the flow was started in another browser (its binding cookie is missing or different)")
  }

  const persisted = payload.s as { status?: unknown; value?: unknown; context?: unknown } | undefined
  if (!persisted || persisted.status !== "active") throw new FlowCookieRefused("invalid-state", "the flow snapshot is not active")
  let resolved: { status: string; getMeta(): Record<string, unknown> }
  try {
    // Resolving throws synchronously for a state the machine does not have; restoring would not.
    resolved = binding.machine.resolveState({ value: persisted.value as never, context: persisted.context as never }) as never
  } catch (error) {
    throw new FlowCookieRefused("invalid-state", "the flow's state does not exist in this machine", error instanceof Error ? error : undefined)
  }
  if (resolved.status !== "active" || effectOf(resolved) !== undefined) {
    throw new FlowCookieRefused("invalid-state", "the flow's state is not one that waits for a request")
  }
  if (typeof payload.j !== "string") throw new FlowCookieRefused("undecodable", "the flow has no id")
  const expiresAt = typeof payload.exp === "number" ? payload.exp * 1000 : Date.now() + FLOW_MAX_AGE * 1000
  return { snapshot: persisted as SnapshotFrom<TMachine>, flowId: payload.j, replayKey: flowReplayKey(payload.m, payload.j), expiresAt, issued: payload.r === 1 }
}

/**
 * Marks an opened flow used in `replayStore`: `true` the first time, `false` when it was resumed
 * before (here, or on any instance sharing the store). A flow issued when it was sealed is claimed
 * with the store's `claim` (exactly one winner even where an insert overwrites); any other with
 * `markUsed`. A store that fails rejects.
 *
 * @example
 * ```ts
 * const fresh = await claimFlow(opened, replayStoreOf(config))
 * ```
 */
export async function claimFlow(opened: Pick<OpenedFlow<AnyStateMachine>, "replayKey" | "expiresAt"> & { issued?: boolean }, replayStore: ReplayStore): Promise<boolean> {
  if (opened.issued && replayStore.claim) return replayStore.claim(opened.replayKey)
  return replayStore.markUsed(opened.replayKey, opened.expiresAt)
}

/**
 * Opens a flow cookie and returns the snapshot to resume (and the flow's id), after checking everything it is bound
 * to (machine, version, provider, issuer, the browser's binding cookie), that its state is a
 * waiting state of this machine, and finally that it was never resumed before: the flow is marked
 * used in `replayStore`. Anything else throws {@link FlowCookieRefused}: such a flow is never resumed.
 *
 * @example
 * ```ts
 * const { snapshot, flowId } = await unsealFlow(request.cookies, binding, secret, { flow: options.cookies.flow, binding: options.cookies.flowBinding }, store)
 * ```
 */
export async function unsealFlow<TMachine extends AnyStateMachine>(
  requestCookies: Record<string, string>,
  binding: FlowBinding & { machine: TMachine },
  secret: string | string[],
  cookies: FlowCookies,
  replayStore: ReplayStore,
): Promise<{ snapshot: SnapshotFrom<TMachine>; flowId: string }> {
  const opened = await openFlow(requestCookies, binding, secret, cookies)
  if (!(await claimFlow(opened, replayStore))) {
    throw new FlowCookieRefused("replayed", "the flow was resumed before: a flow is used once")
  }
  return { snapshot: opened.snapshot, flowId: opened.flowId }
}
