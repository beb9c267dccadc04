/**
 * `authflowModelTests`: every path through every machine a configuration uses, as test cases that
 * drive the real `Auth()`, with their outcomes compared to (or written into) a snapshot file.
 *
 * @module
 */
import { driversFor } from "./drivers/index.js"
import { compareCase, finishSnapshot, type CaseResult, type FinishReport } from "./compare.js"
import { machineCoverage, type MachineCoverage, type PossiblePath } from "./coverage.js"
import { planDriver } from "./plan.js"
import { runScenario } from "./run-case.js"
import { readSnapshot } from "./snapshot.js"
import { World } from "./world.js"
import type { AnyStateMachine } from "xstate"
import type { MachineDriver, Scenario } from "./drivers/driver.js"
import type { AuthflowFixtures } from "./fixtures.js"
import type { TransitionKey } from "./transitions.js"
import type { AuthConfig } from "../types.js"

/** Options of {@link authflowModelTests}. */
export interface ModelTestOptions {
  /** The snapshot file outcomes are compared to. Without one, outcomes are only recorded. */
  snapshotFile?: string
  /** Rewrite the snapshot with this run's outcomes instead of comparing. */
  update?: boolean
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

/**
 * The machines the kit drives, by id, in the order the coverage table lists them: a Password
 * provider's after credentials, as an account lives them (sign up, verify, sign in, forget and
 * reset, change the password, change the address and confirm it).
 */
export const drivenMachines: readonly string[] = [
  "credentials-sign-in",
  "password-sign-up",
  "password-verify-email",
  "password-verify-code",
  "password-sign-in",
  "password-reset-request",
  "password-reset",
  "password-reset-code",
  "password-change",
  "password-change-email",
  "password-confirm-email",
  "oauth",
  "email-sign-in",
  "email-verification",
  "email-code",
  "webauthn",
  "second-factor",
  "sign-out",
]

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
 * A configuration `Auth()` refuses (email sign-in without an adapter, say) is refused here too,
 * before any path runs: the promise rejects with the error `Auth()` logs for it (an `AuthError`
 * whose `type` is `MissingAdapter`, with the same one-line message). The kit's own secret and
 * stand-ins count as configured.
 *
 * @throws {AuthError} the configuration error `Auth()` would report.
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
  const configError = await World.configError(config, fixtures)
  if (configError) throw configError
  const { drivers, unused } = driversFor(config, fixtures)
  const snapshot = options.snapshotFile ? readSnapshot(options.snapshotFile) : undefined
  const compareTo = options.update ? undefined : snapshot
  const unreachable = new Map<string, string>(unused.map((entry) => [entry.name, entry.why]))
  const possible = new Map<string, PossiblePath[]>()
  const taken = new Map<string, Set<TransitionKey>>()
  const machines = new Map<string, AnyStateMachine>()
  const results = new Map<string, CaseResult>()
  const cases: ModelTestCase[] = []

  for (const driver of drivers) {
    machines.set(driver.machine.id, driver.machine)
    const plan = planDriver(driver)
    possible.set(driver.machine.id, [...(possible.get(driver.machine.id) ?? []), ...plan.possible])
    for (const [name, why] of plan.unreachable) unreachable.set(name, why)
    for (const scenario of plan.scenarios) cases.push({ name: scenario.name, machine: driver.machine.id, run: () => runCase(driver, scenario) })
  }

  async function runCase(driver: MachineDriver, scenario: Scenario): Promise<CaseResult> {
    const run = await runScenario(config, fixtures, [...machines.values()], driver, scenario)
    for (const [machine, keys] of run.taken) {
      const all = taken.get(machine) ?? new Set()
      for (const key of keys) all.add(key)
      taken.set(machine, all)
    }
    const result = compareCase(driver, scenario.name, run.outcome, compareTo)
    results.set(scenario.name, result)
    return result
  }

  const coverage = (): MachineCoverage[] =>
    [...machines.values()]
      .sort((a, b) => drivenMachines.indexOf(a.id) - drivenMachines.indexOf(b.id))
      .map((machine) => machineCoverage(machine, taken.get(machine.id) ?? new Set(), possible.get(machine.id) ?? []))

  const finish = async (): Promise<FinishReport> =>
    finishSnapshot(options.snapshotFile, { names: cases.map((testCase) => testCase.name), results, unreachable, compareTo, read: snapshot })

  const warnings: string[] = []
  if (config.adapter && !fixtures.freshAdapter) {
    warnings.push("no fixtures.freshAdapter: every path uses the configuration's own adapter, so the rows one path writes are there for the next (outcomes may depend on the order the paths run in)")
  }
  return { cases, unreachable: [...unreachable].map(([name, why]) => ({ name, why })), warnings, coverage, finish }
}
