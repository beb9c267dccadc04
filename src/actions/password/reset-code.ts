/**
 * Resetting a forgotten password by an emailed code (`resetBy: "code"` or `"both"`): the forgot
 * request mails the code and {@link startPasswordResetCode} seals the code machine in that browser;
 * POST `/reset-password/<id>` with `code` and `password` resumes it ({@link passwordResetByCode}),
 * and the right code sets the new password as a reset link does.
 *
 * @module
 */
import { CallbackRouteError, MissingCSRF, PasswordCodeExpired, PasswordCodeInvalid } from "../../core/errors.js"
import { errorAnswer, type Answer } from "../../core/answer.js"
import { asError } from "../../core/as-error.js"
import { passwordResetCodeMachine, type PasswordResetCodeContext, type PasswordResetCodeStart } from "../../machines/password-reset-code.js"
import { EMAIL_CODE_MAX_ATTEMPTS } from "../../machines/emailed-code.js"
import { csrfCheckEffect } from "../../machines/csrf-check.js"
import { runFlow, type FlowEffects } from "../../machines/run-flow.js"
import type { StopStateOf } from "../../machines/flow-machine.js"
import { FlowCookieRefused, newFlowId, sealedFlow } from "../flow-cookie.js"
import { outcomeOf, type FlowOutcomes } from "../flow-outcomes.js"
import { rateLimitedError, requestLimiter } from "../rate-limit.js"
import { codeFlowCookies, EMAIL_CODE_FLOW_MAX_AGE } from "../email-code-cookies.js"
import { emailedCodeEffects } from "../emailed-code.js"
import { passwordRouteUrl, signInPageUrl } from "./mails.js"
import { newPasswordEffects, resetCodePage } from "./new-password.js"
import type { AuthOptions } from "../../core/options.js"
import type { Cookie, CredentialsConfig } from "../../types.js"

/**
 * Bump when the waiting state or the sealed context change shape: older flows are then refused.
 *
 * @example
 * ```ts
 * passwordResetCodeFlow.version === PASSWORD_RESET_CODE_FLOW_VERSION // true
 * ```
 */
export const PASSWORD_RESET_CODE_FLOW_VERSION = 1

/**
 * The sealed reset-by-code flow: bound to the browser, used once, living 15 minutes (the code 10),
 * in cookies of its own (`.password-reset-code`).
 *
 * @example
 * ```ts
 * const site = passwordResetCodeFlow.site(options, provider)
 * const opened = await passwordResetCodeFlow.open(site, options.request.cookies)
 * ```
 */
export const passwordResetCodeFlow = sealedFlow({
  machine: passwordResetCodeMachine,
  version: PASSWORD_RESET_CODE_FLOW_VERSION,
  seals: ["link", "bound", "codeHash", "expiresAt", "attempts"],
  maxAge: EMAIL_CODE_FLOW_MAX_AGE,
  cookies: (options) => codeFlowCookies(options, "password-reset-code"),
})

type Waiting = Awaited<ReturnType<typeof runFlow<typeof passwordResetCodeMachine>>>

async function sealAndShow(options: AuthOptions, provider: CredentialsConfig, cookies: Cookie[], snapshot: Waiting, query: Record<string, string> = {}): Promise<Answer> {
  const site = passwordResetCodeFlow.site(options, provider)
  const flowId = newFlowId()
  const sealed = await passwordResetCodeFlow.seal(site, snapshot, flowId, await passwordResetCodeFlow.issue(site, flowId))
  return { redirect: resetCodePage(options, provider, query), cookies: [...cookies, ...sealed] }
}

/**
 * Starts the reset-by-code flow once the forgot request ended in `codeSent` (a known address
 * mailed, an unknown one with a stand-in no code satisfies): the machine waits in `awaitingCode`,
 * sealed in this browser, and the browser goes to the page that takes the code and the new password.
 *
 * @example
 * ```ts
 * return startPasswordResetCode(options, provider, cookies, { link: { userId: user.id, email: user.email }, ...pendingCode })
 * ```
 */
export async function startPasswordResetCode(options: AuthOptions, provider: CredentialsConfig, cookies: Cookie[], start: PasswordResetCodeStart): Promise<Answer> {
  const snapshot = await runFlow(passwordResetCodeMachine, {} as FlowEffects<typeof passwordResetCodeMachine>, { inspect: options.config.inspect, input: start })
  return sealAndShow(options, provider, cookies, snapshot)
}

