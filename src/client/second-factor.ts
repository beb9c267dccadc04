/**
 * Second factors from the browser: managing a signed-in user's authenticator apps and backup codes
 * (`<basePath>/factors`, JSON), and passing the second factor a sign-in waits for
 * (`<basePath>/second-factor`).
 *
 * Refusals resolve as values, as `signIn` reports them: `{ ok: false, error }`. Only an answer that
 * is not JSON (the server unreachable, a proxy's page) throws a `ClientFetchError`.
 *
 * @module
 */
import { announceSessionChange } from "./broadcast.js"
import { authUrl } from "./config.js"
import { send, type AuthRequestInit } from "./fetch.js"
import { navigate } from "./navigate.js"
import { getCsrfToken } from "./session.js"
import { errorOf } from "./sign-in.js"
import type { FactorsRefusal, FactorsResult, SecondFactorRefusal, SecondFactorResponse, SecondFactorSummary, SubmitSecondFactorOptions } from "./types.js"

/**
 * One request to `/factors`: the JSON answer, or the refusal it carries. A refusal of the flow
 * answers `{ error }` with its status; one the router answers (CSRF, rate limit, an enrolment
 * expired or confirmed before) is an error page's URL, read like `signIn` reads it.
 */
async function factorsRequest<T extends object>(init: AuthRequestInit): Promise<FactorsResult<T>> {
  const { status, ok, data } = await send<unknown>("factors", { ...init, returnRedirect: true })
  const body = (data && typeof data === "object" ? data : {}) as Record<string, unknown>
  if (typeof body.error === "string") return refused(body.error, status)
  if (typeof body.url === "string") return refused(errorOf(body.url).error ?? "Configuration", status)
  if (!ok) return refused("Configuration", status)
  return { ...(body as T), ok: true, error: undefined, status }
}

function refused(error: FactorsRefusal, status: number): { ok: false; error: FactorsRefusal; status: number } {
  return { ok: false, error, status }
}

/** A POST to `/factors` with the CSRF token. */
async function factorsAction<T extends object>(action: string, fields: Record<string, string | undefined> = {}): Promise<FactorsResult<T>> {
  const csrfToken = (await getCsrfToken()) ?? ""
  const json: Record<string, string> = { csrfToken, action }
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) json[key] = value
  return factorsRequest<T>({ json })
}

/**
 * The signed-in user's authenticator apps and how many backup codes they have left
 * (`GET <basePath>/factors`). Signed out: `{ ok: false, error: "signed-out", status: 401 }`.
 *
 * @example
 * ```ts
 * import { listFactors } from "authflow/client"
 *
 * const listed = await listFactors()
 * if (listed.ok) console.log(listed.factors.map((factor) => factor.name), listed.backupCodes)
 * ```
 */
export async function listFactors(): Promise<FactorsResult<{ factors: SecondFactorSummary[]; backupCodes: number }>> {
  return factorsRequest({})
}

/**
 * Starts adding an authenticator app: the server makes a secret and keeps the enrolment waiting
 * (5 minutes, in a cookie) for one right code from the app. Show `otpauthUri` as a QR code and
 * `secret` as the key to type, then call {@link confirmAuthenticatorApp}.
 *
 * @example
 * ```ts
 * import { enrolAuthenticatorApp } from "authflow/client"
 *
 * const enrolment = await enrolAuthenticatorApp()
 * if (enrolment.ok) showQrCode(enrolment.otpauthUri, enrolment.secret)
 * ```
 */
export async function enrolAuthenticatorApp(): Promise<FactorsResult<{ otpauthUri: string; secret: string }>> {
  return factorsAction("enrol")
}

/** Options of {@link confirmAuthenticatorApp}. */
export interface ConfirmAuthenticatorAppOptions {
  /**
   * The name the app is listed under (trimmed, at most 64 characters).
   * @default "Authenticator app"
   */
  name?: string
}

/**
 * Finishes adding the app {@link enrolAuthenticatorApp} started, with a code it shows. The first
 * app comes with 10 backup codes (`backupCodes`), shown this once. A wrong code resolves with
 * `{ ok: false, error: "wrong-code", status: 400 }` and the enrolment keeps waiting for another,
 * until `attempts-exhausted`.
 *
 * @param code - The 6-digit code the app shows.
 *
 * @example
 * ```ts
 * import { confirmAuthenticatorApp } from "authflow/client"
 *
 * const confirmed = await confirmAuthenticatorApp("123456", { name: "Phone" })
 * if (confirmed.ok && confirmed.backupCodes) showOnce(confirmed.backupCodes)
 * else if (confirmed.error === "wrong-code") askAgain()
 * ```
 */
