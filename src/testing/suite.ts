/**
 * `authflowModelTests`: every path through every machine a configuration uses, as test cases that
 * drive the real `Auth()`, with their outcomes compared to (or written into) a snapshot file.
 *
 * @module
 */
import { existsSync } from "node:fs"
import { driversFor } from "./drivers/index.js"
import { describeDifference, type CaseOutcome } from "./outcome.js"
import { readSnapshot, snapshotVersion, writeSnapshot, type SnapshotFile } from "./snapshot.js"
import { declaredTransitions, machineShape, modelPaths, TransitionRecorder, type MachineEvent, type ModelPath, type TransitionKey } from "./transitions.js"
import { World } from "./world.js"
import type { AnyStateMachine } from "xstate"
import type { MachineDriver, Scenario } from "./drivers/driver.js"
import type { AuthflowFixtures } from "./fixtures.js"
import type { AuthConfig } from "../types.js"

/** Options of {@link authflowModelTests}. */
export interface ModelTestOptions {
  /** The snapshot file outcomes are compared to. Without one, outcomes are only recorded. */
  snapshotFile?: string
  /** Rewrite the snapshot with this run's outcomes instead of comparing. */
  update?: boolean
}

/** How one path's run compares to the snapshot. */
export interface CaseResult {
  name: string
  machine: string
  outcome: CaseOutcome
  /** The outcome in the snapshot, if it has one. */
  previous?: CaseOutcome
  /** `same`, `changed`, `new` (not in the snapshot), or `recorded` (no snapshot to compare to, or updating). */
  status: "same" | "changed" | "new" | "recorded"
  /** What differs, readable, naming the path and the likely cause; undefined when nothing does. */
  difference?: string
}

/** One path to run. */
export interface ModelTestCase {
  /** `<machine> <provider>: <conditions>`, e.g. `oauth github: account.new.emailTaken`. */
  name: string
  machine: string
  /** Drives the path through `Auth()` and compares its outcome to the snapshot. Never throws for a difference: see {@link CaseResult.difference}. */
  run(): Promise<CaseResult>
}

/** A path the configuration cannot reach, and why. */
export interface UnreachablePath {
  name: string
  why: string
}

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
}

/** What {@link ModelTestSuite.finish} found. */
export interface FinishReport {
  /** The differences, one readable block per path. */
  differences: string[]
  /** True when the snapshot file was written. */
  written: boolean
}

/** The suite {@link authflowModelTests} returns. */
export interface ModelTestSuite {
  cases: ModelTestCase[]
  unreachable: UnreachablePath[]
  /** What may make the outcomes less telling (no fresh adapter per path, say). */
  warnings: string[]
  /** The coverage per machine of the cases run so far. */
  coverage(): MachineCoverage[]
  /**
   * After the cases ran: with `update` (or when the file does not exist yet) writes the snapshot;
   * else rejects with every difference, paths new or gone included.
   */
  finish(): Promise<FinishReport>
}

interface PossiblePath {
  transitions: TransitionKey[][]
  decidedBy: (string | undefined)[]
}

const machineOrder = ["credentials-sign-in", "oauth", "email-sign-in", "email-verification", "sign-out"]

function nameOf(driver: MachineDriver, labels: string[]): string {
  return `${driver.target}: ${labels.length ? labels.join(", ") : "ordinary"}`
}

/** An unreachable path's name: its conditions, the events your code would have to decide, and what sets it apart. */
function unreachableName(driver: MachineDriver, events: readonly MachineEvent[]): string {
  const roles = events.map((event) => driver.role(event))
  const labels = roles.flatMap((role, index) => (role.condition ? [role.condition] : role.decidedBy && events[index]!.type !== "signIn.allowed" ? [events[index]!.type] : []))
  const notes = roles.flatMap((role) => (role.note ? [role.note] : []))
  return `${nameOf(driver, labels)}${notes.length ? ` (${notes.join(", ")})` : ""}`
}

