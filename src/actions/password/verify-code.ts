/**
 * Verifying a Password account's address by an emailed code (`verifyBy: "code"` or `"both"`): the
 * sign-up (or the sign-in of an unverified address) mails the code and {@link startPasswordCode}
 * seals the code machine in that browser; POST `/verify-email/<id>` with `code` resumes it
 * ({@link passwordVerifyCode}), and the right code verifies the address and signs the user in.
 *
 * @module
 */
import { AuthError, CallbackRouteError, MissingCSRF, PasswordCodeExpired, PasswordCodeInvalid } from "../../core/errors.js"
import { errorAnswer, type Answer } from "../../core/answer.js"
import { asError } from "../../core/as-error.js"
import { passwordVerifyCodeMachine, type PasswordCodeStart, type PasswordVerifyCodeContext } from "../../machines/password-verify-code.js"
import { EMAIL_CODE_MAX_ATTEMPTS } from "../../machines/emailed-code.js"
import { csrfCheckEffect } from "../../machines/csrf-check.js"
import { runFlow, runFlowWithCookies, type FlowEffects } from "../../machines/run-flow.js"
import type { StopStateOf } from "../../machines/flow-machine.js"
import { FlowCookieRefused, newFlowId, sealedFlow, type OpenedFlow } from "../flow-cookie.js"
import { outcomeOf, type FlowOutcomes } from "../flow-outcomes.js"
import { signInTailPolicy, type SignInOutcome } from "../issue-session.js"
import { rateLimitedError, requestLimiter } from "../rate-limit.js"
import { sessionEffects } from "../session-effects.js"
import { secondFactorOutcomes } from "../second-factor/tail.js"
import { askSignIn, resolveRedirect } from "../sign-in-callback.js"
import { codeFlowCookies, emailCodePage, EMAIL_CODE_FLOW_MAX_AGE } from "../email-code-cookies.js"
import { emailedCodeEffects } from "../emailed-code.js"
import { addressStillBound } from "./mails.js"
import type { AuthOptions } from "../../core/options.js"
import type { Cookie, CredentialsConfig, User } from "../../types.js"

/**
 * Bump when the waiting state or the sealed context change shape: older flows are then refused.
 *
 * @example
 * ```ts
 * passwordCodeFlow.version === PASSWORD_CODE_FLOW_VERSION // true
 * ```
 */
export const PASSWORD_CODE_FLOW_VERSION = 1

/**
 * The cookies of a flow waiting for a Password verification code: the flow cookie's and the
 * binding cookie's names with `.password-code`, living 15 minutes (the code 10).
 *
 * @example
 * ```ts
 * passwordCodeCookies(options).flow.name // "__Secure-authflow.flow.password-code"
 * ```
 */
export const passwordCodeCookies = (options: Pick<AuthOptions, "cookies">) => codeFlowCookies(options, "password-code")

/**
 * The sealed Password verification code flow: bound to the browser, used once, living 15 minutes.
 *
 * @example
 * ```ts
 * const site = passwordCodeFlow.site(options, provider)
 * const opened = await passwordCodeFlow.open(site, options.request.cookies)
 * ```
 */
export const passwordCodeFlow = sealedFlow({
  machine: passwordVerifyCodeMachine,
  version: PASSWORD_CODE_FLOW_VERSION,
  seals: ["email", "bound", "codeHash", "expiresAt", "callbackUrl", "attempts"],
  maxAge: EMAIL_CODE_FLOW_MAX_AGE,
  cookies: (options) => passwordCodeCookies(options),
})

type Waiting = Awaited<ReturnType<typeof runFlow<typeof passwordVerifyCodeMachine>>>

/** The code page of a Password provider (`/verify-request?provider=<id>&type=code`), with why the last code was refused. */
function codePage(options: AuthOptions, provider: CredentialsConfig, triesLeft?: number): string {
  const page = emailCodePage(options.baseUrl, provider.id)
  return triesLeft === undefined ? page : `${page}&${new URLSearchParams({ error: "Verification", reason: "wrong-code", left: String(triesLeft) })}`
}

async function sealAndShow(options: AuthOptions, provider: CredentialsConfig, cookies: Cookie[], snapshot: Waiting, triesLeft?: number): Promise<Answer> {
  const site = passwordCodeFlow.site(options, provider)
  const flowId = newFlowId()
  const sealed = await passwordCodeFlow.seal(site, snapshot, flowId, await passwordCodeFlow.issue(site, flowId))
  return { redirect: codePage(options, provider, triesLeft), cookies: [...cookies, ...sealed] }
}

/**
 * Starts the Password verification code flow once the mail carrying the code is sent (a sign-up's
 * or a sign-in's `codeSent`): the machine waits in `awaitingCode`, sealed in this browser, and the
 * browser goes to the code page.
 *
 * @example
 * ```ts
 * return startPasswordCode(options, provider, cookies, { email, ...pendingCode, callbackUrl: options.callbackUrl })
 * ```
 */
export async function startPasswordCode(options: AuthOptions, provider: CredentialsConfig, cookies: Cookie[], start: PasswordCodeStart): Promise<Answer> {
  const snapshot = await runFlow(passwordVerifyCodeMachine, {} as FlowEffects<typeof passwordVerifyCodeMachine>, { inspect: options.config.inspect, input: start })
  return sealAndShow(options, provider, cookies, snapshot)
}

