import type { AnyStateMachine } from "xstate"
import { effectOf } from "../machines/run-flow.js"

/**
 * One transition of a state: the event that takes it, its guard, where it goes.
 *
 * @example
 * ```ts
 * const transition: TransitionDescription = { event: "csrf.valid", label: "csrf.valid", targets: ["authorizing"], actions: [] }
 * ```
 */
export interface TransitionDescription {
  /** The event type (`csrf.valid`), or what xstate calls an eventless, delayed or done transition. */
  event: string
  /** A readable form of `event`: `always`, `after 1000ms`, `done: fetchUser`, or the event type. */
  label: string
  /** The guard's name, when the transition has one. */
  guard?: string
  /** Paths of the target states (`["authorizing"]`, `["a.a1"]`); empty for a targetless transition. */
  targets: string[]
  /** Names of the actions the transition runs (`xstate.assign` for inline assignments). */
  actions: string[]
  /** True when the transition exits and re-enters its source state. */
  reenter?: boolean
}

/**
 * One state of a machine, with its nested states.
 *
 * @example
 * ```ts
 * describeMachine(signOutMachine).states[1] // { path: "findingSession", key: "findingSession", type: "atomic", effect: "findSession", states: [], transitions: […] }
 * ```
 */
export interface StateDescription {
  /** The state's dotted path from the machine's root: `authorizing`, `a.a1`. */
  path: string
  /** The state's own key: `authorizing`, `a1`. */
  key: string
  type: "atomic" | "compound" | "parallel" | "final" | "history"
  /** The I/O the state performs, from `meta.effect`: the engine runs it and sends the outcome back. */
  effect?: string
  /** Path of the initial child state, for a compound state. */
  initial?: string
  /** The nested states, in definition order. */
  states: StateDescription[]
  transitions: TransitionDescription[]
}

/**
 * A serialisable description of a machine: states, nesting, transitions with event, guard and
 * target, effects. What `authflow machines --format json` prints.
 *
 * @example
 * ```ts
 * const description: MachineDescription = describeMachine(signOutMachine)
 * JSON.parse(JSON.stringify(description)) // the same description
 * ```
 */
export interface MachineDescription {
  id: string
  /** Path of the initial state. */
  initial?: string
  states: StateDescription[]
  /** Transitions declared on the machine itself (taken from any state). */
  transitions: TransitionDescription[]
}

interface NodeLike {
  key: string
  path: string[]
  type: StateDescription["type"]
  meta?: unknown
  states: Record<string, NodeLike>
  initial?: { target?: readonly NodeLike[] }
  transitions: Map<string, readonly TransitionLike[]>
  always?: readonly TransitionLike[]
}

interface TransitionLike {
  eventType: string
  guard?: unknown
  target?: readonly NodeLike[]
  actions?: readonly unknown[]
  reenter?: boolean
}

/**
 * A readable name for an event type: xstate's internal event types for delayed, eventless and
 * invoke completion transitions become `after 1000ms`, `always`, `done: <id>`, `error: <id>`.
 *
 * @example
 * ```ts
 * eventLabel("xstate.after.1000.machine.waiting") // "after 1000ms"
 * eventLabel("csrf.valid") // "csrf.valid"
 * ```
 */
export function eventLabel(event: string): string {
  if (event === "") return "always"
  const after = /^xstate\.after\.(\d+)\./.exec(event)
  if (after) return `after ${after[1]}ms`
  const done = /^xstate\.(done|error)\.actor\.(?:\d+\.)?(.+)$/.exec(event)
  if (done) return `${done[1]}: ${done[2]}`
  return event
}

/** xstate's higher-order guards (`and`, `or`, `not`) and `stateIn` are functions carrying what they combine. */
interface GuardFunction {
  (...args: never[]): unknown
  guards?: readonly unknown[]
  stateValue?: unknown
}

/**
 * A transition's guard as the descriptions name it: its type, `and(a, b)` for a combination, or
 * undefined when there is none.
 *
 * @example
 * ```ts
 * guardName("answeredTrue") // "answeredTrue"
 * guardName(and(["providerEndsSession", "accountsReadable"])) // "and(providerEndsSession, accountsReadable)"
 * ```
 */