/**
 * POST `/reset-password/<id>` with `csrfToken`, `code` and `password`: resumes the reset-by-code
 * flow sealed in this browser. A browser without the flow (the code typed in another browser), or
 * with an expired, tampered or foreign one, is refused with `PasswordCodeInvalid` (`cause.refusal`
 * says why; as are a replayed cookie, the fifth wrong code and a password changed meanwhile), an
 * expired code with `PasswordCodeExpired`: both logged, and the browser goes back to the
 * forgot-password page (`error=PasswordCodeInvalid` or `PasswordCodeExpired`) to ask for a new
 * code; a wrong code goes back to the form with the tries left, a refused password with
 * `error=PasswordResetRefused&reason=…` (the code still good); the right code sets the password and
 * sends the browser to the sign-in page with `notice=password-reset`.
 *
 * @example
 * ```ts
 * // POST /auth/reset-password/password (csrfToken, code=038114, password) → 302 /auth/signin?notice=password-reset
 * return passwordResetByCode(options, provider, cookies)
 * ```
 */
export async function passwordResetByCode(options: AuthOptions, provider: CredentialsConfig, cookies: Cookie[]): Promise<Answer> {
  const site = passwordResetCodeFlow.site(options, provider)
  const body = options.request.body ?? {}
  const ended = () => [...cookies, ...passwordResetCodeFlow.clear(site)]
  // A code that can no longer be used is logged, and the browser goes back to the forgot form to ask for a new one.
  const askAgain = (error: PasswordCodeInvalid | PasswordCodeExpired): Answer => {
    options.logger.error(error)
    return { redirect: passwordRouteUrl(options, provider, "forgot-password", { error: error.type }), cookies: ended() }
  }
  const invalid = (refusal: string, message: string, err?: Error) => askAgain(new PasswordCodeInvalid(message, { cause: { refusal, provider: provider.id, ...(err && { err }) } }))
  const opened = await passwordResetCodeFlow.open(site, options.request.cookies)
  if (opened instanceof FlowCookieRefused) {
    return invalid(opened.reason, `The password reset waiting for its code cannot go on (${opened.reason}): ask for a new code`, opened)
  }
  const limiter = requestLimiter(options)
  const effects: FlowEffects<typeof passwordResetCodeMachine> = {
    claimFlow: () => passwordResetCodeFlow.claimEvent(site, opened),
    ...csrfCheckEffect(options),
    checkRateLimit: ({ link }) => limiter.count("password-reset", `reset:${link.email}`),
    ...emailedCodeEffects(options),
    ...newPasswordEffects(options, provider, body.password, ({ bound }: PasswordResetCodeContext) => bound),
  }
  const policy = { endsOtherSessions: provider.passwordAccounts!.endOtherSessions !== false }
  const snapshot = await runFlow(passwordResetCodeMachine, effects, {
    inspect: options.config.inspect,
    snapshot: opened.snapshot,
    resume: { type: "code.submitted", code: String(body.code ?? ""), policy },
    id: passwordResetCodeFlow.actorId(opened.flowId),
  })
  const refused = (refusal: StopStateOf<typeof passwordResetCodeMachine>, message: string) => () => invalid(refusal, message)
  const outcomes: FlowOutcomes<typeof passwordResetCodeMachine, Answer | Promise<Answer>> = {
    // A refused new password, or a wrong code with tries left: the form again, the flow sealed anew.
    awaitingCode: ({ attempts, refusal }) =>
      sealAndShow(options, provider, cookies, snapshot, refusal !== undefined ? { error: "PasswordResetRefused", reason: refusal } : { error: "Verification", reason: "wrong-code", left: String(EMAIL_CODE_MAX_ATTEMPTS - attempts) }),
    passwordReset: () => ({ redirect: signInPageUrl(options, { notice: "password-reset" }), cookies: ended() }),
    csrfRejected: () => errorAnswer(new MissingCSRF("CSRF token was missing during an action reset-password"), ended()),
    rateLimited: (context) => errorAnswer(rateLimitedError("password-reset", context, limiter), ended()),
    flowReplayed: refused("flowReplayed", "The password reset waiting for its code was resumed before (its cookie was sent again)"),
    attemptsExhausted: refused("attemptsExhausted", "Too many wrong codes: ask for a new one"),
    codeStale: refused("codeStale", "The password changed since the code was mailed"),
    codeExpired: () => askAgain(new PasswordCodeExpired("The code has expired: ask for a new one", { cause: { provider: provider.id } })),
    claimFailed: ({ error }) => errorAnswer(new CallbackRouteError(asError(error), { cause: { provider: provider.id } }), ended()),
    resetFailed: ({ error }) => errorAnswer(new CallbackRouteError(asError(error), { cause: { provider: provider.id } }), ended()),
  }
  return outcomeOf(snapshot, outcomes)
}
