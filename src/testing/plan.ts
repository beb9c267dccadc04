/**
 * Which paths of a machine a driver runs, and which it cannot: the model's paths turned into
 * named scenarios, the paths the configuration can reach (for coverage), and each unreachable
 * path named with why.
 *
 * @module
 */
import { modelPaths, type ModelPath } from "./model-paths.js"
import type { PossiblePath } from "./coverage.js"
import type { MachineDriver, Scenario } from "./drivers/driver.js"
import type { MachineEvent, TransitionKey } from "./transitions.js"

/** What {@link planDriver} found for one driver. */
export interface DriverPlan {
  /** One scenario per distinct name, in the order of the model's paths. */
  scenarios: Scenario[]
  /** The reachable paths, for coverage. */
  possible: PossiblePath[]
  /** Unreachable paths, by name, with why: one for each transition no reachable path takes. */
  unreachable: [name: string, why: string][]
}

/** A path's name: `<machine> <provider>: <conditions>`. */
export function scenarioName(driver: MachineDriver, labels: string[]): string {
  return `${driver.target}: ${labels.length ? labels.join(", ") : "ordinary"}`
}

/** An unreachable path's name: its conditions, the events your code would have to decide, and what sets it apart. */
function unreachableName(driver: MachineDriver, events: readonly MachineEvent[], input: unknown): string {
  const roles = events.map((event) => driver.role(event))
  const labels = roles.flatMap((role, index) => (role.condition ? [role.condition] : role.decidedBy && !role.ordinary ? [role.label ?? events[index]!.type] : []))
  const inputNote = driver.inputNote?.(input)
  const notes = [...(inputNote ? [inputNote] : []), ...roles.flatMap((role) => (role.note ? [role.note] : []))]
  return `${scenarioName(driver, labels)}${notes.length ? ` (${notes.join(", ")})` : ""}`
}

/**
 * The scenarios a driver runs, the paths it can reach and the ones it cannot.
 *
 * @example
 * ```ts
 * planDriver(signOutDriver(config)).scenarios.map((scenario) => scenario.name) // ["sign-out: ordinary", "sign-out: csrf.invalid", …]
 * ```
 */
export function planDriver(driver: MachineDriver): DriverPlan {
  const scenarios = new Map<string, Scenario>()
  const possible: PossiblePath[] = []
  const refused: { path: ModelPath; why: string }[] = []
  const reachable = new Set<TransitionKey>()
  for (const path of modelPaths(driver.machine, driver.events, driver.inputs ? { inputs: driver.inputs } : {})) {
    if (driver.impossible?.(path.events) || driver.redundant?.(path.events, path.input)) continue
    const roles = path.events.map((event) => driver.role(event))
    const why = driver.unreachable(path.events, path.input)
    if (why !== undefined) {
      refused.push({ path, why })
      continue
    }
    for (const keys of path.transitions) for (const key of keys) reachable.add(key)
    possible.push({ transitions: path.transitions, decidedBy: roles.map((role) => role.decidedBy) })
    // A reachable path of another input than the first is told apart by the input's note (`no backup codes left`).
    const inputNote = path.input !== undefined && path.input !== driver.inputs?.[0] ? driver.inputNote?.(path.input) : undefined
    const name = `${scenarioName(driver, roles.flatMap((role) => (role.condition ? [role.condition] : [])))}${inputNote ? ` (${inputNote})` : ""}`
    if (!scenarios.has(name)) {
      scenarios.set(name, { name, conditions: path.events.filter((_, index) => roles[index]!.condition !== undefined), ...(path.input !== undefined && { input: path.input }) })
    }
  }
  return { scenarios: [...scenarios.values()], possible, unreachable: explainUnreachable(driver, refused, reachable) }
}

/**
 * Each transition no reachable path takes is explained by the shortest unreachable path that
 * takes it: first by paths whose offending event takes it, then by paths it lies behind.
 */
function explainUnreachable(driver: MachineDriver, refused: { path: ModelPath; why: string }[], reachable: ReadonlySet<TransitionKey>): [string, string][] {
  const explained = new Set<TransitionKey>()
  const named: [string, string][] = []
  const notes = (path: ModelPath) => path.events.reduce((count, event) => count + (driver.role(event).note?.split(", ").length ?? 0), driver.inputNote?.(path.input)?.split(", ").length ?? 0)
  const ordered = refused.sort((a, b) => notes(a.path) - notes(b.path) || a.path.events.length - b.path.events.length)
  for (const direct of [true, false]) {
    for (const { path, why } of ordered) {
      let culprit = 0
      while (culprit < path.events.length - 1 && driver.unreachable(path.events.slice(0, culprit + 1), path.input) === undefined) culprit++
      const steps = direct ? [culprit] : path.transitions.map((_, index) => index).filter((index) => index >= culprit)
      let last = -1
      for (const index of steps) {
        const unexplained = (path.transitions[index] ?? []).filter((key) => !reachable.has(key) && !explained.has(key))
        for (const key of unexplained) explained.add(key)
        if (unexplained.length) last = index
      }
      if (last >= 0) named.push([unreachableName(driver, path.events.slice(0, last + 1), path.input), why])
    }
  }
  return named
}