/**
 * POST `/verify-email/<id>` with `csrfToken` and `code`: resumes the verification code flow sealed
 * in this browser. A browser without the flow (the code typed in another browser), or with an
 * expired, tampered or foreign one, is refused with `PasswordCodeInvalid` (`cause.refusal` says
 * why); a wrong code goes back to the code page with the tries left; the right one verifies the
 * address and signs the user in.
 *
 * @example
 * ```ts
 * // POST /auth/verify-email/password (csrfToken, code=038114) → 302 to the callback URL, signed in
 * return passwordVerifyCode(options, provider, cookies)
 * ```
 */
export async function passwordVerifyCode(options: AuthOptions, provider: CredentialsConfig, cookies: Cookie[]): Promise<Answer> {
  const site = passwordCodeFlow.site(options, provider)
  const cleared = (answered: readonly Cookie[]) => [...answered, ...passwordCodeFlow.clear(site)]
  const invalid = (answered: readonly Cookie[], refusal: string, message: string, err?: Error) =>
    errorAnswer(new PasswordCodeInvalid(message, { cause: { refusal, provider: provider.id, ...(err && { err }) } }), cleared(answered))
  const opened = await passwordCodeFlow.open(site, options.request.cookies)
  if (opened instanceof FlowCookieRefused) {
    return invalid(cookies, opened.reason, `The verification waiting for its code cannot go on (${opened.reason}): sign in again for a new code`, opened)
  }
  const limiter = requestLimiter(options)
  const effects = passwordCodeEffects(options, provider, opened)
  const { snapshot, cookies: minted } = await runFlowWithCookies(passwordVerifyCodeMachine, { ...effects, checkRateLimit: ({ email }) => limiter.count("email-code", email) }, {
    inspect: options.config.inspect,
    snapshot: opened.snapshot,
    resume: { type: "code.submitted", code: String(options.request.body?.code ?? ""), policy: signInTailPolicy(options, provider) },
    id: passwordCodeFlow.actorId(opened.flowId),
  })
  // The session's cookies (when the flow wrote one), then the flow's cleared.
  const answered = [...cookies, ...minted]
  const ended = () => cleared(answered)
  const signedIn = ({ user }: PasswordVerifyCodeContext): SignInOutcome => ({ user: user!, account: accountOf(provider, user!) })
  const refused = (refusal: StopStateOf<typeof passwordVerifyCodeMachine>, message: string) => () => invalid(answered, refusal, message)
  const failed = ({ error }: PasswordVerifyCodeContext) => errorAnswer(error instanceof AuthError ? error : new CallbackRouteError(asError(error), { cause: { provider: provider.id } }), ended())
  const outcomes: FlowOutcomes<typeof passwordVerifyCodeMachine, Answer | Promise<Answer>> = {
    awaitingCode: ({ attempts }) => sealAndShow(options, provider, answered, snapshot, EMAIL_CODE_MAX_ATTEMPTS - attempts),
    signedIn: ({ callbackUrl }) => ({ redirect: callbackUrl, cookies: ended() }),
    ...secondFactorOutcomes(options, ended(), signedIn, ({ callbackUrl }) => callbackUrl),
    redirected: ({ redirectTo }) => ({ redirect: redirectTo!, cookies: ended() }),
    csrfRejected: () => errorAnswer(new MissingCSRF("CSRF token was missing during an action verify-email"), ended()),
    rateLimited: (context) => errorAnswer(rateLimitedError("email-code", context, limiter), ended()),
    flowReplayed: refused("flowReplayed", "The verification waiting for its code was resumed before (its cookie was sent again)"),
    attemptsExhausted: refused("attemptsExhausted", "Too many wrong codes: sign in again for a new one"),
    codeStale: refused("codeStale", "The account is no longer at the address the code was mailed to"),
    codeExpired: () => errorAnswer(new PasswordCodeExpired("The code has expired: sign in again for a new one", { cause: { provider: provider.id } }), ended()),
    claimFailed: failed,
    accessDenied: ({ error }) => errorAnswer(asError(error), ended()),
    verifyFailed: failed,
    sessionFailed: failed,
  }
  return outcomeOf(snapshot, outcomes)
}

const accountOf = (provider: CredentialsConfig, user: User) => ({ providerAccountId: user.id!, type: "credentials" as const, provider: provider.id })

function passwordCodeEffects(
  options: AuthOptions,
  provider: CredentialsConfig,
  opened: OpenedFlow<typeof passwordVerifyCodeMachine>,
): Omit<FlowEffects<typeof passwordVerifyCodeMachine>, "checkRateLimit"> {
  const site = passwordCodeFlow.site(options, provider)
  const adapter = options.adapter!
  return {
    claimFlow: () => passwordCodeFlow.claimEvent(site, opened),
    ...csrfCheckEffect(options),
    ...emailedCodeEffects(options),
    findCodeUser: async ({ email, bound }) => {
      try {
        const user = await adapter.getUserByEmail!(email)
        if (!user) return { type: "user.missing" }
        return { type: "user.found", user, bound: await addressStillBound(options.secret, bound, user.id, user.email), verified: user.emailVerified != null }
      } catch (error) {
        return { type: "lookup.failed", error }
      }
    },
    markVerified: async ({ user }) => {
      try {
        await adapter.updateUser!({ id: user!.id!, emailVerified: new Date() })
        return { type: "email.verified" }
      } catch (error) {
        return { type: "update.failed", error }
      }
    },
    askSignIn: async ({ user }) => askSignIn(options, { user: user!, account: accountOf(provider, user!), credentials: { email: user!.email } }),
    resolveRedirect: ({ requestedRedirect }) => resolveRedirect(options, requestedRedirect!),
    ...sessionEffects(options, ({ user }: PasswordVerifyCodeContext) => ({ user: user!, account: accountOf(provider, user!) })),
  }
}
