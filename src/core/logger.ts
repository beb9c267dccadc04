import { AuthError } from "./errors.js"
import { escapeControlCharacters, safeLogError, safeLogText, safeLogValue } from "./log-redaction.js"
import type { AuthConfig, LoggerInstance, WarningCode } from "../types.js"

type Stream = "stdout" | "stderr"

/**
 * Whether the built-in logger colours what it writes to `stream`: only on a terminal, always with
 * `FORCE_COLOR` set (other than `0`), else never with `NO_COLOR` set (Node's own rules). Runtimes without `process`
 * (edge, browsers) get no colour.
 *
 * @example
 * ```ts
 * useColour("stderr") // false when stderr is piped to a file or a log collector
 * ```
 */
export function useColour(stream: Stream): boolean {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined>; stdout?: { isTTY?: boolean }; stderr?: { isTTY?: boolean } } }).process
  const env = proc?.env ?? {}
  // Node's own order: FORCE_COLOR wins over NO_COLOR.
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "") return env.FORCE_COLOR !== "0"
  if (env.NO_COLOR) return false
  return proc?.[stream]?.isTTY === true
}

function paint(colour: string, text: string, stream: Stream): string {
  return useColour(stream) ? `${colour}${text}\x1b[0m` : text
}

const red = "\x1b[31m"
const yellow = "\x1b[33m"
const grey = "\x1b[90m"
const cyan = "\x1b[36m"

/**
 * Errors a user causes, not the server: a wrong password, a stale form, an expired or reused link, a
 * sign-in the `signIn` callback refused, an account already linked elsewhere. The built-in logger
 * writes them as one `[auth][info]` line without a stack; a custom `logger.error` still receives
 * them (check `error.type`), as in Auth.js.
 */
const userMistakes: ReadonlySet<string> = new Set(["CredentialsSignin", "MissingCSRF", "Verification", "AccessDenied", "OAuthAccountNotLinked", "AccountNotLinked"])

/** What each user mistake means, for its log line when the error carries no message of its own. */
const userMistakeText: Record<string, string> = {
  CredentialsSignin: "a sign-in with credentials was refused (authorize returned null or threw CredentialsSignin)",
  MissingCSRF: "a form arrived without a valid CSRF token (a stale page, or cookies blocked)",
  Verification: "a sign-in link was expired, reused or unknown",
  AccessDenied: "the signIn callback refused a sign-in",
  OAuthAccountNotLinked: "an account with this email exists, linked to another provider",
  AccountNotLinked: "the passkey or account belongs to another user",
}

/**
 * True for the errors a user's own mistake causes (see `userMistakes`), which are not server errors;
 * false when one wraps an error a callback threw.
 *
 * @example
 * ```ts
 * logger: { error: (e) => (isUserMistake(e) ? metrics.count(e.name) : sentry.capture(e)) }
 * ```
 */
export function isUserMistake(error: unknown): error is AuthError {
  // A callback that threw (a database down inside `signIn`) arrives wrapped, as AccessDenied with the
  // original in `cause.err`: that is the server's problem, and its stack is logged in full.
  return error instanceof AuthError && userMistakes.has(error.type) && !(error.cause?.err instanceof Error)
}

function logError(error: Error): void {
  const type = error instanceof AuthError ? error.type : error.name
  if (isUserMistake(error)) {
    console.info(`${paint(cyan, "[auth][info]", "stdout")} ${type}: ${error.message || userMistakeText[type]}`)
    return
  }
  const tag = (name: string) => paint(red, `[auth][${name}]`, "stderr")
  console.error(`${tag("error")} ${type}: ${error.message}`)
  const cause = error.cause as Record<string, unknown> | undefined
  if (cause && typeof cause === "object") {
    const { err, ...details } = cause
    if (err instanceof Error) console.error(`${tag("cause")}:`, err.stack ?? err.message)
    if (Object.keys(details).length) console.error(`${tag("details")}:`, JSON.stringify(details, null, 2))
  } else if (error.stack) {
    console.error(error.stack.replace(/.*/, "").slice(1))
  }
}

/**
 * What the built-in logger prints after each warning's code: what happened and what to do. A
 * `Record` over every code, so a new warning without its text does not compile.
 */
const warningText: Record<WarningCode, string> = {
  "debug-enabled": "debug is on: the log shows request details (secrets redacted). Turn it off in production",
  "csrf-disabled": "GET /csrf answered without a token because skipCSRFCheck is set: only for frameworks that check CSRF themselves",
  "env-url-basepath-redundant": "AUTH_URL has a path and basePath is set too: basePath wins. Keep one of them",
  "env-url-basepath-mismatch": "AUTH_URL's path differs from basePath: actions are served at basePath. Make them the same",
  "experimental-webauthn": "WebAuthn (passkeys) is experimental: its routes, pages and stored shapes may change between minor versions",
  "provider-logout-unavailable":
    "the provider's logout could not be reached (no end_session_endpoint, or discovery failed): the session ended here only. Debug logging has the reason",
  "rate-limit-client-unknown":
    "rate limiting cannot tell clients apart (no client address): only the per-identifier budgets apply. Behind a proxy set rateLimit.trustedProxies; with your own server call withClientAddress(request, address) from authflow/rate-limit before Auth()",
  "replay-store-per-process":
    "the adapter's createVerificationToken overwrites a duplicate, so a logout token's jti is remembered in this process only: pass replayStore: redisReplayStore(client) to share it between instances",
  "weak-secret": "A secret is shorter than 32 characters: accepted in development, refused in production. Generate one with `npx authflow secret`",
}

function logWarning(code: WarningCode): void {
  const text = warningText[code] as string | undefined
  console.warn(paint(yellow, `[auth][warn][${code}]`, "stderr") + (text ? ` ${text}` : ""))
}

function logDebug(message: string, metadata?: unknown): void {
  console.log(`${paint(grey, "[auth][debug]:", "stdout")} ${message}`, metadata === undefined ? "" : JSON.stringify(metadata, null, 2))
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
