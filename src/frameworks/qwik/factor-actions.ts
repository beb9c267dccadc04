/**
 * The second-factor loader and actions of `QwikAuth$`: `useFactors` (a route loader) and the
 * global actions `useEnrolAuthenticatorApp`, `useConfirmAuthenticatorApp`, `useRenameFactor`,
 * `useRemoveFactor` and `useRegenerateBackupCodes`. Their values are the results of the
 * `authflow/client` functions of the same names, refusals included (`{ ok: false, error, status }`).
 *
 * @module
 */
import { inlinedQrl } from "@builder.io/qwik"
import { isServer } from "@builder.io/qwik/build"
import { globalActionQrl, routeLoaderQrl, type Action, type Loader, type RequestEventCommon } from "@builder.io/qwik-city"
import type { ConfirmFactorInput, FactorCall, FactorCallResults, FactorsResult, RemoveFactorInput, RenameFactorInput } from "../shared/factors.js"
import type { AuthConfig } from "../../types.js"
import { qwikFactorRunner } from "./factors.js"

/** The second-factor members of what `QwikAuth$` returns. */
export interface QwikFactorActions {
  /**
   * Route loader of the signed-in user's apps and how many backup codes are left. Loaders run
   * on every request of the routes exporting them: export it from the account page's route
   * (`export { useFactors } from "../plugin@auth"`), not from the plugin.
   *
   * @example
   * ```ts
   * const listed = useFactors()
   * listed.value.ok && listed.value.factors.map((factor) => factor.name)
   * ```
   */
  useFactors: Loader<FactorsResult<FactorCallResults["list"]>>
  /**
   * Action starting an enrolment: its value's `otpauthUri` (a QR code) and `secret` are for the
   * page; the enrolment waits 5 minutes, in a cookie, for `useConfirmAuthenticatorApp`.
   *
   * @example
   * ```ts
   * const enrol = useEnrolAuthenticatorApp()
   * <Form action={enrol}><button>Add an authenticator app</button></Form>
   * ```
   */
  useEnrolAuthenticatorApp: Action<FactorsResult<FactorCallResults["enrol"]>, Record<string, never>, false>
  /**
   * Action finishing the enrolment (fields `code`, `name`); the first app comes with `backupCodes`.
   *
   * @example
   * ```ts
   * const confirm = useConfirmAuthenticatorApp()
   * <Form action={confirm}><input name="code" /><button>Confirm</button></Form>
   * ```
   */
  useConfirmAuthenticatorApp: Action<FactorsResult<FactorCallResults["confirm"]>, ConfirmFactorInput, false>
  /**
   * Action renaming one of the user's apps (fields `factorId`, `name`).
   *
   * @example
   * ```ts
   * await useRenameFactor().submit({ factorId, name: "Work phone" })
   * ```
   */
  useRenameFactor: Action<FactorsResult, RenameFactorInput, false>
  /**
   * Action removing one of the user's apps (fields `factorId`, `code`: the last one needs a current code).
   *
   * @example
   * ```ts
   * await useRemoveFactor().submit({ factorId, code })
   * ```
   */
  useRemoveFactor: Action<FactorsResult, RemoveFactorInput, false>
  /**
   * Action making 10 new backup codes, which replace the old ones.
   *
   * @example
   * ```ts
   * const regenerate = useRegenerateBackupCodes()
   * <Form action={regenerate}><button>New backup codes</button></Form>
   * ```
   */
  useRegenerateBackupCodes: Action<FactorsResult<FactorCallResults["regenerate"]>, Record<string, never>, false>
}

function notOnTheClient(): never {
  throw new Error("authflow/qwik: server code called in the browser")
}

/**
 * The loader and actions for one configuration; `id` keeps their symbols apart per configuration.
 *
 * @example
 * ```ts
 * return { onRequest, useSession, useSignIn, useSignOut, ...factorActionsQrl((event) => configFor(configQrl, event), id) }
 * ```
 */
export function factorActionsQrl(configOf: (event: RequestEventCommon) => Promise<Omit<AuthConfig, "raw">>, id: string): QwikFactorActions {
  const run = qwikFactorRunner(configOf)
  const action = (call: Exclude<FactorCall["action"], "list">, suffix: string) =>
    globalActionQrl(inlinedQrl(isServer ? (input: unknown, event: RequestEventCommon) => run(call, input, event) : notOnTheClient, `authflow_factor_${call}_${id}${suffix}`))
  return {
    useFactors: routeLoaderQrl(inlinedQrl(isServer ? (event: RequestEventCommon) => run("list", {}, event) : notOnTheClient, `authflow_useFactors_${id}FL`)),
    // Typed by hand: Qwik types an action's input only from a zod validator.
    useEnrolAuthenticatorApp: action("enrol", "FE") as unknown as QwikFactorActions["useEnrolAuthenticatorApp"],
    useConfirmAuthenticatorApp: action("confirm", "FC") as unknown as QwikFactorActions["useConfirmAuthenticatorApp"],
    useRenameFactor: action("rename", "FN") as unknown as QwikFactorActions["useRenameFactor"],
    useRemoveFactor: action("remove", "FR") as unknown as QwikFactorActions["useRemoveFactor"],
    useRegenerateBackupCodes: action("regenerate", "FB") as unknown as QwikFactorActions["useRegenerateBackupCodes"],
  }
}