/**
 * The model-based regression tests of your own configuration. Every path through every machine
 * your configuration uses is generated (`@xstate/graph`) and driven through the real `Auth()`
 * with your callbacks, adapter, pages and providers; only the outside world is replaced: each
 * OAuth provider by an in-process stand-in (see {@link StandInProvider}), mail by a capturing
 * sender. Each path's outcome (final state, responses, session, events, adapter writes) is
 * compared to the snapshot file, so a change to your configuration that changes who gets in
 * fails as a named path.
 *
 * Time is not simulated by a clock: an expired sign-in link is produced by storing its token
 * with an expiry in the past.
 *
 * @example
 * ```ts
 * // auth.model.test.ts (vitest)
 * import { afterAll, expect, test } from "vitest"
 * import { authflowModelTests } from "authflow/testing"
 * import { config } from "./auth.config"
 *
 * const suite = await authflowModelTests(config, { credentials: { credentials: { accepted: { username: "ada", password: "lovelace" }, rejected: { username: "ada", password: "nope" } } } }, {
 *   snapshotFile: new URL("./auth.snap.json", import.meta.url).pathname,
 *   update: process.env.UPDATE === "1",
 * })
 * test.each(suite.cases)("$name", async ({ run }) => expect((await run()).difference).toBeUndefined())
 * afterAll(() => suite.finish())
 * ```
 */
