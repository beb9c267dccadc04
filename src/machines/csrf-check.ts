/**
 * The CSRF check inside the flow machines, defined once: a state whose effect (`checkCsrf`)
 * reports whether the request's double-submit token was verified, and the `csrfRejected` final
 * state a request without one ends in. Each machine whose entry is a form POST spreads these in,
 * so the inspector and the model tests see the same check everywhere.
 *
 * @module
 */

/** What the `checkCsrf` effect reports: the request's CSRF token matched its cookie, or it did not. */
export type CsrfEvent = { type: "csrf.valid" } | { type: "csrf.invalid" }

/** The effect a CSRF-checking state names. */
export type CsrfEffect = "checkCsrf"

/**
 * A state that checks the request's CSRF token (`checkCsrf`) and goes on to `next`, or ends in
 * `csrfRejected`. Spread {@link csrfRejectedState} once into the machine as well.
 *
 * @param next - The state a request with a verified token goes to.
 * @example
 * ```ts
 * createMachine({ initial: "validatingInput", states: { validatingInput: csrfCheckingState("findingSession"), ...csrfRejectedState, … } })
 * ```
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html#signed-double-submit-cookie-recommended
 */
export function csrfCheckingState<const TNext extends string>(next: TNext) {
  return {
    meta: { effect: "checkCsrf" },
    on: { "csrf.valid": next, "csrf.invalid": "csrfRejected" },
  } as const
}

/** The final state of a request whose CSRF token was missing or did not match its cookie. */
export const csrfRejectedState = { csrfRejected: { type: "final" } } as const

/**
 * The implementation of the `checkCsrf` effect, for a flow's effects: it reports what the router
 * found when it verified the request's token against the CSRF cookie (`csrfTokenVerified`), and
 * the machine's transitions decide what follows.
 *
 * @param request - What the router verified of the request.
 * @example
 * ```ts
 * await runFlow(signOutMachine, { ...csrfCheckEffect(options), findSession, decodeToken, … })
 * ```
 */
export function csrfCheckEffect(request: { csrfTokenVerified: boolean }): { checkCsrf: () => CsrfEvent } {
  return { checkCsrf: () => ({ type: request.csrfTokenVerified ? "csrf.valid" : "csrf.invalid" }) }
}
