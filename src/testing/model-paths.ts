/**
 * The paths through a machine, as `@xstate/graph`'s `createTestModel` generates them: each one's
 * events, the states it goes through and the transitions it takes.
 *
 * @module
 */
import { createTestModel } from "@xstate/graph"
import { stateName, transitionsTaken, type MachineEvent, type TransitionKey } from "./transitions.js"
import { getInitialSnapshot, type AnyMachineSnapshot, type AnyStateMachine, type EventFromLogic, type EventObject, type SnapshotFrom } from "xstate"

/** A path through a machine as the model generates it. */
export interface ModelPath<TEvent extends EventObject = MachineEvent> {
  /** The events, readable: `csrf.valid → session.found(strategy="jwt")`. */
  description: string
  events: TEvent[]
  /** The states the path goes through (see {@link stateName}), the initial one first. */
  states: string[]
  /** For each event, the transitions it takes. */
  transitions: TransitionKey[][]
  /** The state the path ends in. */
  finalState: string
  /** The machine's input the path was generated with (see {@link ModelPathOptions.inputs}). */
  input?: unknown
}

/** Options of {@link modelPaths}. */
export interface ModelPathOptions {
  /**
   * The inputs to start the machine with (a machine whose guards read facts of the configuration
   * from its input, such as the session strategy): the paths of each, a path the same for two
   * inputs once. Without it, the machine starts without input.
   */
  inputs?: readonly unknown[]
}

/** The payload-carrying events of a machine, or a function of the snapshot giving them (for answers that depend on what the flow decided earlier). */
export type ModelEvents<TMachine extends AnyStateMachine> = readonly EventFromLogic<TMachine>[] | ((snapshot: SnapshotFrom<TMachine>) => readonly EventFromLogic<TMachine>[])

/**
 * Every simple path through the machine that ends where the flow ends (no path is a prefix of
 * another), longest first, from `@xstate/graph`'s `createTestModel` with the given
 * payload-carrying events (events without payload are derived by the model). Events that differ
 * only by the error they carry are different answers, so paths that differ only by an error stay
 * apart.
 *
 * @example
 * ```ts
 * modelPaths(signOutMachine, [{ type: "session.found", strategy: "jwt" }]).map((path) => path.finalState)
 * ```
 */
export function modelPaths<TMachine extends AnyStateMachine>(machine: TMachine, events: ModelEvents<TMachine>, options: ModelPathOptions = {}): ModelPath<EventFromLogic<TMachine>>[] {
  const inputs = options.inputs ?? [undefined]
  const seen = new Set<string>()
  const paths: ModelPath<EventFromLogic<TMachine>>[] = []
  for (const input of inputs) {
    for (const path of modelPathsFrom(machine, events, input)) {
      const key = `${path.description} ${path.states.join(" ")}`
      if (seen.has(key)) continue
      seen.add(key)
      paths.push(inputs.length > 1 || input !== undefined ? { ...path, input } : path)
    }
  }
  return paths
}

function modelPathsFrom<TMachine extends AnyStateMachine>(machine: TMachine, events: ModelEvents<TMachine>, input: unknown): ModelPath<EventFromLogic<TMachine>>[] {
  const serialize = (value: unknown) => JSON.stringify(value, readable)
  const model = createTestModel(machine, { events: typeof events === "function" ? events : [...events], serializeEvent: serialize, ...(input !== undefined && { input }) } as never)
  const generated = model.getSimplePaths({ allowDuplicatePaths: true, ...(input !== undefined && { input }) } as never).map((path) => {
    const steps = path.steps.filter((step) => step.event.type !== "xstate.init")
    return { steps, keys: steps.map((step) => serialize(step.event)) }
  })
  // Longest first, as @xstate/graph orders its own deduplication (which would merge events that
  // differ only by their error, so it is done here).
  generated.sort((a, b) => b.keys.length - a.keys.length)
  const kept: string[][] = []
  const paths: ModelPath<EventFromLogic<TMachine>>[] = []
  for (const { steps, keys } of generated) {
    if (kept.some((longer) => keys.every((key, index) => key === longer[index]))) continue
    kept.push(keys)
    // xstate's own initial snapshot (an actor scope of its making): a machine that decides at its
    // start (eventless transitions from the initial state) starts where the actor would.
    let previous = getInitialSnapshot(machine, input as never) as AnyMachineSnapshot
    const states = [stateName(previous.value)]
    const transitions: TransitionKey[][] = []
    for (const step of steps) {
      transitions.push(transitionsTaken(machine, previous, step.event as MachineEvent))
      previous = step.state as AnyMachineSnapshot
      states.push(stateName(previous.value))
    }
    const pathEvents = steps.map((step) => step.event as EventFromLogic<TMachine>)
    paths.push({ description: pathEvents.map(describeEvent).join(" → "), events: pathEvents, states, transitions, finalState: states[states.length - 1]! })
  }
  return paths
}

/** Errors as `Class("message")`, so that paths which differ only by the error thrown stay apart. */
function readable(this: unknown, _key: string, value: unknown): unknown {
  if (value instanceof Error) return `${value.constructor.name}(${JSON.stringify(value.message)})`
  return value
}

function describeEvent(event: EventObject): string {
  const { type, ...payload } = event as MachineEvent
  const keys = Object.keys(payload)
  const show = (value: unknown) => (value instanceof Error ? (readable.call(undefined, "", value) as string) : JSON.stringify(value, readable))
  return keys.length ? `${type}(${keys.map((key) => `${key}=${show(payload[key])}`).join(",")})` : type
}
