/**
 * One path run: a fresh world, the driver's requests through `Auth()`, and what came of them.
 *
 * @module
 */
import { TransitionRecorder } from "./recorder.js"
import { World } from "./world.js"
import type { AnyStateMachine } from "xstate"
import type { MachineDriver, Scenario } from "./drivers/driver.js"
import type { AuthflowFixtures } from "./fixtures.js"
import type { CaseOutcome } from "./outcome.js"
import type { TransitionKey } from "./transitions.js"
import type { AuthConfig } from "../types.js"

/** What one path did, and the transitions of every machine its requests took. */
export interface CaseRun {
  outcome: CaseOutcome
  taken: ReadonlyMap<string, ReadonlySet<TransitionKey>>
}

/**
 * Drives `scenario` through `Auth()` in a world of its own, recording the flows of `machines`.
 *
 * @example
 * ```ts
 * const { outcome } = await runScenario(config, fixtures, [signOutMachine], signOutDriver(config), { name: "sign-out: ordinary", conditions: [] })
 * outcome.final // "signedOut"
 * ```
 */
export async function runScenario(config: AuthConfig, fixtures: AuthflowFixtures, machines: readonly AnyStateMachine[], driver: MachineDriver, scenario: Scenario): Promise<CaseRun> {
  const recorder = new TransitionRecorder(machines)
  const world = await World.create(config, fixtures, recorder)
  await driver.drive(scenario, world)
  const session = await world.session()
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
  return { outcome, taken: recorder.taken }
}