export async function authflowModelTests(config: AuthConfig, fixtures: AuthflowFixtures = {}, options: ModelTestOptions = {}): Promise<ModelTestSuite> {
  const { drivers, unused } = driversFor(config, fixtures)
  const snapshot = options.snapshotFile ? readSnapshot(options.snapshotFile) : undefined
  const compare = snapshot !== undefined && !options.update
  const unreachable = new Map<string, string>(unused.map((entry) => [entry.name, entry.why]))
  const possible = new Map<string, PossiblePath[]>()
  const taken = new Map<string, Set<TransitionKey>>()
  const machines = new Map<string, AnyStateMachine>()
  const results = new Map<string, CaseResult>()
  const cases: ModelTestCase[] = []

  for (const driver of drivers) {
    machines.set(driver.machine.id, driver.machine)
    const scenarios = new Map<string, Scenario>()
    const refused: { path: ModelPath; why: string }[] = []
    const reachableHere = new Set<TransitionKey>()
    for (const path of modelPaths(driver.machine, driver.events)) {
      if (driver.impossible?.(path.events)) continue
      const roles = path.events.map((event) => driver.role(event))
      const labels = roles.flatMap((role) => (role.condition ? [role.condition] : []))
      const why = driver.unreachable(path.events)
      if (why !== undefined) {
        refused.push({ path, why })
        continue
      }
      for (const keys of path.transitions) for (const key of keys) reachableHere.add(key)
      const list = possible.get(driver.machine.id) ?? []
      list.push({ transitions: path.transitions, decidedBy: roles.map((role) => role.decidedBy) })
      possible.set(driver.machine.id, list)
      const name = nameOf(driver, labels)
      if (!scenarios.has(name)) scenarios.set(name, { name, conditions: path.events.filter((_, index) => roles[index]!.condition !== undefined) })
    }
    // Each transition no reachable path takes is explained by the shortest unreachable path that
    // takes it: first by paths whose offending event takes it, then by paths it lies behind.
    const explained = new Set<TransitionKey>()
    const notes = (path: ModelPath) => path.events.reduce((count, event) => count + (driver.role(event).note?.split(", ").length ?? 0), 0)
    const ordered = refused.sort((a, b) => notes(a.path) - notes(b.path) || a.path.events.length - b.path.events.length)
    for (const direct of [true, false]) {
      for (const { path, why } of ordered) {
        let culprit = 0
        while (culprit < path.events.length - 1 && driver.unreachable(path.events.slice(0, culprit + 1)) === undefined) culprit++
        const steps = direct ? [culprit] : path.transitions.map((_, index) => index).filter((index) => index >= culprit)
        let last = -1
        for (const index of steps) {
          const unexplained = (path.transitions[index] ?? []).filter((key) => !reachableHere.has(key) && !explained.has(key))
          for (const key of unexplained) explained.add(key)
          if (unexplained.length) last = index
        }
        if (last >= 0) unreachable.set(unreachableName(driver, path.events.slice(0, last + 1)), why)
      }
    }
    for (const scenario of scenarios.values()) {
      cases.push({ name: scenario.name, machine: driver.machine.id, run: () => runCase(driver, scenario) })
    }
  }

  async function runCase(driver: MachineDriver, scenario: Scenario): Promise<CaseResult> {
    const recorder = new TransitionRecorder([...machines.values()])
    const world = await World.create(config, fixtures, recorder)
    await driver.drive(scenario, world)
    const session = await world.session()
    for (const [machine, keys] of recorder.taken) {
      const all = taken.get(machine) ?? new Set()
      for (const key of keys) all.add(key)
      taken.set(machine, all)
    }
    const states: string[] = []
    for (const run of recorder.runs.filter((run) => run.machine === driver.machine.id)) {
      for (const state of run.states) if (states[states.length - 1] !== state) states.push(state)
    }
    const outcome: CaseOutcome = {
      final: states[states.length - 1] ?? "(none)",
      states,
      responses: world.browser.responses,
      session,
      events: world.record.events,
      adapterWrites: Object.fromEntries([...world.record.writes].sort(([a], [b]) => a.localeCompare(b))),
      errors: world.record.errors,
      ...(world.note !== undefined && { note: world.note }),
    }
    const previous = snapshot?.paths[scenario.name]
    let result: CaseResult
    if (!compare) result = { name: scenario.name, machine: driver.machine.id, outcome, status: "recorded" }
    else if (!previous) {
      result = { name: scenario.name, machine: driver.machine.id, outcome, status: "new", difference: `${scenario.name} → a new path, not in the snapshot (ends in ${outcome.final}): run with --update to record it` }
    } else {
      const difference = describeDifference(driver.machine, driver.provider, scenario.name, previous, outcome)
      result = { name: scenario.name, machine: driver.machine.id, outcome, previous, status: difference ? "changed" : "same", ...(difference && { difference }) }
    }
    results.set(scenario.name, result)
    return result
  }

  function coverage(): MachineCoverage[] {
    return [...machines.values()]
      .sort((a, b) => machineOrder.indexOf(a.id) - machineOrder.indexOf(b.id))
      .map((machine) => {
        const took = taken.get(machine.id) ?? new Set<TransitionKey>()
        const reachable = new Set<TransitionKey>()
        const notTaken = new Map<TransitionKey, string>()
        for (const path of possible.get(machine.id) ?? []) {
          const blocked = path.transitions.flatMap((keys, index) => (path.decidedBy[index] ? keys.filter((key) => !took.has(key)).map((key) => [key, path.decidedBy[index]!] as const) : []))
          if (blocked.length === 0) for (const keys of path.transitions) for (const key of keys) reachable.add(key)
          else for (const [key, by] of blocked) notTaken.set(key, by)
        }
        for (const key of reachable) notTaken.delete(key)
        const shape = machineShape(machine)
        const declared = declaredTransitions(machine)
        return {
          machine: machine.id,
          ...shape,
          transitions: declared.size,
          reachable: reachable.size,
          covered: [...reachable].filter((key) => took.has(key)).length,
          missing: [...reachable].filter((key) => !took.has(key)),
          notTaken: [...notTaken].map(([transition, decidedBy]) => ({ transition, decidedBy })),
        }
      })
  }

  async function finish(): Promise<FinishReport> {
    const differences: string[] = []
    const file = options.snapshotFile
    if (!file) return { differences, written: false }
    if (!compare || !existsSync(file)) {
      const paths: Record<string, CaseOutcome> = {}
      for (const testCase of cases) {
        const outcome = results.get(testCase.name)?.outcome ?? snapshot?.paths[testCase.name]
        if (outcome) paths[testCase.name] = outcome
      }
      const file_: SnapshotFile = { version: snapshotVersion, paths, unreachable: Object.fromEntries(unreachable) }
      writeSnapshot(file, file_)
      return { differences, written: true }
    }
    for (const testCase of cases) {
      const difference = results.get(testCase.name)?.difference
      if (difference) differences.push(difference)
    }
    const current = new Set(cases.map((testCase) => testCase.name))
    for (const name of Object.keys(snapshot.paths)) {
      if (!current.has(name)) differences.push(`${name} → gone: the configuration no longer has this path${unreachable.has(name) ? ` (${unreachable.get(name)})` : ""}; run with --update to drop it`)
    }
    if (differences.length) throw Object.assign(new Error(`authflow/testing: ${differences.length} path(s) differ from ${file}\n\n${differences.join("\n\n")}`), { differences })
    return { differences, written: false }
  }

  const warnings: string[] = []
  if (config.adapter && !fixtures.freshAdapter) {
    warnings.push("no fixtures.freshAdapter: every path uses the configuration's own adapter, so the rows one path writes are there for the next (outcomes may depend on the order the paths run in)")
  }
  return { cases, unreachable: [...unreachable].map(([name, why]) => ({ name, why })), warnings, coverage, finish }
}
