/**
 * The adapter wrapper: every call debug-logged, bounded by the timeout, its answer checked, its
 * failure logged once. Loaded when a configuration with an adapter is first resolved.
 *
 * @module
 */
import { adapterFailureLogged, DEFAULT_ADAPTER_TIMEOUT, recordLogged, withinTimeout } from "./adapter-calls.js"
import { AdapterError } from "./errors.js"
import type { Adapter } from "../adapters.js"
import type { LoggerInstance } from "../base-types.js"
import { asError } from "./as-error.js"

/** Every method name of `adapter`: its own, and those of the classes it is an instance of. */
function methodNames(adapter: object): Set<string> {
  const names = new Set<string>()
  for (let layer: object | null = adapter; layer && layer !== Object.prototype; layer = Object.getPrototypeOf(layer)) {
    for (const name of Object.getOwnPropertyNames(layer)) {
      if (name !== "constructor" && typeof (adapter as Record<string, unknown>)[name] === "function") names.add(name)
    }
  }
  return names
}

type Problem = string | undefined

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)
const isText = (value: unknown) => typeof value === "string" && value !== ""
const isDate = (value: unknown) => (value instanceof Date || typeof value === "string" || typeof value === "number") && !Number.isNaN(new Date(value).getTime())

function user(value: unknown, what = "a user"): Problem {
  if (!isObject(value)) return `${what} that is not an object`
  if (!isText(value.id)) return `${what} without an id (a non-empty string)`
  return undefined
}

function session(value: unknown, what = "a session"): Problem {
  if (!isObject(value)) return `${what} that is not an object`
  if (!isText(value.sessionToken)) return `${what} without a sessionToken (a non-empty string)`
  if (!isText(value.userId)) return `${what} without a userId (a non-empty string)`
  if (!isDate(value.expires)) return `${what} whose expires is not a date`
  return undefined
}

function authenticator(value: unknown, what = "an authenticator"): Problem {
  if (!isObject(value)) return `${what} that is not an object`
  for (const field of ["credentialID", "providerAccountId", "credentialPublicKey"]) if (!isText(value[field])) return `${what} without a ${field} (a non-empty string)`
  if (typeof value.counter !== "number" || !Number.isInteger(value.counter) || value.counter < 0) return `${what} whose counter is not a whole number`
  return undefined
}

const orNull = (check: (value: unknown) => Problem) => (value: unknown) => (value === null || value === undefined ? undefined : check(value))

/**
 * What each method must answer for the code that reads its answer. Methods whose answer is never
 * read (the deletes, `linkAccount`, `createVerificationToken`…) are not checked.
 */
const answerChecks: Partial<Record<keyof Adapter, (value: unknown) => Problem>> = {
  createUser: user,
  updateUser: user,
  getUser: orNull(user),
  getUserByEmail: orNull(user),
  getUserByAccount: orNull(user),
  createSession: session,
  updateSession: orNull((value) => (isObject(value) ? undefined : "a session that is not an object")),
  getSessionAndUser: orNull((value) => {
    if (!isObject(value)) return "something other than { session, user }"
    return session(value.session, "{ session, user } whose session is") ?? user(value.user, "{ session, user } whose user is")
  }),
  useVerificationToken: orNull((value) => {
    if (!isObject(value)) return "a verification token that is not an object"
    if (typeof value.identifier !== "string") return "a verification token without an identifier (a string)"
    if (!isDate(value.expires)) return "a verification token whose expires is not a date"
    return undefined
  }),
  getAccount: orNull((value) => {
    if (!isObject(value)) return "an account that is not an object"
    for (const field of ["userId", "provider", "providerAccountId"]) if (!isText(value[field])) return `an account without a ${field} (a non-empty string)`
    return undefined
  }),
  getAuthenticator: orNull(authenticator),
  listAuthenticatorsByUserId: (value) => {
    if (!Array.isArray(value)) return "something other than an array of authenticators"
    for (const item of value) {
      const problem = authenticator(item, "an array holding an authenticator")
      if (problem) return problem
    }
    return undefined
  },
}

/**
 * The adapter as the actions call it: each call is debug-logged as `adapter_<method>` with its
 * arguments; a method that fails, does not answer within `timeout` milliseconds (`AdapterTimeout`),
 * or answers something the code reading it cannot use (a user without an id, a session without a
 * token, an expiry that is not a date…) is logged once and rethrown as `AdapterError` (its cause
 * is the original error, or the method and what was wrong). Methods inherited from a class
 * prototype are kept and called on the adapter itself (Auth.js wraps own properties only, so it
 * drops them).
 *
 * @example
 * ```ts
 * const adapter = withAdapterLogging(config.adapter, logger, config.adapterTimeout)
 * await adapter.getUser!("1") // logger.debug("adapter_getUser", { args: ["1"] })
 * ```
 */
export function withAdapterLogging(adapter: Adapter, logger: LoggerInstance, timeout: number = DEFAULT_ADAPTER_TIMEOUT): Adapter {
  const cached = wrappedAdapters.get(adapter)
  if (cached?.logger === logger && cached.timeout === timeout) return cached.wrapped
  const wrapped: Record<string, (...args: unknown[]) => Promise<unknown>> = {}
  for (const name of methodNames(adapter)) {
    const method = (adapter as Record<string, (...args: unknown[]) => unknown>)[name]!
    const check = answerChecks[name as keyof Adapter]
    wrapped[name] = async (...args) => {
      logger.debug(`adapter_${name}`, { args })
      try {
        const answer = await withinTimeout(Promise.resolve().then(() => method.apply(adapter, args)), timeout, name)
        const problem = check?.(answer)
        if (problem) throw new AdapterError(`adapter.${name} answered ${problem}: fix the adapter`, { cause: { method: name } })
        return answer
      } catch (error) {
        const adapterError = error instanceof AdapterError ? error : new AdapterError(asError(error), { cause: { method: name } })
        if (!adapterFailureLogged(adapterError)) {
          logger.error(adapterError)
          recordLogged(adapterError)
        }
        throw adapterError
      }
    }
  }
  wrappedAdapters.set(adapter, { logger, timeout, wrapped: wrapped as Adapter })
  return wrapped as Adapter
}

/** Wrapped adapters, kept per adapter for the logger they report to and the timeout (one per configuration). */
const wrappedAdapters = new WeakMap<Adapter, { logger: LoggerInstance; timeout: number; wrapped: Adapter }>()