export function guardName(guard: unknown): string | undefined {
  if (guard === undefined || guard === null) return undefined
  if (typeof guard === "string") return guard
  if (typeof guard === "function") {
    const { guards, stateValue } = guard as GuardFunction
    if (Array.isArray(guards) && ["and", "or", "not"].includes(guard.name)) return `${guard.name}(${guards.map((inner) => guardName(inner) ?? "guard").join(", ")})`
    if (guard.name === "stateIn" && stateValue !== undefined) return `stateIn(${typeof stateValue === "string" ? stateValue : JSON.stringify(stateValue)})`
    return guard.name && guard.name !== "guard" ? guard.name : "inline guard"
  }
  if (typeof guard === "object" && typeof (guard as { type?: unknown }).type === "string") return (guard as { type: string }).type
  return "guard"
}

function actionName(action: unknown): string {
  if (typeof action === "string") return action
  if (typeof action === "function") return (action as { type?: string }).type ?? (action.name || "inline action")
  if (action && typeof action === "object" && typeof (action as { type?: unknown }).type === "string") return (action as { type: string }).type
  return "action"
}

function describeTransition(transition: TransitionLike): TransitionDescription {
  const guard = guardName(transition.guard)
  return {
    event: transition.eventType,
    label: eventLabel(transition.eventType),
    ...(guard !== undefined && { guard }),
    targets: (transition.target ?? []).map((target) => target.path.join(".")),
    actions: (transition.actions ?? []).map(actionName),
    ...(transition.reenter && { reenter: true }),
  }
}

function transitionsOf(node: NodeLike): TransitionDescription[] {
  const transitions: TransitionDescription[] = []
  for (const list of node.transitions.values()) for (const transition of list) transitions.push(describeTransition(transition))
  for (const transition of node.always ?? []) transitions.push(describeTransition(transition))
  return transitions
}

function describeState(node: NodeLike): StateDescription {
  const initial = node.initial?.target?.[0]
  // The engine's own reading of `meta.effect`, given the one state node as a snapshot's meta.
  const effect = effectOf({ getMeta: () => ({ [node.path.join(".")]: node.meta }) })
  return {
    path: node.path.join("."),
    key: node.key,
    type: node.type,
    ...(effect !== undefined && { effect }),
    ...(initial && { initial: initial.path.join(".") }),
    states: Object.values(node.states).map(describeState),
    transitions: transitionsOf(node),
  }
}

/**
 * Describes a machine from its definition as plain data: every state (nested ones too), its type,
 * the effect it names in `meta.effect`, and every transition with its event, guard and targets.
 * The description round-trips through JSON; the diagrams, the CLI and the inspector page use it.
 *
 * @example
 * ```ts
 * import { credentialsSignInMachine } from "authflow/machines"
 * import { describeMachine } from "authflow/inspect"
 *
 * const description = describeMachine(credentialsSignInMachine)
 * description.states[0] // { path: "validatingInput", effect: "checkCsrf", transitions: [{ event: "csrf.valid", targets: ["authorizing"], … }, …], … }
 * ```
 */
export function describeMachine(machine: AnyStateMachine): MachineDescription {
  const root: NodeLike = machine.root
  const initial = root.initial?.target?.[0]
  return {
    id: machine.id,
    ...(initial && { initial: initial.path.join(".") }),
    states: Object.values(root.states).map(describeState),
    transitions: transitionsOf(root),
  }
}

/** Every state of a description, depth first, nested states after their parent. */
export function allStates(description: { states: StateDescription[] }): StateDescription[] {
  const states: StateDescription[] = []
  const visit = (list: StateDescription[]) => {
    for (const state of list) {
      states.push(state)
      visit(state.states)
    }
  }
  visit(description.states)
  return states
}

/**
 * The active state paths of a state value, parents before children: `"a"` → `["a"]`,
 * `{ a: "a1" }` → `["a", "a.a1"]`.
 *
 * @example
 * ```ts
 * activePaths({ a: { b: "c" } }) // ["a", "a.b", "a.b.c"]
 * ```
 */
export function activePaths(value: unknown, prefix = ""): string[] {
  const join = (key: string) => (prefix ? `${prefix}.${key}` : key)
  if (typeof value === "string") return [join(value)]
  if (!value || typeof value !== "object") return []
  const paths: string[] = []
  for (const [key, child] of Object.entries(value)) paths.push(join(key), ...activePaths(child, join(key)))
  return paths
}
