import { createTestModel } from "@xstate/graph"
import type { AnyMachineSnapshot, AnyStateMachine, EventFromLogic, InspectionEvent, SnapshotFrom } from "xstate"

/** One declared transition: `<source state id>:<event>:<index among that event's transitions>`. */
export type TransitionKey = string

/** Every transition a machine declares, nested states included. */
export function declaredTransitions(machine: AnyStateMachine): Set<TransitionKey> {
  const keys = new Set<TransitionKey>()
  const visit = (node: AnyStateMachine["root"]) => {
    for (const [eventType, definitions] of node.transitions) {
      definitions.forEach((_, index) => keys.add(`${node.id}:${eventType}:${index}`))
    }
    node.always?.forEach((_, index) => keys.add(`${node.id}:always:${index}`))
    for (const child of Object.values(node.states)) visit(child)
  }
  visit(machine.root)
  return keys
}

/**
 * Records, from inspection events, the transitions a machine really took and the states it
 * visited, per actor.
 */
export class TransitionRecorder {
  readonly taken = new Set<TransitionKey>()
  readonly visited: string[][] = []
  readonly #last = new Map<string, AnyMachineSnapshot>()
  readonly #visitsByActor = new Map<string, string[]>()

  constructor(readonly machine: AnyStateMachine) {}

  /** Pass as `config.inspect`. */
  readonly inspect = (event: InspectionEvent): void => {
    if (event.type !== "@xstate.snapshot") return
    const snapshot = event.snapshot as AnyMachineSnapshot
    if (snapshot.machine?.id !== this.machine.id) return
    const actorId = event.actorRef.sessionId
    const previous = this.#last.get(actorId)
    if (previous && event.event.type !== "xstate.init") {
      for (const transition of this.machine.getTransitionData(previous, event.event)) {
        const siblings = transition.source.transitions.get(transition.eventType) ?? []
        this.taken.add(`${transition.source.id}:${transition.eventType}:${siblings.indexOf(transition)}`)
      }
    }
    this.#last.set(actorId, snapshot)
    let visits = this.#visitsByActor.get(actorId)
    if (!visits) {
      visits = []
      this.#visitsByActor.set(actorId, visits)
      this.visited.push(visits)
    }
    const value = JSON.stringify(snapshot.value)
    if (visits[visits.length - 1] !== value) visits.push(value)
  }

  /** Forget the visits of earlier runs (coverage is kept). */
  resetVisits(): void {
    this.visited.length = 0
    this.#visitsByActor.clear()
    this.#last.clear()
  }
}

/** A path through the machine as the model generates it: the events, and the states after each. */
export interface ModelPath<TMachine extends AnyStateMachine> {
  description: string
  events: EventFromLogic<TMachine>[]
  states: string[]
  finalState: string
}

/**
 * Every simple path through the machine, from `createTestModel` with the given payload-carrying
 * events (events without payload are derived by the model). `events` may be a function of the
 * state, for answers that depend on what the flow decided earlier (a write reports a new user only
 * when the machine planned to create one).
 */
export function modelPaths<TMachine extends AnyStateMachine>(
  machine: TMachine,
  events: EventFromLogic<TMachine>[] | ((snapshot: SnapshotFrom<TMachine>) => EventFromLogic<TMachine>[]),
): ModelPath<TMachine>[] {
  // Events that differ only by the error they carry are different answers: serialise errors by
  // class and message (the model's own deduplication would merge them, so it is done here).
  const serialize = (value: unknown) => JSON.stringify(value, readable)
  const model = createTestModel(machine, { events, serializeEvent: serialize } as never)
  const initial = JSON.stringify(machine.getInitialSnapshot({} as never).value)
  const generated = model.getSimplePaths({ allowDuplicatePaths: true } as never).map((path) => {
    const steps = path.steps.filter((step) => step.event.type !== "xstate.init")
    return { steps, keys: steps.map((step) => serialize(step.event)) }
  })
  // Keep the paths that are no prefix of another: each ends where the flow ends.
  const isPrefix = (short: string[], long: string[]) => short.length < long.length && short.every((key, index) => key === long[index])
  const seen = new Set<string>()
  const paths: ModelPath<TMachine>[] = []
  for (const { steps, keys } of generated) {
    const key = keys.join("\n")
    if (seen.has(key) || generated.some((other) => isPrefix(keys, other.keys))) continue
    seen.add(key)
    const eventsOfPath = steps.map((step) => step.event as EventFromLogic<TMachine>)
    const states = [initial, ...steps.map((step) => JSON.stringify((step.state as AnyMachineSnapshot).value))]
    paths.push({
      description: eventsOfPath.map((event) => describeEvent(event)).join(" → "),
      events: eventsOfPath,
      states,
      finalState: JSON.parse(states[states.length - 1]!) as string,
    })
  }
  return paths
}

/** Errors as `Class("message")`, so that paths which differ only by the error thrown stay apart. */
function readable(this: unknown, _key: string, value: unknown): unknown {
  if (value instanceof Error) return `${value.constructor.name}(${JSON.stringify(value.message)})`
  return value
}

function describeEvent(event: { type: string }): string {
  const { type, ...payload } = event
  const keys = Object.keys(payload)
  const show = (value: unknown) => (value instanceof Error ? (readable.call(undefined, "", value) as string) : JSON.stringify(value, readable))
  return keys.length ? `${type}(${keys.map((key) => `${key}=${show(payload[key as keyof typeof payload])}`).join(",")})` : type
}

/** The shape of a machine: its state nodes (nested included, the root not), transitions, and how many of them have a guard. */
export function machineShape(machine: AnyStateMachine): { states: number; transitions: number; guarded: number } {
  let states = 0
  let transitions = 0
  let guarded = 0
  const visit = (node: AnyStateMachine["root"]) => {
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

/**
 * `<machine>: <covered>/<total> transitions (<n> guarded), <n> states`, and the uncovered
 * transitions.
 *
 * @example
 * ```ts
 * coverageReport(signOutMachine, recorder).line // "sign-out: 9/9 transitions (1 guarded), 7 states"
 * ```
 */
export function coverageReport(machine: AnyStateMachine, recorder: TransitionRecorder): { line: string; missing: string[] } {
  const declared = declaredTransitions(machine)
  const missing = [...declared].filter((key) => !recorder.taken.has(key))
  const { states, guarded } = machineShape(machine)
  return { line: `${machine.id}: ${declared.size - missing.length}/${declared.size} transitions (${guarded} guarded), ${states} states`, missing }
}

/**
 * What the `signIn` callback must answer for the engine to meet a path's sign-in decision:
 * `signIn.denied` refuses (throwing the event's `error` when it has one), `signIn.redirect` sends
 * the user to its `url`, and anything else allows.
 */
export function signInDecisionOf(path: readonly { type: string }[]): boolean | string {
  const denied = path.find((event) => event.type === "signIn.denied") as { error?: unknown } | undefined
  if (denied) {
    if (denied.error) throw new Error(String(denied.error))
    return false
  }
  const redirect = path.find((event) => event.type === "signIn.redirect") as { url?: string } | undefined
  return redirect?.url ?? true
}
