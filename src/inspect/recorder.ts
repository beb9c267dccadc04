import type { AnyStateMachine, InspectionEvent, Observer } from "xstate"
import { randomHex, sha256Hex } from "../core/crypto.js"
import { activePaths } from "./describe.js"
import { authflowMachines, handOffs, successStates } from "./machines.js"
import { redact, type RedactOptions } from "./redact.js"

/**
 * One step of a flow: the event the machine received and the snapshot it led to, both redacted.
 *
 * @example
 * ```ts
 * const step: FlowStep = { at: Date.now(), event: { type: "csrf.valid" }, state: "authorizing", paths: ["authorizing"], status: "active", effect: "authorize", context: {} }
 * ```
 */
export interface FlowStep {
  /** When the snapshot was taken (milliseconds since the epoch). */
  at: number
  /** The event, redacted; `xstate.init` for the first snapshot of a run (and of a resumed run). */
  event: { type: string; [key: string]: unknown }
  /** The state value as text: `authorizing`, `a.a1`, or JSON for parallel states. */
  state: string
  /** Paths of every active state, parents first: what the diagram highlights. */
  paths: string[]
  status: "active" | "done" | "error"
  /** The effect the state asks the engine to perform, if any. */
  effect?: string
  /** The machine's context, redacted. */
  context: unknown
  /** Set on the first step of a run restored from a persisted (sealed) snapshot, in a later request. */
  resumed?: true
}

/**
 * One actor's part of a flow: a machine run, or its continuation restored in a later request.
 *
 * @example
 * ```ts
 * const [signIn, callback] = recorder.get(id)!.runs // oauth-sign-in (both requests), then oauth-callback
 * ```
 */
export interface FlowRun {
  machine: string
  startedAt: number
  /** The run began from a persisted snapshot (the flow cookie), not from the machine's initial state. */
  restored: boolean
  steps: FlowStep[]
  /** How many of the oldest steps were dropped to keep the run small. */
  droppedSteps: number
  /** The actor was stopped (for a waiting flow: its snapshot was persisted and the request ended). */
  stopped: boolean
}

/**
 * How a flow is doing, from its last step: `running` (an effect is in progress), `waiting` (for
 * another request), `succeeded` or `ended` (a final state that is a success, or not), `error`, or
 * `stopped` (its actor stopped before a final state).
 *
 * @example
 * ```ts
 * recorder.list({ status: "waiting" }) // OAuth sign-ins still at the provider
 * ```
 */
export type FlowStatus = "running" | "waiting" | "succeeded" | "ended" | "error" | "stopped"

/**
 * A recorded flow: one or more runs, across one or more requests.
 *
 * @example
 * ```ts
 * const flow = recorder.get("12")
 * flow?.runs.map((run) => run.machine) // ["oauth-sign-in", "oauth-callback"]
 * ```
 */
export interface FlowRecord {
  id: string
  seq: number
  startedAt: number
  updatedAt: number
  /** How many requests the flow spans (2 for an OAuth sign-in followed through its callback). */
  requests: number
  /**
   * `linked`: the flow was resumed from a sealed snapshot in a later request and joined to the run
   * it came from. `unlinked`: a resumed flow whose start this inspector did not see (it began before
   * the inspector started, in another process, or was evicted from the ring buffer).
   */
  resumed?: "linked" | "unlinked"
  runs: FlowRun[]
}

/**
 * What the flow list shows of a flow.
 *
 * @example
 * ```ts
 * recorder.summary(recorder.get("12")!) // { machines: ["oauth-sign-in", "oauth-callback"], state: "signedIn", status: "succeeded", requests: 2, … }
 * ```
 */
export interface FlowSummary {
  id: string
  seq: number
  /** The machine the flow started with. */
  machine: string
  /** Every machine the flow went through, in order. */
  machines: string[]
  /** The state it is in now (of its last run). */
  state: string
  status: FlowStatus
  startedAt: number
  updatedAt: number
  steps: number
  requests: number
  resumed?: "linked" | "unlinked"
}

/**
 * Options of {@link FlowRecorder}.
 *
 * @example
 * ```ts
 * new FlowRecorder({ maxFlows: 200, machines: [myMachine], redact: { keys: ["tenantSecret"] } })
 * ```
 */
