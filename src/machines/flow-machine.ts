/**
 * The states a flow machine can stop in, kept in its type.
 *
 * `runFlow` stops a flow in two kinds of states only: a final state (the flow ended) and a waiting
 * state (a state that names no effect: the flow waits for another request, its snapshot sealed in a
 * cookie). An action answers each of them through its outcome table; a state that names an effect
 * is never where a flow stops, so it has no outcome.
 *
 * Why a type derived from the machine's state nodes, rather than a typed `output`: an xstate v5
 * final state can declare `output`, but its type is `unknown` (only the machine's own `output` is
 * typed, and it sees the final state's output as `unknown`), so a final state added without one
 * still compiles; and a waiting state is not final, so it has no output at all. What a machine stops
 * in is already written in its state nodes (`type: "final"`, `meta.effect`), but xstate's machine type
 * keeps only the nodes' names. {@link flowMachine} keeps the rest: the state nodes' own types say
 * which states stop a flow, so a state added to a machine is a compile error in every outcome table
 * until it has an outcome, and an effect state needs none.
 *
 * @module
 */
import type { AnyStateMachine } from "xstate"

/**
 * Type-only key of the stop states a {@link flowMachine} carries: no machine holds it at run time.
 * Read it with {@link StopStateOf}.
 */
export declare const stopStates: unique symbol

/**
 * Whether a flow can stop in a state node: a final state, or a state that names no effect and passes
 * on by no eventless (`always`) transition (a waiting state); a compound state when one of its
 * states can.
 */
type StopsIn<TNode> = TNode extends { states: infer TStates } ? ([StopStatesIn<TStates>] extends [never] ? false : true) : TNode extends { meta: { effect: string } } | { always: unknown } ? false : true

/** The names of the states a flow can stop in, among `TStates`. */
type StopStatesIn<TStates> = { [TState in keyof TStates & string]: StopsIn<TStates[TState]> extends true ? TState : never }[keyof TStates & string]

/** The top-level states of a machine config a flow can stop in: its final states and its waiting states. */
type StopStatesOfConfig<TConfig> = TConfig extends { states: infer TStates } ? StopStatesIn<TStates> : never

/**
 * A flow machine: the machine xstate built, with the names of the states it stops in in its type.
 *
 * @example
 * ```ts
 * type Machine = FlowMachine<typeof machine, "signedOut" | "csrfRejected">
 * ```
 */
export type FlowMachine<TMachine extends AnyStateMachine, TStop extends string> = TMachine & { readonly [stopStates]?: TStop }

/**
 * The states a flow machine built with {@link flowMachine} stops in: each final state and each
 * state that names no effect and has no eventless transition (where the flow waits for another
 * request).
 *
 * @example
 * ```ts
 * type SignOutStop = StopStateOf<typeof signOutMachine> // "signedOut" | "signedOutAtProvider" | … | "csrfRejected"
 * ```
 */
export type StopStateOf<TMachine> = TMachine extends { readonly [stopStates]?: infer TStop extends string } ? TStop : never

/**
 * Builds a flow machine with xstate's own `createMachine` (from `setup`), unchanged at run time,
 * and keeps in its type which states it stops in ({@link StopStateOf}), read from the config's
 * state nodes.
 *
 * @example
 * ```ts
 * export const signOutMachine = flowMachine(setup({ types, actions, guards }).createMachine)({
 *   id: "sign-out",
 *   initial: "validatingInput",
 *   states: { validatingInput: { meta: { effect: "checkCsrf" }, on: { … } }, signedOut: { type: "final" }, … },
 * })
 * ```
 */
export function flowMachine<TConfig, TMachine extends AnyStateMachine>(createMachine: (config: TConfig) => TMachine): (config: TConfig) => FlowMachine<TMachine, StopStatesOfConfig<TConfig>> {
  return (config) => createMachine(config)
}
