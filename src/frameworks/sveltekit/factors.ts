/**
 * The signed-in user's second factors from server code: `listFactors` for a `load`, and the form
 * actions `enrolAuthenticatorApp`, `confirmAuthenticatorApp`, `renameFactor`, `removeFactor` and
 * `regenerateBackupCodes`, returned by `SvelteKitAuth()`. Each runs `<basePath>/factors` through
 * `Auth()` on the event's cookies (no CSRF token: SvelteKit checks the origin of form posts) and
 * writes the cookies it sets (a waiting enrolment) through `event.cookies`. A form action reads its
 * fields (`code`, `name`, `factorId`) from the form, or from `input` when called from your own
 * action; it returns the result `authflow/client` gives for the same call, refusals included
 * (`{ ok: false, error, status }`), for the page's `form` prop.
 *
 * @module
 */
import type { RequestEvent } from "@sveltejs/kit"
import type { EnvObject } from "../../core/env.js"
import { factorCallOf, runFactorCall, type ConfirmFactorInput, type FactorCall, type FactorCallResults, type FactorsResult, type RemoveFactorInput, type RenameFactorInput } from "../shared/factors.js"
import { actionUrl, clientAddressOf, writeCookies } from "./actions.js"
import type { SvelteKitAuthConfig, SvelteKitFactorActions } from "./types.js"

/**
 * The form's fields, when the request is a form post.
 *
 * @example
 * ```ts
 * const { code } = await formFields(event)
 * ```
 */
export async function formFields(event: RequestEvent): Promise<Record<string, unknown>> {
  const type = event.request.headers.get("content-type") ?? ""
  if (event.request.method !== "POST" || !/form-data|x-www-form-urlencoded/.test(type)) return {}
  return Object.fromEntries(await event.request.formData())
}

/**
 * The second-factor functions for a configuration resolved per event.
 *
 * @example
 * ```ts
 * const factors = createFactorActions(resolveConfig, env)
 * await factors.listFactors(event)
 * ```
 */
export function createFactorActions(resolveConfig: (event: RequestEvent) => Promise<SvelteKitAuthConfig>, env: EnvObject): SvelteKitFactorActions {
  async function run<A extends FactorCall["action"]>(event: RequestEvent, action: A, input?: object): Promise<FactorsResult<FactorCallResults[A]>> {
    const config = await resolveConfig(event)
    const fields = input ?? (action === "list" || action === "enrol" || action === "regenerate" ? {} : await formFields(event))
    return runFactorCall<A>(factorCallOf(action, fields as Record<string, unknown>), {
      config,
      url: actionUrl("factors", event, config, env),
      headers: event.request.headers,
      clientAddress: clientAddressOf(event),
      setCookies: (cookies) => writeCookies(event, cookies),
    })
  }
  return {
    listFactors: (event) => run(event, "list"),
    enrolAuthenticatorApp: (event) => run(event, "enrol"),
    confirmAuthenticatorApp: (event, input) => run(event, "confirm", input),
    renameFactor: (event, input) => run(event, "rename", input),
    removeFactor: (event, input) => run(event, "remove", input),
    regenerateBackupCodes: (event) => run(event, "regenerate"),
  }
}