export interface FlowRecorderOptions {
  /** How many flows to keep (a ring buffer: the oldest go first). Default 1000. */
  maxFlows?: number
  /** Steps kept per run (the oldest go first). Default 200. */
  maxSteps?: number
  /** Machines known besides authflow's own (the page draws them). */
  machines?: readonly AnyStateMachine[]
  /** More property names to redact. */
  redact?: RedactOptions
}

interface ActorLike {
  logic?: unknown
  options?: { snapshot?: unknown }
  _parent?: object
}

interface SnapshotLike {
  value?: unknown
  status?: string
  context?: unknown
  getMeta?: () => Record<string, unknown>
}

interface RunState {
  machine: string
  restored: boolean
  run?: FlowRun
  flow?: FlowRecord
}

const correlationKeys = ["state", "codeVerifier", "nonce"]

function isMachine(logic: unknown): logic is AnyStateMachine {
  return typeof logic === "object" && logic !== null && "root" in logic && typeof (logic as { id?: unknown }).id === "string"
}

function effectOfSnapshot(snapshot: SnapshotLike): string | undefined {
  try {
    const meta = snapshot.getMeta?.() ?? {}
    for (const id in meta) {
      const effect = (meta[id] as { effect?: unknown } | undefined)?.effect
      if (typeof effect === "string") return effect
    }
  } catch {
    // A snapshot without meta support has no effect to show.
  }
  return undefined
}

function stateText(value: unknown): string {
  if (typeof value === "string") return value
  const paths = activePaths(value)
  const leaves = paths.filter((path) => !paths.some((other) => other.startsWith(`${path}.`)))
  return leaves.length === 1 ? leaves[0]! : JSON.stringify(value)
}

/** The first correlation value (`state`, then `codeVerifier`, then `nonce`) found in a context, at most three levels down. */
function correlationValue(context: unknown, depth = 0): string | undefined {
  if (!context || typeof context !== "object" || depth > 3) return undefined
  for (const key of correlationKeys) {
    const value = (context as Record<string, unknown>)[key]
    if (typeof value === "string" && value.length >= 8) return value
  }
  for (const value of Object.values(context)) {
    const found = correlationValue(value, depth + 1)
    if (found) return found
  }
  return undefined
}

const defer: (callback: () => void) => void = typeof setImmediate === "function" ? (callback) => void setImmediate(callback) : (callback) => void setTimeout(callback, 0)

/**
 * Records flows from xstate inspection events, redacted as they arrive, in a ring buffer. Its
 * `inspect` observer only reads: it never sends an event, never changes a snapshot, and never
 * throws into the flow it watches.
 *
 * A flow that waits for another request (the OAuth sign-in, sealed into its cookie) is joined to
 * its continuation: when it waits, the recorder keeps a keyed SHA-256 digest of its `state` check
 * (under a random key of its own, in memory only); a run restored from a snapshot whose check has
 * the same digest continues that flow. The OAuth callback machine that the engine starts right
 * after the restored sign-in machine hands off joins the same flow.
 *
 * @example
 * ```ts
 * const recorder = new FlowRecorder({ maxFlows: 200 })
 * const config = { ...authConfig, inspect: recorder.inspect }
 * // … after some requests
 * recorder.list().flows[0] // { machine: "credentials-sign-in", state: "signedIn", status: "succeeded", … }
 * ```
 */
export class FlowRecorder {
  /** The observer to pass as the config's `inspect` option. */
  readonly inspect: Observer<InspectionEvent>
  /** Inspection events the recorder could not make sense of (they are skipped, never thrown). */
  failures = 0
  readonly #maxFlows: number
  readonly #maxSteps: number
  readonly #redact: RedactOptions
  readonly #flows = new Map<string, FlowRecord>()
  readonly #actors = new WeakMap<object, RunState>()
  readonly #machines = new Map<string, AnyStateMachine>()
  readonly #waiting = new Map<string, string>()
  readonly #correlationKey = randomHex(32)
  readonly #listeners = new Set<(flow: FlowRecord) => void>()
  #handOffs: { flow: FlowRecord; machine: string }[] = []
  #handOffExpiry = false
  #seq = 0

