import { AuthError } from "./errors.js"
import { escapeControlCharacters, safeLogError, safeLogText, safeLogValue } from "./log-redaction.js"
import type { AuthConfig, LoggerInstance, WarningCode } from "../types.js"

const red = "\x1b[31m"
const yellow = "\x1b[33m"
const grey = "\x1b[90m"
const reset = "\x1b[0m"

function logError(error: Error): void {
  const type = error instanceof AuthError ? error.type : error.name
  console.error(`${red}[auth][error]${reset} ${type}: ${error.message}`)
  const cause = error.cause as Record<string, unknown> | undefined
  if (cause && typeof cause === "object") {
    const { err, ...details } = cause
    if (err instanceof Error) console.error(`${red}[auth][cause]${reset}:`, err.stack ?? err.message)
    if (Object.keys(details).length) console.error(`${red}[auth][details]${reset}:`, JSON.stringify(details, null, 2))
  } else if (error.stack) {
    console.error(error.stack.replace(/.*/, "").slice(1))
  }
}

function logWarning(code: WarningCode): void {
  console.warn(`${yellow}[auth][warn][${code}]${reset}`)
}

function logDebug(message: string, metadata?: unknown): void {
  console.log(`${grey}[auth][debug]:${reset} ${message}`, metadata === undefined ? "" : JSON.stringify(metadata, null, 2))
}

function ignore(): void {}

/**
 * The logger a config asks for: each level the user gives replaces the built-in one; the built-in
 * debug level prints only with `debug: true`.
 *
 * Every level, built-in or the user's, receives only safe copies: secrets redacted (session, access,
 * refresh and ID tokens, codes, verifiers, passwords, client secrets, `?token=`/`?code=`/`?state=`
 * in URLs: the inspector's rules, see ./redact.ts), control characters escaped in messages, stacks
 * and metadata, so neither a token nor a forged line reaches a log. Errors stay instances of their
 * class, with their `type`; the caller's objects are never changed. Resolved once per config, so a
 * request that logs nothing pays nothing.
 *
 * @example
 * ```ts
 * const logger = resolveLogger({ logger: { error: (e) => sentry.capture(e) }, debug: false })
 * logger.warn("csrf-disabled") // built-in console warning
 * logger.error(new UntrustedHost("URL was: https://app.test/auth/callback/email?token=abc"))
 * // sentry gets an UntrustedHost whose message ends "?token=[redacted]"
 * ```
 */
export function resolveLogger(config: Pick<AuthConfig, "logger" | "debug">): LoggerInstance {
  const custom = config.logger
  const cached = resolved.get(config)
  if (cached && cached.custom === custom && cached.debug === config.debug) return cached.logger
  const error = custom?.error ?? logError
  const warn = custom?.warn ?? logWarning
  const debug = custom?.debug ?? (config.debug ? logDebug : undefined)
  const logger: LoggerInstance = {
    error: (raw) => error(typeof raw === "object" && raw !== null ? safeLogError(raw) : new Error(safeLogText(String(raw)))),
    warn: (code) => warn(escapeControlCharacters(code) as WarningCode),
    // No debug sink: the shared no-op, so the hot path neither redacts nor copies anything.
    debug: debug ? (message, metadata) => debug(safeLogText(message), metadata === undefined ? undefined : safeLogValue(metadata)) : ignore,
  }
  resolved.set(config, { custom, debug: config.debug, logger })
  return logger
}

/** Loggers already resolved, per configuration object, valid while its `logger` and `debug` stay the same. */
const resolved = new WeakMap<object, { custom: AuthConfig["logger"]; debug: boolean | undefined; logger: LoggerInstance }>()
