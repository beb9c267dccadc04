/**
 * What the model tests share beyond authflow/testing's machinery, which they use as it ships
 * (src/testing: `modelPaths`, `TransitionRecorder`, `coverageReport`): the decisions of the
 * `signIn` callback a path makes, and what the callback answers to meet them.
 */
import { coverageReport as libraryCoverageReport } from "../../src/testing/coverage.js"
import { modelPaths as libraryModelPaths, type ModelEvents } from "../../src/testing/model-paths.js"
import { TransitionRecorder as LibraryRecorder } from "../../src/testing/recorder.js"
import type { AnyStateMachine } from "xstate"

/** The events of a `signIn` callback that does not allow: it refuses, refuses by throwing, or redirects. */
export const signInDecisions = [
  { type: "signIn.denied" },
  { type: "signIn.denied", error: "callback threw" },
  { type: "signIn.redirect", url: "/welcome" },
] as const

/**
 * What the `signIn` callback must answer for the engine to meet a path's sign-in decision:
 * `signIn.denied` refuses (throwing the event's `error` when it has one), `signIn.redirect` sends
 * the user to its `url`, and anything else allows.
 */
export function signInDecisionOf(path: readonly { type: string }[]): boolean | string {
  const denied = path.find((event) => event.type === "signIn.denied") as { error?: unknown } | undefined
  if (denied) {
    if (denied.error) throw new Error(String(denied.error))
    return false
  }
  const redirect = path.find((event) => event.type === "signIn.redirect") as { url?: string } | undefined
  return redirect?.url ?? true
}

// The harness's former API, a view of authflow/testing's for test/model/webauthn.test.ts (in
// progress) until it moves onto src/testing itself: one machine per recorder, and state values
// as their JSON (`"signedIn"`, quotes included).

/** A state name of authflow/testing as the former harness wrote it: the JSON of the state value. */
const asJson = (state: string) => (state.startsWith("{") ? state : JSON.stringify(state))

/** authflow/testing's recorder for one machine, with the visits of each run as `visited`. */
export class TransitionRecorder extends LibraryRecorder {
  constructor(machine: AnyStateMachine) {
    super([machine])
  }

  /** The states each run since {@link resetVisits} went through. */
  get visited(): string[][] {
    return this.runs.map((run) => run.states.map(asJson))
  }

  resetVisits(): void {
    this.reset()
  }
}

/** authflow/testing's `modelPaths`, with the states of each path as JSON. */
export function modelPaths<TMachine extends AnyStateMachine>(machine: TMachine, events: ModelEvents<TMachine>) {
  return libraryModelPaths(machine, events).map((path) => ({ ...path, states: path.states.map(asJson) }))
}

export const coverageReport = libraryCoverageReport