  constructor(options: FlowRecorderOptions = {}) {
    this.#maxFlows = Math.max(1, options.maxFlows ?? 1000)
    this.#maxSteps = Math.max(2, options.maxSteps ?? 200)
    this.#redact = options.redact ?? {}
    for (const machine of [...authflowMachines, ...(options.machines ?? [])]) if (!this.#machines.has(machine.id)) this.#machines.set(machine.id, machine)
    this.inspect = {
      next: (event) => {
        try {
          this.#record(event)
        } catch {
          this.failures++
        }
      },
    }
  }

  /** The machines the recorder knows: authflow's, the ones given, and any seen running since. */
  machines(): AnyStateMachine[] {
    return [...this.#machines.values()]
  }

  /** How many flows are recorded. */
  get size(): number {
    return this.#flows.size
  }

  /** A page of flow summaries, newest first, optionally only those that went through `machine` or have `status`. */
  list(query: { offset?: number; limit?: number; machine?: string; status?: FlowStatus } = {}): { total: number; flows: FlowSummary[] } {
    const offset = Math.max(0, query.offset ?? 0)
    const limit = Math.max(0, query.limit ?? 50)
    const matching: FlowSummary[] = []
    let total = 0
    const all = [...this.#flows.values()]
    for (let i = all.length - 1; i >= 0; i--) {
      const flow = all[i]!
      if (query.machine && !flow.runs.some((run) => run.machine === query.machine)) continue
      let summary: FlowSummary | undefined
      if (query.status) {
        summary = this.summary(flow)
        if (summary.status !== query.status) continue
      }
      if (total >= offset && total < offset + limit) matching.push(summary ?? this.summary(flow))
      total++
    }
    return { total, flows: matching }
  }

  /** A recorded flow by id, with every run and step (all redacted). */
  get(id: string): FlowRecord | undefined {
    return this.#flows.get(id)
  }

  /** The list entry of a flow. */
  summary(flow: FlowRecord): FlowSummary {
    const last = flow.runs.at(-1)
    const step = last?.steps.at(-1)
    return {
      id: flow.id,
      seq: flow.seq,
      machine: flow.runs[0]?.machine ?? "",
      machines: [...new Set(flow.runs.map((run) => run.machine))],
      state: step?.state ?? "",
      status: last && step ? statusOf(last, step) : "running",
      startedAt: flow.startedAt,
      updatedAt: flow.updatedAt,
      steps: flow.runs.reduce((sum, run) => sum + run.steps.length + run.droppedSteps, 0),
      requests: flow.requests,
      ...(flow.resumed && { resumed: flow.resumed }),
    }
  }

  /** Calls `listener` with every flow that changes. Returns the function that stops it. */
  subscribe(listener: (flow: FlowRecord) => void): () => void {
    this.#listeners.add(listener)
    return () => void this.#listeners.delete(listener)
  }

  /** Forgets every flow. */
  clear(): void {
    this.#flows.clear()
    this.#waiting.clear()
    this.#handOffs = []
  }

  #record(event: InspectionEvent): void {
    const actor = event.actorRef as ActorLike & object
    if (event.type === "@xstate.actor") {
      if (isMachine(actor.logic)) this.#startRun(actor)
      return
    }
    if (event.type !== "@xstate.snapshot") return
    const state = this.#actors.get(actor) ?? (isMachine(actor.logic) ? this.#startRun(actor) : undefined)
    if (!state) return
    const snapshot = event.snapshot as SnapshotLike
    if (event.event.type === "xstate.stop" || snapshot.status === "stopped") {
      if (state.run && state.flow) {
        state.run.stopped = true
        this.#changed(state.flow)
      }
      return
    }
    const step: FlowStep = {
      at: Date.now(),
      event: { ...(redact(event.event, this.#redact) as Record<string, unknown>), type: String(event.event.type) },
      state: stateText(snapshot.value),
      paths: activePaths(snapshot.value),
      status: snapshot.status === "done" ? "done" : snapshot.status === "error" ? "error" : "active",
      context: redact(snapshot.context, this.#redact),
    }
    const effect = effectOfSnapshot(snapshot)
    if (effect !== undefined) step.effect = effect
    if (!state.flow) this.#placeRestored(state, snapshot, step)
    const { run, flow } = state as Required<RunState>
    run.steps.push(step)
    if (run.steps.length > this.#maxSteps) {
      run.steps.splice(1, 1)
      run.droppedSteps++
    }
    if (step.status === "active" && effect === undefined) this.#rememberWaiting(snapshot.context, flow)
    if (step.status === "done" && state.restored && handOffs[state.machine]) this.#offerHandOff(flow, handOffs[state.machine]!)
    this.#changed(flow)
  }

  #startRun(actor: ActorLike & object): RunState {
    const machine = actor.logic as AnyStateMachine
    if (!this.#machines.has(machine.id)) this.#machines.set(machine.id, machine)
    const state: RunState = { machine: machine.id, restored: actor.options?.snapshot !== undefined }
    this.#actors.set(actor, state)
    if (state.restored) return state // placed on its first snapshot, once its checks can be correlated
    const parent = actor._parent ? this.#actors.get(actor._parent)?.flow : undefined
    const handOff = parent ? undefined : this.#takeHandOff(machine.id)
    const flow = parent ?? handOff ?? this.#newFlow()
    state.flow = flow
    state.run = this.#newRun(flow, machine.id, false)
    return state
  }

  /** A restored run continues the flow whose waiting checks it carries, or starts a flow marked as resumed. */
  #placeRestored(state: RunState, snapshot: SnapshotLike, step: FlowStep): void {
    step.resumed = true
    const value = correlationValue(snapshot.context)
    const key = value === undefined ? undefined : this.#digest(value)
    const flowId = key === undefined ? undefined : this.#waiting.get(key)
    const flow = flowId === undefined ? undefined : this.#flows.get(flowId)
    if (key !== undefined) this.#waiting.delete(key)
    if (flow) {
      flow.requests++
      flow.resumed = "linked"
      const previous = flow.runs.at(-1)
      // The same machine, picking up where it stopped: one run, with a "resumed" step in between.
      const continues = previous && previous.machine === state.machine && previous.steps.at(-1)?.state === step.state
      state.flow = flow
      state.run = continues ? previous : this.#newRun(flow, state.machine, true)
      if (continues) previous.stopped = false
      return
    }
    state.flow = this.#newFlow()
    state.flow.resumed = "unlinked"
    state.run = this.#newRun(state.flow, state.machine, true)
  }

  #rememberWaiting(context: unknown, flow: FlowRecord): void {
    const value = correlationValue(context)
    if (value === undefined) return
    this.#waiting.set(this.#digest(value), flow.id)
    while (this.#waiting.size > this.#maxFlows) this.#waiting.delete(this.#waiting.keys().next().value!)
  }

  /**
   * The engine starts the next machine in the same turn of the event loop as the restored one ends
   * (only promise continuations in between), so an offer lasts until the next macrotask, and offers
   * are taken in order: concurrent callbacks cannot swap flows.
   */
  #offerHandOff(flow: FlowRecord, machine: string): void {
    this.#handOffs.push({ flow, machine })
    if (this.#handOffExpiry) return
    this.#handOffExpiry = true
    defer(() => {
      this.#handOffs = []
      this.#handOffExpiry = false
    })
  }

  #takeHandOff(machine: string): FlowRecord | undefined {
    const index = this.#handOffs.findIndex((offer) => offer.machine === machine)
    if (index === -1) return undefined
    const [offer] = this.#handOffs.splice(index, 1)
    return this.#flows.has(offer!.flow.id) ? offer!.flow : undefined
  }

  /** A keyed digest: the key is random, per recorder, and never leaves memory, so the digest reveals nothing. */
  #digest(value: string): string {
    return sha256Hex(`${this.#correlationKey}:${value}`)
  }

  #newFlow(): FlowRecord {
    const seq = ++this.#seq
    const now = Date.now()
    const flow: FlowRecord = { id: String(seq), seq, startedAt: now, updatedAt: now, requests: 1, runs: [] }
    this.#flows.set(flow.id, flow)
    while (this.#flows.size > this.#maxFlows) this.#flows.delete(this.#flows.keys().next().value!)
    return flow
  }

  #newRun(flow: FlowRecord, machine: string, restored: boolean): FlowRun {
    const run: FlowRun = { machine, startedAt: Date.now(), restored, steps: [], droppedSteps: 0, stopped: false }
    flow.runs.push(run)
    return run
  }

  #changed(flow: FlowRecord): void {
    flow.updatedAt = Date.now()
    for (const listener of this.#listeners) {
      try {
        listener(flow)
      } catch {
        // A failing listener never reaches the flow.
      }
    }
  }
}

function statusOf(run: FlowRun, step: FlowStep): FlowStatus {
  if (step.status === "error") return "error"
  if (step.status === "done") {
    const leaf = step.state.split(".").at(-1)!
    return successStates.has(leaf) ? "succeeded" : "ended"
  }
  if (step.effect === undefined) return "waiting"
  return run.stopped ? "stopped" : "running"
}
