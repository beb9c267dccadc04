import { AdapterError } from "./errors.js"
import type { Adapter } from "../adapters.js"
import type { LoggerInstance } from "../types.js"

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

/**
 * The adapter as the actions call it: each call is debug-logged as `adapter_<method>` with its
 * arguments, and a method that fails is logged and rethrown as `AdapterError` (its cause is the
 * original error). Methods inherited from a class prototype are kept and called on the adapter
 * itself (Auth.js wraps own properties only, so it drops them).
 *
 * @example
 * ```ts
 * const adapter = withAdapterLogging(config.adapter, logger)
 * await adapter.getUser!("1") // logger.debug("adapter_getUser", { args: ["1"] })
 * ```
 */
export function withAdapterLogging(adapter: Adapter, logger: LoggerInstance): Adapter {
  const cached = wrappedAdapters.get(adapter)
  if (cached?.logger === logger) return cached.wrapped
  const wrapped: Record<string, (...args: unknown[]) => Promise<unknown>> = {}
  for (const name of methodNames(adapter)) {
    const method = (adapter as Record<string, (...args: unknown[]) => unknown>)[name]!
    wrapped[name] = async (...args) => {
      logger.debug(`adapter_${name}`, { args })
      try {
        return await method.apply(adapter, args)
      } catch (error) {
        const adapterError = new AdapterError(error instanceof Error ? error : new Error(String(error)))
        logger.error(adapterError)
        throw adapterError
      }
    }
  }
  wrappedAdapters.set(adapter, { logger, wrapped: wrapped as Adapter })
  return wrapped as Adapter
}

/** Wrapped adapters, kept per adapter for the logger they report to (one per configuration). */
const wrappedAdapters = new WeakMap<Adapter, { logger: LoggerInstance; wrapped: Adapter }>()
