/**
 * What the model tests share beyond authflow/testing's machinery, which they use as it ships
 * (src/testing: `modelPaths`, `TransitionRecorder`, `coverageReport`): the answers of the
 * `signIn` and `redirect` callbacks a path's sign-in tail meets, what the callbacks do to give
 * them, and the inputs that make the model walk both session strategies.
 */
import { AccessDenied } from "../../src/errors.js"
import { defaultCallbacks } from "../../src/core/callbacks.js"
import type { SignInTailPolicy } from "../../src/machines/sign-in-tail.js"
import type { CallbacksOptions } from "../../src/types.js"

/** The URL the `signIn` callback answers when a path redirects. */
export const signInRedirect = "/welcome"

/**
 * What the `signIn` callback can do, and then the `redirect` callback with the URL it answered:
 * allow, refuse, answer a URL (resolved, or the `redirect` callback throws), throw an `AuthError`
 * (kept) or any other error (wrapped in `AccessDenied`).
 */
export const signInDecisions = [
  { type: "signIn.answered", result: true },
  { type: "signIn.answered", result: false },
  { type: "signIn.answered", result: signInRedirect },
  { type: "signIn.threw", error: new AccessDenied("the signIn callback refused") },
  { type: "signIn.threw", error: new Error("callback threw") },
  { type: "redirect.resolved", url: signInRedirect },
  { type: "redirect.threw", error: new AccessDenied("the redirect callback refused") },
  { type: "redirect.threw", error: new Error("redirect callback threw") },
] as const

/**
 * What the `signIn` callback must answer (or throw) for the engine to meet a path's
 * `signIn.answered` or `signIn.threw`. A path without either never asks; it allows.
 */
export function signInDecisionOf(path: readonly { type: string }[]): boolean | string {
  const threw = path.find((event) => event.type === "signIn.threw") as { error?: unknown } | undefined
  if (threw) throw threw.error
  const answered = path.find((event) => event.type === "signIn.answered") as { result?: unknown } | undefined
  // The callback's declared type is `boolean | string`; a JavaScript callback can answer anything, and the tail's guards read it as it is.
  return answered ? (answered.result as boolean | string) : true
}

/**
 * The `redirect` callback for a path: it throws the path's `redirect.threw` error for the URL the
 * `signIn` callback answered, and otherwise is the default one.
 */
export function redirectCallbackOf(path: readonly { type: string }[]): Pick<CallbacksOptions, "redirect"> | Record<string, never> {
  const threw = path.find((event) => event.type === "redirect.threw") as { error?: unknown } | undefined
  if (!threw) return {}
  return {
    redirect(params) {
      if (params.url === signInRedirect) throw threw.error
      return defaultCallbacks.redirect(params)
    },
  }
}

/**
 * The inputs that make the model walk both session strategies, with `pages.newUser` set (a user
 * the sign-in creates goes there; any other one does not).
 */
export const tailInputs: { policy: SignInTailPolicy }[] = [
  { policy: { databaseSessions: true, newUserPage: true } },
  { policy: { databaseSessions: false, newUserPage: true } },
]

/** The tail policy a path was generated with. */
export function policyOf(path: { input?: unknown }): SignInTailPolicy {
  return (path.input as { policy?: SignInTailPolicy } | undefined)?.policy ?? { databaseSessions: false, newUserPage: false }
}
