/**
 * How much of a machine the runs covered: of the transitions a configuration can take, the ones
 * the runs took.
 *
 * @module
 */
import { declaredTransitions, machineShape, type TransitionKey } from "./transitions.js"
import { transitionName } from "./transition-names.js"
import type { TransitionRecorder } from "./recorder.js"
import type { AnyStateMachine } from "xstate"

/** The coverage of one machine by the paths run so far. */
export interface MachineCoverage {
  machine: string
  states: number
  transitions: number
  guarded: number
  /** Transitions this configuration can take: those of its reachable paths (see {@link notTaken}). */
  reachable: number
  /** Reachable transitions the paths run so far took. */
  covered: number
  /** Reachable transitions no path took. */
  missing: TransitionKey[]
  /** Transitions decided by your own code, which it never took (your `signIn` callback never redirected, say): not counted as reachable. */
  notTaken: { transition: TransitionKey; decidedBy: string }[]
  /** The human name of each transition in `missing` and `notTaken` (`the signIn callback answered false (checkingSignIn → accessDenied)`), as the report prints it. */
  names: Record<TransitionKey, string>
}

/** A path the configuration can reach: the transitions of each of its steps, and who decides each step (your own code), if anyone. */
export interface PossiblePath {
  transitions: TransitionKey[][]
  decidedBy: (string | undefined)[]
}

/**
 * The coverage of `machine` by the transitions `taken`. Reachable are the transitions of the
 * `possible` paths, except those behind a step your own code decides and never took; without
 * `possible`, every declared transition.
 *
 * @example
 * ```ts
 * machineCoverage(signOutMachine, recorder.taken.get("sign-out") ?? new Set()).missing // []
 * ```
 */
export function machineCoverage(machine: AnyStateMachine, taken: ReadonlySet<TransitionKey>, possible?: readonly PossiblePath[]): MachineCoverage {
  const declared = declaredTransitions(machine)
  const reachable = new Set<TransitionKey>(possible ? [] : declared)
  const notTaken = new Map<TransitionKey, string>()
  for (const path of possible ?? []) {
    const blocked = path.transitions.flatMap((keys, index) => (path.decidedBy[index] ? keys.filter((key) => !taken.has(key)).map((key) => [key, path.decidedBy[index]!] as const) : []))
    if (blocked.length === 0) for (const keys of path.transitions) for (const key of keys) reachable.add(key)
    else for (const [key, by] of blocked) notTaken.set(key, by)
  }
  for (const key of reachable) notTaken.delete(key)
  const missing = [...reachable].filter((key) => !taken.has(key))
  return {
    machine: machine.id,
    ...machineShape(machine),
    transitions: declared.size,
    reachable: reachable.size,
    covered: [...reachable].filter((key) => taken.has(key)).length,
    missing,
    notTaken: [...notTaken].map(([transition, decidedBy]) => ({ transition, decidedBy })),
    names: Object.fromEntries([...missing, ...notTaken.keys()].map((key) => [key, transitionName(machine, key)])),
  }
}

/**
 * `<machine>: <covered>/<declared> transitions (<n> guarded), <n> states`, and the declared
 * transitions the recorder never saw taken.
 *
 * @example
 * ```ts
 * coverageReport(signOutMachine, recorder).line // "sign-out: 9/9 transitions (1 guarded), 7 states"
 * ```
 */
export function coverageReport(machine: AnyStateMachine, recorder: TransitionRecorder): { line: string; missing: TransitionKey[] } {
  const coverage = machineCoverage(machine, recorder.taken.get(machine.id) ?? new Set())
  return { line: `${coverage.machine}: ${coverage.covered}/${coverage.transitions} transitions (${coverage.guarded} guarded), ${coverage.states} states`, missing: coverage.missing }
}
