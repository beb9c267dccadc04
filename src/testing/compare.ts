/**
 * Outcomes against the snapshot file: how one path's outcome compares to the one recorded, and,
 * once every path ran, the file written or every difference listed.
 *
 * @module
 */
import { existsSync } from "node:fs"
import { describeDifference, type CaseOutcome } from "./outcome.js"
import { snapshotVersion, writeSnapshot, type SnapshotFile } from "./snapshot.js"
import type { MachineDriver } from "./drivers/driver.js"

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

/** What {@link ModelTestSuite.finish} found. */
export interface FinishReport {
  /** The differences, one readable block per path. */
  differences: string[]
  /** True when the snapshot file was written. */
  written: boolean
}

/**
 * The result of the path `name` of `driver`: recorded when there is nothing to compare to, else
 * compared to the snapshot's outcome of the same name.
 *
 * @example
 * ```ts
 * compareCase(driver, "sign-out: ordinary", outcome, readSnapshot("auth.snap.json")).status // "same"
 * ```
 */
export function compareCase(driver: MachineDriver, name: string, outcome: CaseOutcome, snapshot: SnapshotFile | undefined): CaseResult {
  const machine = driver.machine.id
  if (!snapshot) return { name, machine, outcome, status: "recorded" }
  const previous = snapshot.paths[name]
  if (!previous) return { name, machine, outcome, status: "new", difference: `${name} → a new path, not in the snapshot (ends in ${outcome.final}): run with --update to record it` }
  const difference = describeDifference(driver.machine, driver.provider, name, previous, outcome)
  return { name, machine, outcome, previous, status: difference ? "changed" : "same", ...(difference && { difference }) }
}

/** What the suite ran, for {@link finishSnapshot}. */
export interface SuiteRun {
  /** Every path's name, in the suite's order. */
  names: string[]
  results: ReadonlyMap<string, CaseResult>
  unreachable: ReadonlyMap<string, string>
  /** The snapshot to compare to; undefined to write the file. */
  compareTo: SnapshotFile | undefined
  /** The snapshot as read, whose outcomes a path that did not run keeps when the file is written. */
  read: SnapshotFile | undefined
}

/**
 * Writes the snapshot file (when not comparing, or when it does not exist yet); else rejects
 * with every difference, paths new or gone included.
 *
 * @example
 * ```ts
 * finishSnapshot("auth.snap.json", run) // { differences: [], written: false }
 * ```
 */
export function finishSnapshot(file: string | undefined, run: SuiteRun): FinishReport {
  const differences: string[] = []
  if (!file) return { differences, written: false }
  if (!run.compareTo || !existsSync(file)) {
    const paths: Record<string, CaseOutcome> = {}
    for (const name of run.names) {
      const outcome = run.results.get(name)?.outcome ?? run.read?.paths[name]
      if (outcome) paths[name] = outcome
    }
    writeSnapshot(file, { version: snapshotVersion, paths, unreachable: Object.fromEntries(run.unreachable) })
    return { differences, written: true }
  }
  for (const name of run.names) {
    const difference = run.results.get(name)?.difference
    if (difference) differences.push(difference)
  }
  const current = new Set(run.names)
  for (const name of Object.keys(run.compareTo.paths)) {
    if (!current.has(name)) differences.push(`${name} → gone: the configuration no longer has this path${run.unreachable.has(name) ? ` (${run.unreachable.get(name)})` : ""}; run with --update to drop it`)
  }
  if (differences.length) throw Object.assign(new Error(`authflow/testing: ${differences.length} path(s) differ from ${file}\n\n${differences.join("\n\n")}`), { differences })
  return { differences, written: false }
}