export async function confirmAuthenticatorApp(code: string, options: ConfirmAuthenticatorAppOptions = {}): Promise<FactorsResult<{ factor: SecondFactorSummary; backupCodes?: string[] }>> {
  return factorsAction("confirm", { code, name: options.name })
}

/**
 * Renames one of the user's apps; another user's id is `unknown-factor` (404).
 *
 * @param id - The app's `id`, as {@link listFactors} lists it.
 * @param name - The new name (trimmed, at most 64 characters; empty: "Authenticator app").
 *
 * @example
 * ```ts
 * import { renameFactor } from "authflow/client"
 * await renameFactor(factor.id, "Work phone")
 * ```
 */
export async function renameFactor(id: string, name: string): Promise<FactorsResult> {
  return factorsAction("rename", { factorId: id, name })
}

/** Options of {@link removeFactor}. */
export interface RemoveFactorOptions {
  /**
   * A current code from the app: needed to remove the user's last one (else `removal-refused`,
   * 403), ignored otherwise.
   * @default undefined
   */
  code?: string
}

/**
 * Removes one of the user's apps. Removing the last one takes a current code from it.
 *
 * @param id - The app's `id`, as {@link listFactors} lists it.
 *
 * @example
 * ```ts
 * import { removeFactor } from "authflow/client"
 *
 * const removed = await removeFactor(factor.id, { code: "123456" })
 * if (!removed.ok && removed.error === "removal-refused") askForAFreshCode()
 * ```
 */
export async function removeFactor(id: string, options: RemoveFactorOptions = {}): Promise<FactorsResult> {
  return factorsAction("remove", { factorId: id, code: options.code })
}

/**
 * Makes 10 new backup codes, which replace the old ones; shown this once.
 *
 * @example
 * ```ts
 * import { regenerateBackupCodes } from "authflow/client"
 *
 * const regenerated = await regenerateBackupCodes()
 * if (regenerated.ok) showOnce(regenerated.backupCodes)
 * ```
 */
export async function regenerateBackupCodes(): Promise<FactorsResult<{ backupCodes: string[] }>> {
  return factorsAction("regenerate")
}

/**
 * Passes the second factor a sign-in waits for: posts `{ csrfToken, method, code, remember }` to
 * `<basePath>/second-factor`. The browser goes where the server answers: the sign-in's callback URL
 * once the code passes, back to the second-factor page with the refusal while attempts are left,
 * or to the sign-in or error page once the sign-in ended. With `redirect: false` nothing navigates
 * and the result says where it would have gone, the error and, for a refused code, its `reason`.
 * A code that passes tells the other tabs.
 *
 * @example
 * ```ts
 * import { submitSecondFactor } from "authflow/client"
 *
 * const result = await submitSecondFactor({ code: "123456", remember: true, redirect: false })
 * if (result?.reason === "wrong-code") askAgain()
 * else if (result?.ok) location.assign(result.url!)
 * ```
 */
export async function submitSecondFactor(options: SubmitSecondFactorOptions): Promise<SecondFactorResponse | undefined> {
  const { method = "totp", code, remember = false, redirect = true } = options
  const result = await postSecondFactor({ method, code, ...(remember && { remember: "true" }) })
  if (result.ok) announceSessionChange("signin")
  if (redirect) {
    navigate(result.url ?? authUrl("error"))
    return undefined
  }
  return result
}

/**
 * Asks the server to email a code to the user whose sign-in waits (`method=email&send=true`), for
 * a configuration with `sendCode` where the sign-in offers `email`. Nothing navigates: pass the
 * code the user types to {@link submitSecondFactor} with `method: "email"`.
 *
 * @example
 * ```ts
 * import { requestEmailCode, submitSecondFactor } from "authflow/client"
 *
 * const sent = await requestEmailCode()
 * if (sent.ok) await submitSecondFactor({ method: "email", code: await askForTheEmailedCode() })
 * ```
 */
export async function requestEmailCode(): Promise<SecondFactorResponse> {
  return postSecondFactor({ method: "email", send: "true" })
}

async function postSecondFactor(fields: Record<string, string>): Promise<SecondFactorResponse> {
  const csrfToken = (await getCsrfToken()) ?? ""
  const { status, ok, data } = await send<{ url?: unknown } | null>("second-factor", { form: { csrfToken, ...fields } })
  const url = typeof data?.url === "string" ? data.url : null
  const { error } = errorOf(url ?? undefined)
  const refusal = error === undefined ? undefined : reasonOf(url!)
  return { ok: ok && url !== null && error === undefined, url, error: url === null ? "Configuration" : error, reason: refusal, status }
}

function reasonOf(url: string): SecondFactorRefusal | undefined {
  return (new URL(url, "http://relative.invalid").searchParams.get("reason") ?? undefined) as SecondFactorRefusal | undefined
}
