/**
 * The transitions real runs took and the states each flow actor went through, read from xstate
 * inspection events.
 *
 * @module
 */
import { stateName, transitionKey, type TransitionKey } from "./transitions.js"
import type { AnyMachineSnapshot, AnyStateMachine, InspectionEvent } from "xstate"

/** What a recorder saw of one flow actor: the states it went through (see {@link stateName}). */
export interface RecordedRun {
  machine: string
  states: string[]
}

/**
 * Records, from inspection events, the transitions the given machines really took and the states
 * each flow actor went through. Pass {@link inspect} as `config.inspect`.
 *
 * @example
 * ```ts
 * const recorder = new TransitionRecorder([signOutMachine])
 * await Auth(request, { ...config, inspect: recorder.inspect })
 * recorder.taken.get("sign-out") // Set { "sign-out.validatingInput:csrf.valid:0", … }
 * ```
 */
export class TransitionRecorder {
  /** Taken transitions, per machine id. */
  readonly taken = new Map<string, Set<TransitionKey>>()
  /** The runs seen since the last {@link reset}, in the order they started. */
  readonly runs: RecordedRun[] = []
  readonly #machines: Map<string, AnyStateMachine>
  readonly #runs = new Map<string, RecordedRun>()

  constructor(machines: readonly AnyStateMachine[]) {
    this.#machines = new Map(machines.map((machine) => [machine.id, machine]))
  }

  readonly inspect = (event: InspectionEvent): void => {
    // Each microstep names the transitions it took, eventless ones included (those a flow takes at
    // its start too, and which of two eventless transitions to the same state it took).
    if (event.type === "@xstate.microstep") {
      const machine = (event.snapshot as Partial<AnyMachineSnapshot>).machine
      if (!machine || !this.#machines.has(machine.id) || event._transitions.length === 0) return
      let taken = this.taken.get(machine.id)
      if (!taken) this.taken.set(machine.id, (taken = new Set()))
      for (const transition of event._transitions) taken.add(transitionKey(transition))
      return
    }
    if (event.type !== "@xstate.snapshot") return
    const snapshot = event.snapshot as AnyMachineSnapshot
    const machine = snapshot.machine && this.#machines.get(snapshot.machine.id)
    if (!machine) return
    const actorId = event.actorRef.sessionId
    let run = this.#runs.get(actorId)
    if (!run) {
      run = { machine: machine.id, states: [] }
      this.#runs.set(actorId, run)
      this.runs.push(run)
    }
    const value = stateName(snapshot.value)
    if (run.states[run.states.length - 1] !== value) run.states.push(value)
  }

  /** Forgets the runs seen so far (the taken transitions are kept). */
  reset(): void {
    this.runs.length = 0
    this.#runs.clear()
  }
}
