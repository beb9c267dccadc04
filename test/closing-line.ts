/**
 * A vitest reporter that ends the run with one plain line, `N passed, N failed, N skipped`,
 * which any CI reader understands (vitest's own summary is coloured and spread over lines).
 */
import type { Reporter, TestModule } from "vitest/node"

export default class ClosingLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0, pending: 0 }
    for (const module of testModules) {
      for (const test of module.children.allTests()) counts[test.result().state]++
      if (module.state() === "failed" && [...module.children.allTests()].length === 0) counts.failed++
    }
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped + counts.pending} skipped\n`)
  }
}
