import { createActor, type AnyActorRef, type AnyMachineSnapshot, type AnyStateMachine, type ContextFrom, type EventFromLogic, type InspectionEvent, type Observer, type SnapshotFrom, type StateMachine } from "xstate"
import type { Cookie } from "../types.js"

/**
 * The state metadata of a flow machine: the effect a state performs, named from the machine's own
 * union of effect names (`setup({ types: { meta: {} as FlowMeta<"checkCsrf" | "authorize"> } })`).
 */
export interface FlowMeta<TEffect extends string = string> {
  effect?: TEffect
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type StateMetaOf<TMachine> = TMachine extends StateMachine<any, any, any, any, any, any, any, any, any, any, any, any, infer TMeta, any, any> ? TMeta : never

/**
 * The effect names a machine's definition declares in its `meta` type.
 *
 * @example
 * ```ts
 * type Effects = EffectNameOf<typeof signOutMachine> // "checkCsrf" | "findSession" | "decodeToken" | "deleteSession"
 * ```
 */
export type EffectNameOf<TMachine> = StateMetaOf<TMachine> extends FlowMeta<infer TEffect> ? TEffect : never

/**
 * What an effect adds to the event it reports when it minted cookies (a session written, a session
 * cookie re-issued): the cookies, in the order they are to be set. They are the run's output, not
 * the machine's input: {@link runFlowWithCookies} takes them off the event before the machine
 * receives it and returns them beside the final snapshot, so a session token never enters the
 * machine's context, a sealed snapshot or what an inspector sees, and no effect writes into an
 * array another part of the request reads.
 *
 * @example
 * ```ts
 * const encodeToken = async (): Promise<SignInTailEvent & CookieReport> => ({ type: "token.encoded", cookies: await encodeSessionToken(options, outcome) })
 * ```
 */
export interface CookieReport {
  /** The cookies the effect minted, in the order they are set. */
  readonly cookies?: readonly Cookie[]
}

/** An event of `TEvent`, with the cookies the effect that reported it minted (see {@link CookieReport}). */
export type Reported<TEvent> = TEvent & CookieReport

/**
 * The implementations of a machine's effects, keyed by the effect names its definition declares:
 * a missing or misspelt effect is a compile error. Each takes the flow's context and resolves with
 * the event that reports what it found (and the cookies it minted, see {@link CookieReport}). An
 * effect does not throw and does not decide: it turns failures into events, and the machine's
 * transitions and guards choose where the flow goes.
 *
 * @example
 * ```ts
 * const effects: FlowEffects<typeof signOutMachine> = { checkCsrf, findSession, decodeToken, deleteSession }
 * ```
 */
export type FlowEffects<TMachine extends AnyStateMachine> = {
  [TEffect in EffectNameOf<TMachine>]: (context: ContextFrom<TMachine>) => Promise<Reported<EventFromLogic<TMachine>>> | Reported<EventFromLogic<TMachine>>
}

/** `TContext` with `TKeys` present: what an effect's state is entered with. */
export type ContextWith<TContext, TKeys extends keyof TContext> = TContext & { [TKey in TKeys]-?: NonNullable<TContext[TKey]> }

/**
 * `context` with `keys` present: what a state is entered with, once the machine assigned those
 * keys from the events that reported them. A key that is missing is a bug in the machine (a
 * transition into the state that does not assign it): it throws, naming the key, instead of
 * running on `undefined`. The model tests walk every transition into every state, so they find
 * such a bug.
 *
 * @example
 * ```ts
 * const { authorizationUrl } = assigned(context, ["authorizationUrl"]) // string, not string | undefined
 * ```
 */
export function assigned<TContext extends object, const TKeys extends keyof TContext & string>(context: TContext, keys: readonly TKeys[]): ContextWith<TContext, TKeys> {
  for (const key of keys) {
    if (context[key] === undefined || context[key] === null) throw new Error(`The flow needs context.${key} here, which no transition into this state assigned`)
  }
  return context as ContextWith<TContext, TKeys>
}

/**
 * Effects that read what earlier effects found: each names the context keys its state is entered
 * with and receives the context with them present (see {@link assigned}).
 *
 * @example
 * ```ts
 * const needs = effectsReading<OAuthContext>()
 * const effects = { exchangeCode: needs(["checks", "server"], async ({ checks, server }) => …) }
 * ```
 */
export function effectsReading<TContext extends object>() {
  return <const TKeys extends keyof TContext & string, TResult>(keys: readonly TKeys[], effect: (context: ContextWith<TContext, TKeys>) => TResult) =>
    (context: TContext): TResult =>
      effect(assigned(context, keys))
}

/** Options of {@link runFlow}. */
export interface FlowRunOptions<TMachine extends AnyStateMachine> {
  /** A persisted snapshot to resume from (already validated against the machine). */
  snapshot?: SnapshotFrom<TMachine>
  /** The event that resumes a restored snapshot (the request it was waiting for has arrived). */
  resume?: EventFromLogic<TMachine>
  /** The actor's id: a flow spanning several requests uses the same id in each, so observers can join them. */
  id?: string
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
 * A finished run of a flow (ended, or waiting for another request): where it stopped, and the
 * cookies its effects minted on the way, in the order they reported them.
 */
export interface FlowRun<TMachine extends AnyStateMachine> {
  readonly snapshot: SnapshotFrom<TMachine>
  readonly cookies: readonly Cookie[]
}

/**
 * Runs a flow machine whose effects mint no cookies, and returns where it stopped: see
 * {@link runFlowWithCookies}, which this runs. An effect that reports cookies here is a bug (they
 * would never reach the answer): the run throws, naming it.
 *
 * @example
 * ```ts
 * const snapshot = await runFlow(signOutMachine, { checkCsrf, findSession, decodeToken, deleteSession }, { inspect })
 * snapshot.value // "signedOut"
 * ```
 */
export async function runFlow<TMachine extends AnyStateMachine>(
  machine: TMachine,
  effects: FlowEffects<TMachine>,
  options: FlowRunOptions<TMachine> = {},
): Promise<SnapshotFrom<TMachine>> {
  return (await run(machine, effects, options, false)).snapshot
}

/**
 * Runs a flow machine (from its start, or from a restored snapshot and the event that resumes it)
 * until it ends or waits: performs the effect each state names and sends the
 * outcome back, until a final state (the flow ended) or a state without an effect (the flow waits
 * for another request; persist its snapshot). Nothing is ever in flight inside the machine, so a
 * persisted snapshot can be restored without repeating any effect. The cookies an effect reports
 * with its event ({@link CookieReport}) are taken off it before the machine receives it, and
 * returned beside the snapshot: the run's output, for the outcome table to set.
 *
 * @example
 * ```ts
 * const { snapshot, cookies } = await runFlowWithCookies(credentialsSignInMachine, effects, { inspect })
 * snapshot.value // "signedIn"; cookies: the session token's (and whatever else the sign-in wrote)
 * ```
 */
export function runFlowWithCookies<TMachine extends AnyStateMachine>(
  machine: TMachine,
  effects: FlowEffects<TMachine>,
  options: FlowRunOptions<TMachine> = {},
): Promise<FlowRun<TMachine>> {
  return run(machine, effects, options, true)
}

async function run<TMachine extends AnyStateMachine>(machine: TMachine, effects: FlowEffects<TMachine>, options: FlowRunOptions<TMachine>, mints: boolean): Promise<FlowRun<TMachine>> {
  let failure: { error: unknown } | undefined
  let minted: readonly Cookie[] = []
  const actor: AnyActorRef = createActor(machine as AnyStateMachine, {
    ...(options.snapshot !== undefined && { snapshot: options.snapshot }),
    ...(options.input !== undefined && { input: options.input }),
    ...(options.inspect !== undefined && { inspect: options.inspect }),
    ...(options.id !== undefined && { id: options.id }),
  })
  actor.subscribe({ error: (error) => void (failure = { error }) })
  actor.start()
  try {
    if (options.resume !== undefined) {
      const waiting = actor.getSnapshot() as AnyMachineSnapshot
      if (!waiting.can(options.resume)) throw new Error(`${machine.id}: state ${JSON.stringify(waiting.value)} does not wait for "${(options.resume as { type: string }).type}"`)
      actor.send(options.resume)
    }
    for (;;) {
      const snapshot = actor.getSnapshot() as AnyMachineSnapshot
      if (failure) throw failure.error
      if (snapshot.status !== "active") return { snapshot: snapshot as SnapshotFrom<TMachine>, cookies: minted }
      const effect = effectOf(snapshot)
      if (effect === undefined) return { snapshot: snapshot as SnapshotFrom<TMachine>, cookies: minted }
      const perform = (effects as Record<string, FlowEffects<AnyStateMachine>[string] | undefined>)[effect]
      if (!perform) throw new Error(`${machine.id}: no implementation for effect "${effect}"`)
      // The machine receives the event without the cookies: they are the run's output, never its context.
      const { cookies, ...event } = (await perform(snapshot.context as ContextFrom<TMachine>)) as Reported<EventFromLogic<TMachine>>
      if (cookies?.length) {
        if (!mints) throw new Error(`${machine.id}: effect "${effect}" reported cookies, which runFlow drops: run the flow with runFlowWithCookies`)
        minted = [...minted, ...cookies]
      }
      if (!snapshot.can(event)) {
        throw new Error(`${machine.id}: effect "${effect}" answered "${event.type}", which state ${JSON.stringify(snapshot.value)} does not accept`)
      }
      actor.send(event)
    }
  } finally {
    actor.stop()
  }
}
