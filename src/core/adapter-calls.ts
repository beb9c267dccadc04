/**
 * What every adapter call shares: the timeout, the record of failures already logged, and the
 * compensating writes. The wrapper that logs and checks each call (`adapter-logging.ts`) is loaded
 * only when the configuration has an adapter.
 *
 * @module
 */
import { AdapterTimeout } from "./errors.js"

/** How long an adapter method may take by default, in milliseconds (`AuthConfig.adapterTimeout`). */
export const DEFAULT_ADAPTER_TIMEOUT = 10_000

/**
 * Settles like `promise`, or rejects with `AdapterTimeout` after `timeout` milliseconds (0: never).
 *
 * @example
 * ```ts
 * await withinTimeout(adapter.createVerificationToken(token), config.adapterTimeout ?? 10_000, "createVerificationToken")
 * ```
 */
export function withinTimeout<T>(promise: Promise<T>, timeout: number, method: string): Promise<T> {
  if (!(timeout > 0) || !Number.isFinite(timeout)) return promise
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new AdapterTimeout(`adapter.${method} did not answer within ${timeout} ms: check the database, or raise adapterTimeout`, { cause: { method, timeout } }))
    }, timeout)
    // An unref'd timer never keeps a process alive on its own.
    ;(timer as { unref?: () => void }).unref?.()
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      },
    )
  })
}

/** Adapter failures already logged where they happened, so the request's own error handler does not log them again. */
const logged = new WeakSet<Error>()

/**
 * Whether `error` is an adapter failure `withAdapterLogging` logged already (it is rethrown
 * as it is, and would otherwise be logged twice: where it happened and where the request ends).
 *
 * @example
 * ```ts
 * if (!adapterFailureLogged(error)) logger.error(error)
 * ```
 */
export function adapterFailureLogged(error: unknown): boolean {
  return error instanceof Error && logged.has(error)
}

/**
 * Records that `error` was logged where it happened; {@link adapterFailureLogged} answers true for it
 * from then on.
 *
 * @example
 * ```ts
 * if (!adapterFailureLogged(error)) {
 *   logger.error(error)
 *   recordLogged(error)
 * }
 * ```
 */
export function recordLogged(error: Error): void {
  logged.add(error)
}

/**
 * Runs a compensating write (deleting what a failed sign-in wrote) and swallows its failure: the
 * adapter wrapper has logged it already, and the request fails with the error that caused it.
 *
 * @example
 * ```ts
 * await compensate(() => adapter.deleteUser?.(id))
 * ```
 */
export async function compensate(step: () => unknown): Promise<void> {
  try {
    await step()
  } catch {
    // Logged where it happened (withAdapterLogging); the original failure is what the request reports.
  }
}
