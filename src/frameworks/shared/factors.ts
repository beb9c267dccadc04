/**
 * Second factors from server code, shared by the framework wrappers: one `/factors` request run
 * in-process through `Auth()` in raw mode, on the incoming request's cookies, answered as the
 * typed result `authflow/client` gives for the same call (`{ ok: true, … }` or
 * `{ ok: false, error, status }`). The cookies it sets (a waiting enrolment) go back through the
 * framework's cookie API, which each wrapper passes in.
 *
 * The CSRF token is not checked: each framework protects the server code that calls these
 * (Server Actions, form actions, Qwik actions), and the SolidStart wrapper checks the origin.
 *
 * @module
 */
import { Auth } from "../../auth.js"
import { resolveCookies } from "../../core/cookies/defaults.js"
import { AuthError, RateLimited } from "../../core/errors.js"
import { withClientAddress } from "../../core/rate-limit/peer.js"
import { raw, skipCSRFCheck } from "../../core/symbols.js"
import type { AuthConfig, Cookie, ResponseInternal } from "../../types.js"
import type { FactorsResult, SecondFactorSummary } from "../../client/types.js"

export type { FactorsRefusal, FactorsResult, SecondFactorSummary } from "../../client/types.js"

/** One call to `/factors`: what it does and the fields it sends. */
export type FactorCall =
  | { action: "list" }
  | { action: "enrol" }
  | { action: "confirm"; code: string; name?: string | undefined }
  | { action: "rename"; factorId: string; name: string }
  | { action: "remove"; factorId: string; code?: string | undefined }
  | { action: "regenerate" }

/** What each call answers when it succeeds (besides `ok`, `error` and `status`). */
export interface FactorCallResults {
  list: { factors: SecondFactorSummary[]; backupCodes: number }
  enrol: { otpauthUri: string; secret: string }
  confirm: { factor: SecondFactorSummary; backupCodes?: string[] }
  rename: Record<never, never>
  remove: Record<never, never>
  regenerate: { backupCodes: string[] }
}

/** Where a call runs: the framework's view of the incoming request. */
export interface FactorCallContext {
  /** The configuration, as the wrapper completed it (`basePath`, `secret`…). */
  config: Omit<AuthConfig, "raw">
  /** `<basePath>/factors` on the app's public origin. */
  url: URL
  /** The incoming request's headers: its cookies say who is signed in. */
  headers: Headers
  /** The client's address, for the rate limiter, where the framework knows it. */
  clientAddress?: string | undefined
  /** Writes the cookies the answer sets through the framework's cookie API. */
  setCookies: (cookies: Cookie[]) => void | Promise<void>
}

const rawConfigs = new WeakMap<object, AuthConfig & { raw: typeof raw }>()

/**
 * The configuration in raw mode without the CSRF check, one per configuration object (its checks run once).
 *
 * @example
 * ```ts
 * const answer = await Auth(request, rawConfig(config))
 * ```
 */
export function rawConfig(config: Omit<AuthConfig, "raw">): AuthConfig & { raw: typeof raw } {
  let derived = rawConfigs.get(config)
  if (!derived) rawConfigs.set(config, (derived = { ...config, raw, skipCSRFCheck }))
  return derived
}

/**
 * The names of the callback-URL cookie: a server call has no callback URL, so the one the router would remember is not written.
 *
 * @example
 * ```ts
 * const written = cookies.filter((cookie) => !callbackUrlNames(config).has(cookie.name))
 * ```
 */
export const callbackUrlNames = (config: Omit<AuthConfig, "raw">) =>
  new Set([true, false].map((secure) => resolveCookies(secure, config.cookies).callbackUrl.name))

function internalRequest(call: FactorCall, context: FactorCallContext): Request {
  const headers = new Headers(context.headers)
  // The internal request's body is not the incoming one; a `{ url }` answer would hide the refusal.
  for (const name of ["content-length", "content-type", "x-auth-return-redirect"]) headers.delete(name)
  if (call.action === "list") {
    headers.set("accept", "application/json")
    return new Request(context.url, { headers })
  }
  headers.set("content-type", "application/json")
  const body: Record<string, string> = {}
  for (const [key, value] of Object.entries(call)) if (typeof value === "string") body[key] = value
  return new Request(context.url, { method: "POST", headers, body: JSON.stringify(body) })
}

