/**
 * What a path does to the world around `Auth()`: the adapter writes it makes (and the database
 * failures a path injects), the events it fires, the errors it logs.
 *
 * @module
 */
import type { Adapter } from "../adapters.js"
import type { AuthConfig, EventCallbacks, LoggerInstance } from "../types.js"
import { REPLAY_TOKEN_IDENTIFIER } from "../core/replay-store.js"

/** Adapter methods that write. Reads are not recorded. */
export const adapterWrites = [
  "createUser",
  "updateUser",
  "deleteUser",
  "linkAccount",
  "unlinkAccount",
  "createSession",
  "updateSession",
  "deleteSession",
  "createVerificationToken",
  "useVerificationToken",
  "createAuthenticator",
  "updateAuthenticatorCounter",
] as const satisfies readonly (keyof Adapter)[]

const eventNames = ["signIn", "signOut", "createUser", "updateUser", "linkAccount", "session"] as const satisfies readonly (keyof EventCallbacks)[]

/** Every method name of `adapter`: its own, and those of the classes it is an instance of. */
function methodNames(adapter: object): string[] {
  const names = new Set<string>()
  for (let layer: object | null = adapter; layer && layer !== Object.prototype; layer = Object.getPrototypeOf(layer)) {
    for (const name of Object.getOwnPropertyNames(layer)) {
      if (name !== "constructor" && typeof (adapter as Record<string, unknown>)[name] === "function") names.add(name)
    }
  }
  return [...names]
}

/**
 * The record of one path: switched on only while the path's own requests run, so that setting
 * the world up (seeding users, signing the browser in) and reading the session afterwards leave
 * no trace.
 */
export class PathRecord {
  recording = false
  readonly writes = new Map<string, number>()
  readonly events: string[] = []
  readonly errors: string[] = []
  /** Adapter methods that throw when called, as a database that is down would. */
  readonly failing = new Set<string>()
  /**
   * Adapter methods that throw when called for the path's own rows, while the replay store's
   * bookkeeping still goes through: a resumed flow is claimed, then using a link's token fails.
   */
  readonly failingOwnRows = new Set<string>()
  /**
   * Store verification tokens already expired, as if the link were followed after its lifetime:
   * the kit has no clock (the engine reads the system's), so time passes in the database.
   */
  expireTokens = false

  /**
   * The adapter as the path uses it: every call goes to `adapter`; writes made while recording
   * are counted (except the replay store's verification-token rows), and a method in
   * {@link failing} throws instead.
   */
  wrapAdapter(adapter: Adapter): Adapter {
    const wrapped: Record<string, (...args: unknown[]) => unknown> = {}
    for (const name of methodNames(adapter)) {
      const method = (adapter as Record<string, (...args: unknown[]) => unknown>)[name]!
      wrapped[name] = async (...args) => {
        // The replay store's rows (a resumed flow marked used) are bookkeeping, not the path's writes.
        const bookkeeping = (args[0] as { identifier?: unknown } | undefined)?.identifier === REPLAY_TOKEN_IDENTIFIER
        if (this.failing.has(name) || (!bookkeeping && this.failingOwnRows.has(name))) throw new Error(`The database is unreachable (authflow/testing made ${name} fail)`)
        if (this.recording && !bookkeeping && (adapterWrites as readonly string[]).includes(name)) this.writes.set(name, (this.writes.get(name) ?? 0) + 1)
        if (name === "createVerificationToken" && this.expireTokens) args = [{ ...(args[0] as object), expires: new Date(Date.now() - 60_000) }]
        return method.apply(adapter, args)
      }
    }
    return wrapped as Adapter
  }

  /** The configuration's events, each still called, each recorded by name while recording. */
  wrapEvents(events: AuthConfig["events"]): Partial<EventCallbacks> {
    const wrapped: Record<string, (message: never) => unknown> = {}
    for (const name of eventNames) {
      const own = events?.[name] as ((message: unknown) => unknown) | undefined
      wrapped[name] = (message: never) => {
        if (this.recording) this.events.push(name)
        return own?.(message)
      }
    }
    return wrapped as Partial<EventCallbacks>
  }

  /** A logger that keeps the names of the errors logged while recording, and prints nothing. */
  logger(): LoggerInstance {
    return {
      error: (error: Error) => void (this.recording && this.errors.push(error.name)),
      warn: () => {},
      debug: () => {},
    }
  }
}
