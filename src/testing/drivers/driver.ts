/**
 * How the kit drives one machine for one provider: the events the model generates paths with,
 * which of them the kit makes happen and which the user's own code decides, which paths the
 * configuration cannot reach, and how a path's world is set up and its requests sent.
 *
 * @module
 */
import type { AnyStateMachine } from "xstate"
import type { MachineEvent } from "../transitions.js"
import type { World } from "../world.js"

/** What an event of a generated path means for the kit. */
export interface EventRole {
  /**
   * The world condition the event needs, named for the path: a provider fault, a database row, a
   * browser state, a request (`"code.refused"`, `"account.new.emailTaken"`). Events that need no
   * condition (the ordinary outcome of an effect) have none.
   */
  condition?: string
  /**
   * The part of the user's configuration that decides whether the event happens
   * (`"callbacks.signIn"`): the kit does not force it, it observes it. Its transitions count as
   * reachable once some path took them.
   */
  decidedBy?: string
  /** Told in the name of an unreachable path, to set it apart (`no adapter`). */
  note?: string
}

/** One path's world conditions, as the driver sets them up. */
export interface Scenario {
  /** The path's name: `<machine> <provider>: <conditions>`. */
  name: string
  /** The events of the path that carry a condition, in path order. */
  conditions: MachineEvent[]
}

/** A machine driven for one provider (or for the whole configuration). */
export interface MachineDriver {
  machine: AnyStateMachine
  /** `oauth github`, `credentials-sign-in credentials`, `sign-out`. */
  target: string
  /** The provider's id, for drivers of one provider. */
  provider?: string
  /** The payload-carrying events the model generates paths with. */
  events: MachineEvent[]
  role(event: MachineEvent): EventRole
  /** Why this configuration (or its fixtures) cannot produce a path, or undefined when it can. */
  unreachable(path: readonly MachineEvent[]): string | undefined
  /** True for a generated path no world can produce (the model does not know what the effects know). */
  impossible?(path: readonly MachineEvent[]): boolean
  /** Sets the path's world up and sends its requests through `world.send`. */
  drive(scenario: Scenario, world: World): Promise<void>
}

/** The first event of `type` among `events`. */
export function find<T extends MachineEvent>(events: readonly MachineEvent[], type: string): T | undefined {
  return events.find((event) => event.type === type) as T | undefined
}

/** True when an event of `type` is among `events`. */
export function has(events: readonly MachineEvent[], type: string): boolean {
  return events.some((event) => event.type === type)
}

/** The sign-in tail's events every sign-in machine shares, and who decides them. */
export function signInTailRole(event: MachineEvent, strategy: "jwt" | "database", config: { callbacks?: object }): EventRole | undefined {
  switch (event.type) {
    case "signIn.allowed":
    case "signIn.denied":
    case "signIn.redirect":
      return { decidedBy: "callbacks.signIn" }
    case "session.failed":
      return strategy === "database" ? { condition: "session.failed" } : { decidedBy: typeof (config.callbacks as { jwt?: unknown } | undefined)?.jwt === "function" ? "callbacks.jwt" : "jwt.encode" }
    case "persist.failed":
      return { condition: "persist.failed" }
    case "session.issued":
    case "user.persisted":
      return {}
    default:
      return undefined
  }
}

/** Why the configuration's own code never takes a sign-in tail event, or undefined when it may. */
export function signInTailUnreachable(path: readonly MachineEvent[], strategy: "jwt" | "database", config: { callbacks?: object; jwt?: { encode?: unknown } }): string | undefined {
  const callbacks = (config.callbacks ?? {}) as Record<string, unknown>
  if ((has(path, "signIn.denied") || has(path, "signIn.redirect")) && typeof callbacks.signIn !== "function") return "no callbacks.signIn: every sign-in is allowed"
  if (has(path, "session.failed") && strategy === "jwt" && typeof callbacks.jwt !== "function" && config.jwt?.encode === undefined) {
    return "JWT sessions with the default jwt callback and encode: issuing the session does not fail"
  }
  return undefined
}