/**
 * Runs one `/factors` call for the signed-in user of the incoming request and writes the cookies
 * it sets. A refusal resolves as `{ ok: false, error, status }`: signed out is
 * `{ ok: false, error: "signed-out", status: 401 }`, a rate limit `"RateLimited"` (429). A
 * configuration error (second factors off, no adapter, no secret) or a failing adapter is thrown
 * as the `AuthError` authflow logged.
 *
 * @example
 * ```ts
 * const result = await runFactorCall({ action: "confirm", code: "123456" }, {
 *   config, url: new URL("https://app.example/auth/factors"), headers: request.headers,
 *   setCookies: (cookies) => cookies.forEach(({ name, value, options }) => jar.set(name, value, options)),
 * })
 * if (result.ok) showOnce(result.backupCodes)
 * ```
 */
export async function runFactorCall<A extends FactorCall["action"]>(
  call: Extract<FactorCall, { action: A }>,
  context: FactorCallContext,
): Promise<FactorsResult<FactorCallResults[A]>> {
  let answer: ResponseInternal
  try {
    answer = await Auth(withClientAddress(internalRequest(call, context), context.clientAddress), rawConfig(context.config))
  } catch (error) {
    // Raw mode throws the router's refusals; the rate limit is the one the user may meet.
    if (error instanceof RateLimited) return { ok: false, error: error.type, status: 429 }
    throw error
  }
  const status = answer.status ?? 200
  const body = answer.body
  if (!answer.redirect && body && typeof body === "object" && !Array.isArray(body) && status < 500) {
    const skipped = callbackUrlNames(context.config)
    const cookies = (answer.cookies ?? []).filter((cookie) => !skipped.has(cookie.name))
    if (cookies.length) await context.setCookies(cookies)
    const fields = body as Record<string, unknown>
    if (typeof fields.error === "string") return { ok: false, error: fields.error, status }
    if (status >= 200 && status < 300) return { ...(fields as FactorCallResults[A]), ok: true, error: undefined, status }
  }
  throw new AuthError(`${call.action} of second factors failed: authflow answered HTTP ${status}, a configuration error: the [auth][error] line logged with it says what to set`)
}

/**
 * Reads a call from loose fields (a form's, an action's input): strings only, anything else is
 * left out and the server refuses what is missing (`invalid-request`, 400).
 *
 * @example
 * ```ts
 * factorCallOf("rename", Object.fromEntries(await request.formData())) // { action: "rename", factorId, name }
 * ```
 */
export function factorCallOf<A extends FactorCall["action"]>(action: A, fields: Readonly<Record<string, unknown>> = {}): Extract<FactorCall, { action: A }> {
  const call: Record<string, string> = { action }
  const wanted: Record<FactorCall["action"], readonly string[]> = { list: [], enrol: [], confirm: ["code", "name"], rename: ["factorId", "name"], remove: ["factorId", "code"], regenerate: [] }
  for (const key of wanted[action]) if (typeof fields[key] === "string") call[key] = fields[key] as string
  return call as Extract<FactorCall, { action: A }>
}

/** The fields a confirmation form (or action input) sends: a code from the app, and the name to list it under (default "Authenticator app"). */
export interface ConfirmFactorInput {
  code: string
  name?: string
}

/** The fields a rename form sends: which app (its `id`) and its new name. */
export interface RenameFactorInput {
  factorId: string
  name: string
}

/** The fields a removal form sends: which app, and a current code from it (needed for the user's last one). */
export interface RemoveFactorInput {
  factorId: string
  code?: string
}

/** Options of `confirmAuthenticatorApp` on the server. */
export interface ServerConfirmOptions {
  /**
   * The name the app is listed under (trimmed, at most 64 characters).
   * @default "Authenticator app"
   */
  name?: string
}

