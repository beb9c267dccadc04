/**
 * Reading a credentials form, shared by the credentials and password sign-in machines: a declared
 * field that is not a string ends in `credentialsMalformed` before anything runs; the attempt then
 * counts against the identifier the form names, or the shared budget when it names none.
 *
 * @module
 */
import { assign, type EventObject } from "xstate"
import { sharedIdentity, type SharedIdentity } from "../core/rate-limit/limiter.js"

/**
 * What a credentials request carries (the `readCredentials` effect): the identity the per-user
 * budget keys on, normalised (absent when the declared identity field is missing, empty or not a
 * string), and the declared fields whose value is not a string.
 */
export type CredentialsReadEvent = { type: "credentials.read"; identifier?: string; nonString: string[] }

/** What reading the credentials records. */
export interface CredentialsReadContext {
  /** Who the attempt counts against: the normalised identifier, or the shared budget when none could be read. */
  rateLimitIdentity?: string | SharedIdentity
  /** The declared fields that were not strings, when the request was refused for them. */
  nonStringFields?: string[]
}

const read = (event: EventObject) => (event.type === "credentials.read" ? (event as CredentialsReadEvent) : undefined)

/**
 * The guards of {@link readingCredentialsState}, for a machine's `setup({ guards })`.
 *
 * @example
 * ```ts
 * setup({ guards: { ...credentialsReadGuards<Context, Event>() } })
 * ```
 */
export function credentialsReadGuards<TContext, TEvent extends EventObject>() {
  type Args = { context: TContext; event: TEvent }
  return {
    /** A declared credentials field came as something other than a string (an array, null, an object): refused before anything runs. */
    declaredFieldNotString: ({ event }: Args) => (read(event)?.nonString.length ?? 0) > 0,
    /** The identity could not be read (the declared identity field is missing or empty): the attempt counts against the shared budget. */
    identityUnread: ({ event }: Args) => read(event) !== undefined && read(event)!.identifier === undefined,
  }
}

/**
 * The actions of {@link readingCredentialsState}, for a machine's `setup({ actions })`.
 *
 * @example
 * ```ts
 * setup({ actions: { ...credentialsReadActions<Context, Event>() } })
 * ```
 */
export function credentialsReadActions<TContext extends CredentialsReadContext, TEvent extends EventObject>() {
  return {
    recordNonStringFields: assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => ({ nonStringFields: read(event)?.nonString }) as Partial<TContext>),
    countAgainstSharedBudget: assign<TContext, TEvent, undefined, TEvent, never>(() => ({ rateLimitIdentity: sharedIdentity }) as Partial<TContext>),
    countAgainstIdentifier: assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => ({ rateLimitIdentity: read(event)?.identifier }) as Partial<TContext>),
  }
}

/**
 * `readingCredentials`: reads the form (`readCredentials`) and goes on to `next` (the rate limiter),
 * or ends in `credentialsMalformed`.
 *
 * @param next - The state a well-formed request goes to.
 * @example
 * ```ts
 * createMachine({ states: { readingCredentials: readingCredentialsState("checkingRateLimit"), credentialsMalformed: { type: "final" } } })
 * ```
 */
export function readingCredentialsState<const TNext extends string>(next: TNext) {
  return {
    meta: { effect: "readCredentials" },
    on: {
      "credentials.read": [
        { guard: "declaredFieldNotString", target: "credentialsMalformed", actions: "recordNonStringFields" },
        { guard: "identityUnread", target: next, actions: "countAgainstSharedBudget" },
        { target: next, actions: "countAgainstIdentifier" },
      ],
    },
  } as const
}
