// @ts-check
/**
 * Mutation testing with Stryker (`npm run mutation`). Two scopes, each with its own incremental file:
 *
 * - `security` (the default): the security code: CSRF, JWT, redirect and origin, cookies (src/core),
 *   the flow cookie and account linking (src/actions). It must keep a mutation score of at least 85%
 *   (issue 14), so the run fails below that (`thresholds.break`).
 * - `machines` (`npm run mutation:machines`): the xstate machines of src/machines, reported only.
 *
 * The mutants run against the in-process suites of vitest.mutation.config.ts, one at a time
 * (`concurrency: 1`: the machine is shared), each against only the tests that cover it
 * (`coverageAnalysis: "perTest"`). Reruns are incremental: only mutants whose code or covering tests
 * changed run again (reports/mutation/<scope>.incremental.json; pass `--force` to rerun all).
 * Static mutants (module-level constants such as regular expressions) would each need the whole suite
 * instead of their covering tests, so they are left out (`ignoreStatic`).
 */
const scope = process.env.AUTHFLOW_MUTATION_SCOPE ?? "security"

const scopes = {
  security: [
    "src/core/csrf.ts",
    "src/actions/flow-cookie.ts",
    "src/core/jwt/**/*.ts",
    "!src/core/jwt/index.ts",
    "src/core/callbacks.ts",
    "src/core/origin.ts",
    "src/core/cookies/**/*.ts",
    "src/actions/account-linking.ts",
  ],
  machines: ["src/machines/**/*.ts", "!src/machines/index.ts"],
}

const mutate = scopes[/** @type {keyof typeof scopes} */ (scope)]
if (!mutate) throw new Error(`AUTHFLOW_MUTATION_SCOPE must be one of ${Object.keys(scopes).join(", ")}, not "${scope}": fix the variable or unset it`)

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
const config = {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts" },
  plugins: ["@stryker-mutator/vitest-runner"],
  mutate,
  coverageAnalysis: "perTest",
  ignoreStatic: true,
  concurrency: 1,
  incremental: true,
  incrementalFile: `reports/mutation/${scope}.incremental.json`,
  reporters: ["clear-text", "progress-append-only", "html", "json"],
  htmlReporter: { fileName: `reports/mutation/${scope}.html` },
  jsonReporter: { fileName: `reports/mutation/${scope}.json` },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: true, reportScoreTable: true },
  thresholds: scope === "security" ? { high: 90, low: 85, break: 85 } : { high: 80, low: 60, break: null },
  timeoutMS: 10_000,
  ignorePatterns: ["examples", "demo", "docs", "bench", "dist", "reports", "test-output", ".next", ".data", "scratch"],
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
}

export default config