/** Options of `removeFactor` on the server. */
export interface ServerRemoveOptions {
  /**
   * A current code from the app: needed to remove the user's last one (else `removal-refused`,
   * 403), ignored otherwise.
   * @default undefined
   */
  code?: string
}

/**
 * The signed-in user's second factors, managed from server code: the functions of
 * `authflow/client` (same names, arguments and results), run in-process. Each resolves
 * `{ ok: false, error: "signed-out", status: 401 }` when nobody is signed in.
 */
export interface ServerFactors {
  /**
   * The user's authenticator apps and how many backup codes are left.
   *
   * @example
   * ```ts
   * const listed = await listFactors()
   * if (listed.ok) listed.factors.map((factor) => factor.name)
   * ```
   */
  listFactors(): Promise<FactorsResult<FactorCallResults["list"]>>
  /**
   * Starts adding an authenticator app: show `otpauthUri` as a QR code and `secret` as the key to
   * type; the enrolment waits (5 minutes, in a cookie) for `confirmAuthenticatorApp`.
   *
   * @example
   * ```ts
   * const enrolment = await enrolAuthenticatorApp()
   * if (enrolment.ok) return { uri: enrolment.otpauthUri, secret: enrolment.secret }
   * ```
   */
  enrolAuthenticatorApp(): Promise<FactorsResult<FactorCallResults["enrol"]>>
  /**
   * Finishes the enrolment with a code from the app; the first app comes with 10 backup codes,
   * shown this once. A wrong code: `{ ok: false, error: "wrong-code", status: 400 }`.
   *
   * @example
   * ```ts
   * const confirmed = await confirmAuthenticatorApp("123456", { name: "Phone" })
   * if (confirmed.ok) return confirmed.backupCodes
   * ```
   */
  confirmAuthenticatorApp(code: string, options?: ServerConfirmOptions): Promise<FactorsResult<FactorCallResults["confirm"]>>
  /**
   * Renames one of the user's apps; another user's id is `unknown-factor` (404).
   *
   * @example
   * ```ts
   * await renameFactor(factorId, "Work phone")
   * ```
   */
  renameFactor(id: string, name: string): Promise<FactorsResult>
  /**
   * Removes one of the user's apps; the last one only with a current code from it.
   *
   * @example
   * ```ts
   * const removed = await removeFactor(factorId, { code: "123456" })
   * if (!removed.ok && removed.error === "removal-refused") askForAFreshCode()
   * ```
   */
  removeFactor(id: string, options?: ServerRemoveOptions): Promise<FactorsResult>
  /**
   * Makes 10 new backup codes, which replace the old ones; shown this once.
   *
   * @example
   * ```ts
   * const regenerated = await regenerateBackupCodes()
   * if (regenerated.ok) return regenerated.backupCodes
   * ```
   */
  regenerateBackupCodes(): Promise<FactorsResult<FactorCallResults["regenerate"]>>
}

/**
 * The {@link ServerFactors} functions over a context made for each call (the wrapper reads the
 * incoming request there).
 *
 * @example
 * ```ts
 * const { listFactors } = serverFactors(async () => ({ config, url, headers: await incomingHeaders(), setCookies }))
 * ```
 */
export function serverFactors(contextOf: () => Promise<FactorCallContext>): ServerFactors {
  const run = async <A extends FactorCall["action"]>(call: Extract<FactorCall, { action: A }>) => runFactorCall<A>(call, await contextOf())
  return {
    listFactors: () => run({ action: "list" }),
    enrolAuthenticatorApp: () => run({ action: "enrol" }),
    confirmAuthenticatorApp: (code, options = {}) => run({ action: "confirm", code, name: options.name }),
    renameFactor: (id, name) => run({ action: "rename", factorId: id, name }),
    removeFactor: (id, options = {}) => run({ action: "remove", factorId: id, code: options.code }),
    regenerateBackupCodes: () => run({ action: "regenerate" }),
  }
}
