/**
 * The signed-in user's second factors from SolidStart server functions (`"use server"`, a
 * `query` or an `action`): `listFactors`, `enrolAuthenticatorApp`, `confirmAuthenticatorApp`,
 * `renameFactor`, `removeFactor` and `regenerateBackupCodes`, with the arguments and results of
 * `authflow/client`'s after the event and the configuration. Each runs `<prefix>/factors` through
 * `Auth()` on the request's cookies and sets the cookies it answers (a waiting enrolment) on
 * `event.response`.
 *
 * SolidStart does not check where a server function's request comes from, so the calls that
 * change something refuse a cross-site one (`Sec-Fetch-Site: cross-site`, or an `Origin` of
 * another host) with `{ ok: false, error: "MissingCSRF", status: 403 }`, in place of the CSRF
 * token the browser client sends.
 *
 * @module
 */
import type { FetchEvent } from "@solidjs/start/server"
import { serializeCookie } from "../../core/cookies/serialize.js"
import { serverFactors, type FactorCallContext, type FactorCallResults, type FactorsResult, type ServerConfirmOptions, type ServerFactors, type ServerRemoveOptions } from "../shared/factors.js"
import { derivedConfig, processEnv } from "./config.js"
import type { GetSessionConfig } from "./session.js"
import type { AuthAction } from "../../types.js"

/** What the factor functions read of an event: the request, and the response stub for cookies. */
export type FactorEvent = Pick<FetchEvent, "request" | "response"> & { clientAddress?: string | undefined }

function firstValue(header: string | null): string | undefined {
  return header?.split(",")[0]?.trim() || undefined
}

/**
 * A request another site made: the browser says so, or its `Origin` names another host.
 *
 * @example
 * ```ts
 * if (crossSite(event.request)) return { ok: false, error: "MissingCSRF", status: 403 }
 * ```
 */
export function crossSite(request: Request): boolean {
  if (request.headers.get("sec-fetch-site") === "cross-site") return true
  const origin = request.headers.get("origin")
  if (origin === null) return false
  const own = new Set([new URL(request.url).host, firstValue(request.headers.get("host")), firstValue(request.headers.get("x-forwarded-host"))])
  try {
    return !own.has(new URL(origin).host)
  } catch {
    return true
  }
}

const refusedCrossSite = { ok: false, error: "MissingCSRF", status: 403 } as const

/**
 * Where a server call to `<prefix>/<action>` runs: the event's request, its cookies set on
 * `event.response`.
 *
 * @example
 * ```ts
 * const context = callContext(event, authConfig, "factors")
 * ```
 */
export function callContext(event: FactorEvent, config: GetSessionConfig, action: AuthAction): FactorCallContext {
  // `trustHost` defaults to true, as for getSession: the request never leaves the server.
  const { prefix, config: authConfig } = derivedConfig(config, processEnv(), true)
  return {
    config: authConfig,
    url: new URL(`${prefix}/${action}`, event.request.url),
    headers: event.request.headers,
    clientAddress: event.clientAddress,
    setCookies: (cookies) => {
      for (const { name, value, options } of cookies) event.response.headers.append("set-cookie", serializeCookie(name, value, options))
    },
  }
}

function factorsOf(event: FactorEvent, config: GetSessionConfig): ServerFactors {
  return serverFactors(async () => callContext(event, config, "factors"))
}

/**
 * The user's authenticator apps and how many backup codes are left.
 *
 * @example
 * ```ts
 * const factors = query(async () => {
 *   "use server"
 *   return listFactors(getRequestEvent()!, authConfig)
 * }, "factors")
 * ```
 */
export async function listFactors(event: FactorEvent, config: GetSessionConfig): Promise<FactorsResult<FactorCallResults["list"]>> {
  return factorsOf(event, config).listFactors()
}

/**
 * Starts adding an authenticator app: show `otpauthUri` as a QR code and `secret` as the key to
 * type; the enrolment waits (5 minutes, in a cookie) for {@link confirmAuthenticatorApp}.
 *
 * @example
 * ```ts
 * const enrol = action(async () => {
 *   "use server"
 *   return enrolAuthenticatorApp(getRequestEvent()!, authConfig)
 * })
 * ```
 */
export async function enrolAuthenticatorApp(event: FactorEvent, config: GetSessionConfig): Promise<FactorsResult<FactorCallResults["enrol"]>> {
  return crossSite(event.request) ? refusedCrossSite : factorsOf(event, config).enrolAuthenticatorApp()
}

/**
 * Finishes the enrolment with a code from the app; the first app comes with 10 backup codes,
 * shown this once. A wrong code: `{ ok: false, error: "wrong-code", status: 400 }`.
 *
 * @example
 * ```ts
 * const confirm = action(async (form: FormData) => {
 *   "use server"
 *   return confirmAuthenticatorApp(getRequestEvent()!, authConfig, String(form.get("code")), { name: "Phone" })
 * })
 * ```
 */
export async function confirmAuthenticatorApp(event: FactorEvent, config: GetSessionConfig, code: string, options?: ServerConfirmOptions): Promise<FactorsResult<FactorCallResults["confirm"]>> {
  return crossSite(event.request) ? refusedCrossSite : factorsOf(event, config).confirmAuthenticatorApp(code, options)
}

/**
 * Renames one of the user's apps; another user's id is `unknown-factor` (404).
 *
 * @example
 * ```ts
 * await renameFactor(getRequestEvent()!, authConfig, factorId, "Work phone")
 * ```
 */
export async function renameFactor(event: FactorEvent, config: GetSessionConfig, id: string, name: string): Promise<FactorsResult> {
  return crossSite(event.request) ? refusedCrossSite : factorsOf(event, config).renameFactor(id, name)
}

/**
 * Removes one of the user's apps; the last one only with a current code from it (else
 * `removal-refused`, 403).
 *
 * @example
 * ```ts
 * await removeFactor(getRequestEvent()!, authConfig, factorId, { code: "123456" })
 * ```
 */
export async function removeFactor(event: FactorEvent, config: GetSessionConfig, id: string, options?: ServerRemoveOptions): Promise<FactorsResult> {
  return crossSite(event.request) ? refusedCrossSite : factorsOf(event, config).removeFactor(id, options)
}

/**
 * Makes 10 new backup codes, which replace the old ones; shown this once.
 *
 * @example
 * ```ts
 * const regenerated = await regenerateBackupCodes(getRequestEvent()!, authConfig)
 * ```
 */
export async function regenerateBackupCodes(event: FactorEvent, config: GetSessionConfig): Promise<FactorsResult<FactorCallResults["regenerate"]>> {
  return crossSite(event.request) ? refusedCrossSite : factorsOf(event, config).regenerateBackupCodes()
}
