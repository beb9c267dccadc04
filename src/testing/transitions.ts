/**
 * Transitions of a machine: the ones it declares, its shape, and the ones an event takes from a
 * snapshot. Paths through a machine are in `model-paths.ts`, the transitions a real run took in
 * `recorder.ts`.
 *
 * @module
 */
import { getMicrosteps, type AnyMachineSnapshot, type AnyStateMachine, type AnyTransitionDefinition, type StateValue } from "xstate"

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

/**
 * The key of a transition as xstate defines it (an `always` transition has the event type `""`).
 *
 * @example
 * ```ts
 * transitionKey(signOutMachine.getStateNodeById("sign-out.validatingInput").transitions.get("csrf.valid")![0]!) // "sign-out.validatingInput:csrf.valid:0"
 * ```
 */
export function transitionKey(transition: AnyTransitionDefinition): TransitionKey {
  const { source, eventType } = transition
  const siblings: readonly AnyTransitionDefinition[] = (eventType === "" ? source.always : source.transitions.get(eventType)) ?? []
  return `${source.id}:${eventType === "" ? "always" : eventType}:${siblings.indexOf(transition)}`
}

/**
 * The keys of the transitions `event` takes from `snapshot`.
 *
 * @example
 * ```ts
 * transitionsTaken(signOutMachine, signOutMachine.getInitialSnapshot(scope), { type: "csrf.invalid" }) // ["sign-out.validatingInput:csrf.invalid:0"]
 * ```
 */
export function transitionsTaken(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, event: MachineEvent): TransitionKey[] {
  const keys = machine.getTransitionData(snapshot, event as never).map((transition) => {
    const siblings = transition.source.transitions.get(transition.eventType) ?? []
    return `${transition.source.id}:${transition.eventType}:${siblings.indexOf(transition)}`
  })
  // The eventless (`always`) transitions the event leads through: each microstep after the first
  // took the `always` transition of a state active before it whose target is active after it.
  const steps = getMicrosteps(machine, snapshot, event as never).map(([step]) => step as AnyMachineSnapshot)
  for (let index = 1; index < steps.length; index++) {
    const before = steps[index - 1]!
    const after = new Set(steps[index]!._nodes)
    for (const node of before._nodes) {
      const taken = node.always?.findIndex((transition) => transition.target?.some((target) => after.has(target)) && !after.has(node))
      if (taken !== undefined && taken >= 0) keys.push(`${node.id}:always:${taken}`)
    }
  }
  return keys
}

/**
 * A state value as paths and recorded runs name it: the state's name, or the JSON of a nested value.
 *
 * @example
 * ```ts
 * stateName("signedIn") // "signedIn"
 * stateName({ verifying: "token" }) // '{"verifying":"token"}'
 * ```
 */
export function stateName(value: StateValue): string {
  return typeof value === "string" ? value : JSON.stringify(value)
}
