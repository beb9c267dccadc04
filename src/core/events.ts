import { EventError } from "./errors.js"
import type { AuthConfig, EventCallbacks, LoggerInstance } from "../types.js"
import { asError } from "./as-error.js"

/**
 * Fires one of the user's events. Events observe only: one that throws is logged as `EventError`
 * and the flow goes on.
 *
 * @example
 * ```ts
 * await emitEvent(config, logger, "signIn", { user, account })
 * ```
 */
export function emitEvent<Name extends keyof EventCallbacks>(
  config: AuthConfig,
  logger: LoggerInstance,
  name: Name,
  message: Parameters<EventCallbacks[Name]>[0],
): Promise<void> | undefined {
  const handler = config.events?.[name] as ((message: unknown) => unknown) | undefined
  // No handler, no promise: the session read is hot.
  return handler && runEvent(handler, message, logger)
}

async function runEvent(handler: (message: unknown) => unknown, message: unknown, logger: LoggerInstance): Promise<void> {
  try {
    await handler(message)
  } catch (error) {
    logger.error(new EventError(asError(error)))
  }
}
