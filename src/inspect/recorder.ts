import type { AnyStateMachine, InspectionEvent, Observer } from "xstate"
import { randomHex, sha256Hex } from "../core/crypto.js"
import { effectOf } from "../machines/run-flow.js"
import { activePaths } from "./describe.js"
import { authflowMachines, successStates, unlistedWaits } from "./machines.js"
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
 * One actor's part of a flow: a machine run, continued across requests when the flow is restored
 * from its sealed snapshot (a `resumed` step marks where the later request picked it up).
 *
 * @example
 * ```ts
 * const [oauth] = recorder.get(id)!.runs // the oauth machine, from validatingInput through awaitingCallback to signedIn
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
 * flow?.runs.map((run) => run.machine) // ["oauth"]: one run over both requests
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
   * it came from (both requests gave the actor the same id). `unlinked`: a resumed flow whose start
   * this inspector did not see (it began before the inspector started, in another process, or was
   * evicted from the ring buffer).
   */
  resumed?: "linked" | "unlinked"
  runs: FlowRun[]
}

/**
 * What the flow list shows of a flow.
 *
 * @example
 * ```ts
 * recorder.summary(recorder.get("12")!) // { machines: ["oauth"], state: "signedIn", status: "succeeded", requests: 2, … }
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
  /**
   * The flow has only issued what a page asks for on every view (passkey options for the browser's
   * autofill: see `unlistedWaits`) and waits: the unfiltered list leaves it out until it goes on.
   */
  unlisted?: true
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
  id?: unknown
  sessionId?: unknown
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
  /** Keyed digest of the actor's own id (a root actor given an `id`): what joins the requests of one flow. */
  key?: string
  /** The next snapshot is the first of a restored run: its step is marked `resumed`. */
  resuming?: boolean
  run?: FlowRun
  flow?: FlowRecord
}

function isMachine(logic: unknown): logic is AnyStateMachine {
  return typeof logic === "object" && logic !== null && "root" in logic && typeof (logic as { id?: unknown }).id === "string"
}

function stateText(value: unknown): string {
  if (typeof value === "string") return value
  const paths = activePaths(value)
  const leaves = paths.filter((path) => !paths.some((other) => other.startsWith(`${path}.`)))
  return leaves.length === 1 ? leaves[0]! : JSON.stringify(value)
}

/** A waiting state: the flow is active and names no effect, so it waits for another request. */
function isWaiting(step: FlowStep): boolean {
  return step.status === "active" && step.effect === undefined
}

