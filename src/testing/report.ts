/**
 * The coverage table the CLI prints, and what a test can print after the suite ran.
 *
 * @module
 */
import type { MachineCoverage } from "./coverage.js"
import type { UnreachablePath } from "./suite.js"

/**
 * One line per machine: `<machine>  <covered>/<reachable> reachable transitions (<transitions> declared, <guarded> guarded), <states> states`,
 * then the reachable transitions no path took and the ones your own code decides and never took,
 * each by its human name (see {@link MachineCoverage.names}), and the unreachable paths grouped by why.
 *
 * @example
 * ```ts
 * console.log(formatCoverage(suite.coverage(), suite.unreachable))
 * // sign-out             5/5 reachable transitions (10 declared, 2 guarded), 7 states
 * ```
 */
export function formatCoverage(coverage: readonly MachineCoverage[], unreachable: readonly UnreachablePath[] = []): string {
  const width = Math.max(0, ...coverage.map((entry) => entry.machine.length)) + 2
  const lines: string[] = []
  for (const entry of coverage) {
    lines.push(`${entry.machine.padEnd(width)}${entry.covered}/${entry.reachable} reachable transitions (${entry.transitions} declared, ${entry.guarded} guarded), ${entry.states} states`)
    const name = (key: string) => entry.names[key] ?? key
    for (const key of entry.missing) lines.push(`${"".padEnd(width)}  not covered: ${name(key)}`)
    for (const { transition, decidedBy } of entry.notTaken) lines.push(`${"".padEnd(width)}  never taken by ${decidedBy}: ${name(transition)}`)
  }
  const byWhy = new Map<string, string[]>()
  for (const { name, why } of unreachable) byWhy.set(why, [...(byWhy.get(why) ?? []), name])
  if (byWhy.size) lines.push("", "Unreachable with this configuration:")
  for (const [why, names] of byWhy) lines.push(`  ${why} (${names.length} path${names.length === 1 ? "" : "s"})`)
  return lines.join("\n")
}
