/**
 * Transitions of a machine: the ones it declares, the ones a generated path takes, and the ones a
 * real run took (read from xstate inspection events).
 *
 * @module
 */
import { createTestModel } from "@xstate/graph"
import type { AnyMachineSnapshot, AnyStateMachine, InspectionEvent } from "xstate"

/** One declared transition: `<source state id>:<event>:<index among that event's transitions>`, e.g. `oauth.resolvingAccount:account.new.emailTaken:1`. */
export type TransitionKey = string

/** An event of a machine, as the model generates it. */
export interface MachineEvent {
  type: string
  [payload: string]: unknown
}

type StateNode = AnyStateMachine["root"]

/**
 * Every transition a machine declares, nested states included.
 *
 * @example
 * ```ts
 * declaredTransitions(signOutMachine).has("sign-out.validatingInput:csrf.invalid:0") // true
 * ```
 */
export function declaredTransitions(machine: AnyStateMachine): Set<TransitionKey> {
  const keys = new Set<TransitionKey>()
  const visit = (node: StateNode) => {
    for (const [eventType, definitions] of node.transitions) definitions.forEach((_, index) => keys.add(`${node.id}:${eventType}:${index}`))
    node.always?.forEach((_, index) => keys.add(`${node.id}:always:${index}`))
    for (const child of Object.values(node.states)) visit(child)
  }
  visit(machine.root)
  return keys
}

/**
 * The shape of a machine: its state nodes (nested included, the root not), transitions, and how
 * many of them have a guard.
 *
 * @example
 * ```ts
 * machineShape(signOutMachine) // { states: 7, transitions: 10, guarded: 1 }
 * ```
 */
export function machineShape(machine: AnyStateMachine): { states: number; transitions: number; guarded: number } {
  let states = 0
  let transitions = 0
  let guarded = 0
  const visit = (node: StateNode) => {
    for (const definitions of node.transitions.values()) {
      transitions += definitions.length
      guarded += definitions.filter((definition) => definition.guard !== undefined).length
    }
    transitions += node.always?.length ?? 0
    guarded += node.always?.filter((definition) => definition.guard !== undefined).length ?? 0
    for (const child of Object.values(node.states)) {
      states++
      visit(child)
    }
  }
  visit(machine.root)
  return { states, transitions, guarded }
}

/** The keys of the transitions `event` takes from `snapshot`. */
function takenBy(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, event: MachineEvent): TransitionKey[] {
  return machine.getTransitionData(snapshot, event as never).map((transition) => {
    const siblings = transition.source.transitions.get(transition.eventType) ?? []
    return `${transition.source.id}:${transition.eventType}:${siblings.indexOf(transition)}`
  })
}

/** A path through a machine as the model generates it: its events, and the transition each takes. */
export interface ModelPath {
  events: MachineEvent[]
  /** For each event, the transitions it takes. */
  transitions: TransitionKey[][]
  /** The state the path ends in. */
  finalState: string
}

/**
 * Every simple path through the machine, from `@xstate/graph`'s `createTestModel`, with the given
 * payload-carrying events (events without payload are derived by the model).
 *
 * @example
 * ```ts
 * modelPaths(signOutMachine, [{ type: "session.found", strategy: "jwt" }]).map((path) => path.finalState)
 * ```
 */
export function modelPaths(machine: AnyStateMachine, events: readonly MachineEvent[]): ModelPath[] {
  const model = createTestModel(machine, { events: [...events] } as never)
  const seen = new Set<string>()
  const paths: ModelPath[] = []
  for (const path of model.getSimplePaths()) {
    const steps = path.steps.filter((step) => step.event.type !== "xstate.init")
    const key = JSON.stringify(steps.map((step) => step.event), (_, value: unknown) => (value instanceof Error ? `${value.name}:${value.message}` : value))
    if (seen.has(key)) continue
    seen.add(key)
    let previous = machine.getInitialSnapshot({} as never) as AnyMachineSnapshot
    const transitions: TransitionKey[][] = []
    for (const step of steps) {
      transitions.push(takenBy(machine, previous, step.event as MachineEvent))
      previous = step.state as AnyMachineSnapshot
    }
    paths.push({ events: steps.map((step) => step.event as MachineEvent), transitions, finalState: JSON.stringify(previous.value).replace(/^"|"$/g, "") })
  }
  return paths
}

/** What a recorder saw of one flow actor: the states it went through. */
export interface RecordedRun {
  machine: string
  states: string[]
}

/**
 * Records, from inspection events, the transitions the given machines really took and the states
 * each flow actor went through. Pass {@link inspect} as `config.inspect`.
 *
 * @example
 * ```ts
 * const recorder = new TransitionRecorder([signOutMachine])
 * await Auth(request, { ...config, inspect: recorder.inspect })
 * recorder.taken.get("sign-out") // Set { "sign-out.validatingInput:csrf.valid:0", … }
 * ```
 */
export class TransitionRecorder {
  /** Taken transitions, per machine id. */
  readonly taken = new Map<string, Set<TransitionKey>>()
  /** The runs seen since the last {@link reset}, in the order they started. */
  readonly runs: RecordedRun[] = []
  readonly #machines: Map<string, AnyStateMachine>
  readonly #last = new Map<string, AnyMachineSnapshot>()
  readonly #runs = new Map<string, RecordedRun>()

  constructor(machines: readonly AnyStateMachine[]) {
    this.#machines = new Map(machines.map((machine) => [machine.id, machine]))
  }

  readonly inspect = (event: InspectionEvent): void => {
    if (event.type !== "@xstate.snapshot") return
    const snapshot = event.snapshot as AnyMachineSnapshot
    const machine = snapshot.machine && this.#machines.get(snapshot.machine.id)
    if (!machine) return
    const actorId = event.actorRef.sessionId
    const previous = this.#last.get(actorId)
    if (previous && event.event.type !== "xstate.init") {
      let taken = this.taken.get(machine.id)
      if (!taken) this.taken.set(machine.id, (taken = new Set()))
      for (const key of takenBy(machine, previous, event.event as MachineEvent)) taken.add(key)
    }
    this.#last.set(actorId, snapshot)
    let run = this.#runs.get(actorId)
    if (!run) {
      run = { machine: machine.id, states: [] }
      this.#runs.set(actorId, run)
      this.runs.push(run)
    }
    const value = typeof snapshot.value === "string" ? snapshot.value : JSON.stringify(snapshot.value)
    if (run.states[run.states.length - 1] !== value) run.states.push(value)
  }

  /** Forgets the runs seen so far (the taken transitions are kept). */
  reset(): void {
    this.runs.length = 0
    this.#runs.clear()
    this.#last.clear()
  }
}