/**
 * Records flows from xstate inspection events, redacted as they arrive, in a ring buffer. Its
 * `inspect` observer only reads: it never sends an event, never changes a snapshot, and never
 * throws into the flow it watches.
 *
 * A flow that waits for another request (the OAuth sign-in, sealed into its cookie) is joined to
 * its continuation by its actor's id: the engine names the actor after the flow (the id sealed in
 * the flow cookie) in every request, so the actor restored in the callback request carries the
 * same `id` as the one that waited. When a run waits, the recorder keeps a keyed SHA-256 digest of
 * that id (under a random key of its own, in memory only); a restored actor whose id has the same
 * digest continues that flow, in the same run: one flow, one machine, both requests' steps.
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
  /** Ids of the flows the unfiltered list leaves out (see `onlyOffered`). */
  readonly #unlisted = new Set<string>()
  readonly #digestKey = randomHex(32)
  readonly #listeners = new Set<(flow: FlowRecord) => void>()
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

  /** How many recorded flows the unfiltered list leaves out (they have only issued passkey options). */
  get unlisted(): number {
    return this.#unlisted.size
  }

  /**
   * A page of flow summaries, newest first, optionally only those that went through `machine` or have
   * `status`. Without either filter it leaves out the flows that have only issued passkey options
   * (`unlisted` counts them): a sign-in page asks for options on every view, and a person cares
   * about the flow once the browser answers the ceremony.
   */
  list(query: { offset?: number; limit?: number; machine?: string; status?: FlowStatus } = {}): { total: number; flows: FlowSummary[]; unlisted: number } {
    const offset = Math.max(0, query.offset ?? 0)
    const limit = Math.max(0, query.limit ?? 50)
    const unfiltered = !query.machine && !query.status
    const matching: FlowSummary[] = []
    let total = 0
    const all = [...this.#flows.values()]
    for (let i = all.length - 1; i >= 0; i--) {
      const flow = all[i]!
      if (unfiltered && this.#unlisted.has(flow.id)) continue
      if (query.machine && !flow.runs.some((run) => run.machine === query.machine)) continue
      let summary: FlowSummary | undefined
      if (query.status) {
        summary = this.summary(flow)
        if (summary.status !== query.status) continue
      }
      if (total >= offset && total < offset + limit) matching.push(summary ?? this.summary(flow))
      total++
    }
    return { total, flows: matching, unlisted: unfiltered ? this.#unlisted.size : 0 }
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
      ...(this.#unlisted.has(flow.id) && { unlisted: true as const }),
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
    this.#unlisted.clear()
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
    // Only machine actors get here, and a machine snapshot always answers getMeta.
    const effect = typeof snapshot.getMeta === "function" ? effectOf(snapshot as Required<Pick<SnapshotLike, "getMeta">>) : undefined
    if (effect !== undefined) step.effect = effect
    if (state.resuming) {
      step.resumed = true
      state.resuming = false
    }
    const { run, flow } = state as Required<RunState>
    run.steps.push(step)
    if (run.steps.length > this.#maxSteps) {
      run.steps.splice(1, 1)
      run.droppedSteps++
    }
    if (isWaiting(step) && state.key !== undefined) this.#rememberWaiting(state.key, flow)
    this.#changed(flow)
  }

  /**
   * A new actor: a child joins its parent's flow; a restored root actor continues the flow that
   * waited under the same actor id (xstate announces the actor before it restores the snapshot, so
   * the children it restores find their parent's flow); any other starts a flow.
   */
  #startRun(actor: ActorLike & object): RunState {
    const machine = actor.logic as AnyStateMachine
    if (!this.#machines.has(machine.id)) this.#machines.set(machine.id, machine)
    const state: RunState = { machine: machine.id, restored: actor.options?.snapshot !== undefined }
    this.#actors.set(actor, state)
    const parent = actor._parent ? this.#actors.get(actor._parent)?.flow : undefined
    // Without an id of its own, an actor's id is its session id ("x:0" for every root actor): nothing to join by.
    if (!actor._parent && typeof actor.id === "string" && actor.id !== actor.sessionId) state.key = this.#digest(actor.id)
    if (state.restored) state.resuming = true
    if (state.restored && !parent) {
      this.#placeRestored(state)
      return state
    }
    state.flow = parent ?? this.#newFlow()
    state.run = this.#newRun(state.flow, machine.id, state.restored)
    return state
  }

  /** A restored run continues the flow that waited under its actor id, or starts a flow marked as resumed. */
  #placeRestored(state: RunState): void {
    const flowId = state.key === undefined ? undefined : this.#waiting.get(state.key)
    const flow = flowId === undefined ? undefined : this.#flows.get(flowId)
    if (state.key !== undefined) this.#waiting.delete(state.key)
    if (flow) {
      flow.requests++
      flow.resumed = "linked"
      const previous = flow.runs.at(-1)
      const last = previous?.steps.at(-1)
      // The same machine, picking up where it waited: one run, with a "resumed" step in between.
      const continues = previous && last && previous.machine === state.machine && isWaiting(last)
      state.flow = flow
      state.run = continues ? previous : this.#newRun(flow, state.machine, true)
      if (continues) previous.stopped = false
      return
    }
    state.flow = this.#newFlow()
    state.flow.resumed = "unlinked"
    state.run = this.#newRun(state.flow, state.machine, true)
  }

  #rememberWaiting(key: string, flow: FlowRecord): void {
    this.#waiting.delete(key)
    this.#waiting.set(key, flow.id)
    while (this.#waiting.size > this.#maxFlows) this.#waiting.delete(this.#waiting.keys().next().value!)
  }

  /** A keyed digest: the key is random, per recorder, and never leaves memory, so the digest reveals nothing of the flow's id. */
  #digest(value: string): string {
    return sha256Hex(`${this.#digestKey}:${value}`)
  }

  #newFlow(): FlowRecord {
    const seq = ++this.#seq
    const now = Date.now()
    const flow: FlowRecord = { id: String(seq), seq, startedAt: now, updatedAt: now, requests: 1, runs: [] }
    this.#flows.set(flow.id, flow)
    while (this.#flows.size > this.#maxFlows) {
      const oldest = this.#flows.keys().next().value!
      this.#flows.delete(oldest)
      this.#unlisted.delete(oldest)
    }
    return flow
  }

  #newRun(flow: FlowRecord, machine: string, restored: boolean): FlowRun {
    const run: FlowRun = { machine, startedAt: Date.now(), restored, steps: [], droppedSteps: 0, stopped: false }
    flow.runs.push(run)
    return run
  }

  #changed(flow: FlowRecord): void {
    flow.updatedAt = Date.now()
    if (onlyOffered(flow)) this.#unlisted.add(flow.id)
    else this.#unlisted.delete(flow.id)
    for (const listener of this.#listeners) {
      try {
        listener(flow)
      } catch {
        // A failing listener never reaches the flow.
      }
    }
  }
}

/**
 * A flow of one request, one run from the machine's start, waiting in one of its machine's
 * `unlistedWaits`: it has only handed out what a page asks for on every view.
 */
function onlyOffered(flow: FlowRecord): boolean {
  const [run, ...more] = flow.runs
  const step = run?.steps.at(-1)
  if (!run || more.length > 0 || run.restored || flow.requests !== 1 || !step || !isWaiting(step)) return false
  return unlistedWaits.get(run.machine)?.has(step.state) ?? false
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
