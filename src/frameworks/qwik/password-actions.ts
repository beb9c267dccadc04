/**
 * The password actions of `QwikAuth$`: the global actions `useChangePassword`, `useChangeEmail`,
 * `useRequestPasswordReset` and `useResetPassword`. Their values are `{ ok: true }` or the refusal
 * (`{ ok: false, error, status }`), as the `authflow/client` functions of the same names answer.
 *
 * @module
 */
import { inlinedQrl } from "@builder.io/qwik"
import { isServer } from "@builder.io/qwik/build"
import { globalActionQrl, type Action, type RequestEventCommon } from "@builder.io/qwik-city"
import type { PasswordCallFields, PasswordResult, PasswordRoute } from "../shared/passwords.js"
import type { AuthConfig } from "../../types.js"
import { qwikPasswordRunner } from "./passwords.js"

/** The password members of what `QwikAuth$` returns. */
export interface QwikPasswordActions {
  /**
   * Action changing the signed-in user's password (fields `currentPassword`, `newPassword`); they
   * stay signed in, their other sessions end.
   *
   * @example
   * ```ts
   * const change = useChangePassword()
   * <Form action={change}><input name="currentPassword" type="password" /><input name="newPassword" type="password" /><button>Change</button></Form>
   * ```
   */
  useChangePassword: Action<PasswordResult, PasswordCallFields["change-password"], false>
  /**
   * Action mailing a link to a new address (fields `newEmail`, `password`), which makes the change when followed.
   *
   * @example
   * ```ts
   * await useChangeEmail().submit({ newEmail, password })
   * ```
   */
  useChangeEmail: Action<PasswordResult, PasswordCallFields["change-email"], false>
  /**
   * Action mailing a reset link (field `email`); its value is the same whether or not the address has an account.
   *
   * @example
   * ```ts
   * const forgot = useRequestPasswordReset()
   * <Form action={forgot}><input name="email" type="email" /><button>Send a link</button></Form>
   * ```
   */
  useRequestPasswordReset: Action<PasswordResult, PasswordCallFields["forgot-password"], false>
  /**
   * Action setting a new password with a mailed link's token (fields `token`, `password`).
   *
   * @example
   * ```ts
   * await useResetPassword().submit({ token, password })
   * ```
   */
  useResetPassword: Action<PasswordResult, PasswordCallFields["reset-password"], false>
}

function notOnTheClient(): never {
  throw new Error("authflow/qwik: server code called in the browser")
}

/**
 * The actions for one configuration; `id` keeps their symbols apart per configuration.
 *
 * @example
 * ```ts
 * return { onRequest, useSession, ...passwordActionsQrl((event) => configFor(configQrl, event), id) }
 * ```
 */
export function passwordActionsQrl(configOf: (event: RequestEventCommon) => Promise<Omit<AuthConfig, "raw">>, id: string): QwikPasswordActions {
  const run = qwikPasswordRunner(configOf)
  // Typed by hand: Qwik types an action's input only from a zod validator.
  const action = <A>(route: PasswordRoute, suffix: string) =>
    globalActionQrl(inlinedQrl(isServer ? (input: unknown, event: RequestEventCommon) => run(route, input, event) : notOnTheClient, `authflow_password_${route.replace(/-/g, "_")}_${id}${suffix}`)) as unknown as A
  return {
    useChangePassword: action("change-password", "PC"),
    useChangeEmail: action("change-email", "PE"),
    useRequestPasswordReset: action("forgot-password", "PF"),
    useResetPassword: action("reset-password", "PR"),
  }
}
