import { createActor, type AnyActorRef, type AnyMachineSnapshot, type AnyStateMachine, type ContextFrom, type EventFromLogic, type InspectionEvent, type Observer, type SnapshotFrom } from "xstate"

/**
 * The implementations of a machine's effects: each takes the flow's context and resolves with the
 * event that reports its outcome. An effect should not throw: it turns failures into events.
 */
export type FlowEffects<TMachine extends AnyStateMachine> = Record<
  string,
  (context: ContextFrom<TMachine>) => Promise<EventFromLogic<TMachine>> | EventFromLogic<TMachine>
>

/** Options of {@link runFlow}. */
export interface FlowRunOptions<TMachine extends AnyStateMachine> {
  /** A persisted snapshot to resume from (already validated against the machine). */
  snapshot?: SnapshotFrom<TMachine>
  input?: unknown
  /** An xstate inspection observer that sees every event and snapshot of the flow. */
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void)
}

/**
 * The effect named by the active state (`meta.effect`), or undefined when the flow is waiting for
 * another request or has ended.
 *
 * @example
 * ```ts
 * effectOf(createActor(signOutMachine).start().getSnapshot()) // "checkCsrf"
 * ```
 */
export function effectOf(snapshot: { getMeta(): Record<string, unknown> }): string | undefined {
  const meta = snapshot.getMeta()
  for (const id in meta) {
    const effect = (meta[id] as { effect?: unknown } | undefined)?.effect
    if (typeof effect === "string") return effect
  }
  return undefined
}

/**
 * Runs a flow machine until it ends or waits: performs the effect each state names and sends the
 * outcome back, until a final state (the flow ended) or a state without an effect (the flow waits
 * for another request; persist its snapshot). Nothing is ever in flight inside the machine, so a
 * persisted snapshot can be restored without repeating any effect.
 *
 * @example
 * ```ts
 * const snapshot = await runFlow(signOutMachine, { checkCsrf, findSession, endSession }, { inspect })
 * snapshot.value // "signedOut"
 * ```
 */
export async function runFlow<TMachine extends AnyStateMachine>(
  machine: TMachine,
  effects: FlowEffects<TMachine>,
  options: FlowRunOptions<TMachine> = {},
): Promise<SnapshotFrom<TMachine>> {
  let failure: { error: unknown } | undefined
  const actor: AnyActorRef = createActor(machine as AnyStateMachine, {
    ...(options.snapshot !== undefined && { snapshot: options.snapshot }),
    ...(options.input !== undefined && { input: options.input }),
    ...(options.inspect !== undefined && { inspect: options.inspect }),
  })
  actor.subscribe({ error: (error) => void (failure = { error }) })
  actor.start()
  try {
    for (;;) {
      const snapshot = actor.getSnapshot() as AnyMachineSnapshot
      if (failure) throw failure.error
      if (snapshot.status !== "active") return snapshot as SnapshotFrom<TMachine>
      const effect = effectOf(snapshot)
      if (effect === undefined) return snapshot as SnapshotFrom<TMachine>
      const perform = effects[effect]
      if (!perform) throw new Error(`${machine.id}: no implementation for effect "${effect}"`)
      const event = await perform(snapshot.context as ContextFrom<TMachine>)
      if (!snapshot.can(event)) {
        throw new Error(`${machine.id}: effect "${effect}" answered "${event.type}", which state ${JSON.stringify(snapshot.value)} does not accept`)
      }
      actor.send(event)
    }
  } finally {
    actor.stop()
  }
}
