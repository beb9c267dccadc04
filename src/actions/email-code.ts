/**
 * The code a sign-in email carries (the email provider's `code` option): the email sign-in ended
 * in `codeSent` and {@link startEmailCode} sealed the email code machine in the browser that asked;
 * POST `/callback/<id>` with `code` resumes it ({@link emailCodeCallback}).
 *
 * @module
 */
import { CallbackRouteError, MissingCSRF, Verification, AuthError } from "../core/errors.js"
import { errorAnswer, type Answer } from "../core/answer.js"
import { asError } from "../core/as-error.js"
import { emailCodeMachine, type EmailCodeContext, type EmailCodeStart } from "../machines/email-code.js"
import { csrfCheckEffect } from "../machines/csrf-check.js"
import { runFlow, runFlowWithCookies, type FlowEffects } from "../machines/run-flow.js"
import type { StopStateOf } from "../machines/flow-machine.js"
import { FlowCookieRefused, newFlowId, sealedFlow, type OpenedFlow } from "./flow-cookie.js"
import { outcomeOf, type FlowOutcomes } from "./flow-outcomes.js"
import { newUserRedirect, signInTailPolicy } from "./issue-session.js"
import { rateLimitedError, requestLimiter } from "./rate-limit.js"
import { sessionEffects } from "./session-effects.js"
import { secondFactorOutcomes } from "./second-factor/tail.js"
import { emailAdapter, emailUserEffects, signingIn } from "./email-user.js"
import { emailCodeCookies, emailCodePage, EMAIL_CODE_FLOW_MAX_AGE } from "./email-code-cookies.js"
import { emailedCodeEffects } from "./emailed-code.js"
import type { EmailConfig } from "../providers/email-config.js"
import type { AuthOptions } from "../core/options.js"
import type { Cookie, InternalProvider } from "../types.js"

/**
 * Bump when the waiting state or the sealed context change shape: older flows are then refused.
 *
 * @example
 * ```ts
 * emailCodeFlow.version === EMAIL_CODE_FLOW_VERSION // true
 * ```
 */
export const EMAIL_CODE_FLOW_VERSION = 1

/**
 * The sealed email code flow: bound to the browser, used once, living 15 minutes (the code 10).
 *
 * @example
 * ```ts
 * const site = emailCodeFlow.site(options, provider)
 * const opened = await emailCodeFlow.open(site, options.request.cookies)
 * ```
 */
export const emailCodeFlow = sealedFlow({
  machine: emailCodeMachine,
  version: EMAIL_CODE_FLOW_VERSION,
  seals: ["identifier", "codeHash", "expiresAt", "callbackUrl", "linkTokenHash", "attempts"],
  maxAge: EMAIL_CODE_FLOW_MAX_AGE,
  cookies: (options) => emailCodeCookies(options),
})

type Waiting = Awaited<ReturnType<typeof runFlow<typeof emailCodeMachine>>>

/** Seals a flow waiting in `awaitingCode` and sends the browser to the code page (with why the last code was refused). */
async function sealAndShow(options: AuthOptions, provider: InternalProvider<EmailConfig>, cookies: Cookie[], snapshot: Waiting, codePage: string, refused: boolean): Promise<Answer> {
  const site = emailCodeFlow.site(options, provider)
  const flowId = newFlowId()
  const sealed = await emailCodeFlow.seal(site, snapshot, flowId, await emailCodeFlow.issue(site, flowId))
  const page = refused ? `${codePage}&${new URLSearchParams({ error: "Verification", reason: "wrong-code" })}` : codePage
  return { redirect: page, cookies: [...cookies, ...sealed] }
}

/**
 * Starts the email code flow once the mail carrying the code is sent (the email sign-in's
 * `codeSent`): the machine waits in `awaitingCode`, sealed in this browser, and the browser goes
 * to the code page.
 *
 * @example
 * ```ts
 * return startEmailCode(options, provider, cookies, { identifier, codeHash, expiresAt, callbackUrl }, codePage)
 * ```
 */
export async function startEmailCode(options: AuthOptions, provider: InternalProvider<EmailConfig>, cookies: Cookie[], start: EmailCodeStart, codePage: string): Promise<Answer> {
  const snapshot = await runFlow(emailCodeMachine, {} as FlowEffects<typeof emailCodeMachine>, { inspect: options.config.inspect, input: start })
  return sealAndShow(options, provider, cookies, snapshot, codePage, false)
}

/**
 * POST `/callback/<id>` with `csrfToken` and `code`: resumes the email code flow sealed in this
 * browser. A browser without the flow (the code typed in another browser), or with an expired,
 * tampered or foreign one, is refused with `Verification` (`cause.refusal` says why); a wrong
 * code goes back to the code page while tries are left.
 *
 * @example
 * ```ts
 * // POST /auth/callback/email (csrfToken, code=038114) → 302 to the callback URL, signed in
 * ```
 */
export async function emailCodeCallback(options: AuthOptions, provider: InternalProvider<EmailConfig>, cookies: Cookie[]): Promise<Answer> {
  const site = emailCodeFlow.site(options, provider)
  const opened = await emailCodeFlow.open(site, options.request.cookies)
  if (opened instanceof FlowCookieRefused) {
    const message =
      opened.reason === "missing" || opened.reason === "foreign-browser"
        ? "The code was typed in another browser than the one that asked for it: type it there, or ask for a new email here"
        : `The sign-in waiting for its code cannot go on: ${opened.message}`
    return errorAnswer(new Verification(message, { cause: { refusal: opened.reason, provider: provider.id, err: opened } }), [...cookies, ...emailCodeFlow.clear(site)])
  }
  const limiter = requestLimiter(options)
  const effects = emailCodeEffects(options, provider, opened)
  const { snapshot, cookies: minted } = await runFlowWithCookies(emailCodeMachine, { ...effects, checkRateLimit: ({ identifier }) => limiter.count("email-code", identifier) }, {
    inspect: options.config.inspect,
    snapshot: opened.snapshot,
    resume: { type: "code.submitted", code: String(options.request.body?.code ?? ""), policy: signInTailPolicy(options, provider) },
    id: emailCodeFlow.actorId(opened.flowId),
  })
  // The session's cookies (when the flow wrote one), then the flow's cleared.
  const answered = [...cookies, ...minted]
  const ended = () => [...answered, ...emailCodeFlow.clear(site)]
  const signedIn = (context: EmailCodeContext) => signingIn(provider, context)
  const refused = (refusal: StopStateOf<typeof emailCodeMachine>, message: string) => () => errorAnswer(new Verification(message, { cause: { refusal, provider: provider.id } }), ended())
  const failed = ({ error }: EmailCodeContext) => errorAnswer(error instanceof AuthError ? error : new CallbackRouteError(asError(error), { cause: { provider: provider.id } }), ended())
  const outcomes: FlowOutcomes<typeof emailCodeMachine, Answer | Promise<Answer>> = {
    awaitingCode: () => sealAndShow(options, provider, answered, snapshot, emailCodePage(options.baseUrl, provider.id), true),
    signedIn: ({ callbackUrl }) => ({ redirect: callbackUrl, cookies: ended() }),
    signedInNewUser: ({ callbackUrl }) => ({ redirect: newUserRedirect(options, callbackUrl), cookies: ended() }),
    ...secondFactorOutcomes(options, ended(), signedIn, ({ callbackUrl }) => callbackUrl),
    redirected: ({ redirectTo }) => ({ redirect: redirectTo!, cookies: ended() }),
    csrfRejected: () => errorAnswer(new MissingCSRF("CSRF token was missing during an action callback"), ended()),
    rateLimited: (context) => errorAnswer(rateLimitedError("email-code", context, limiter), ended()),
    flowReplayed: refused("flowReplayed", "The sign-in waiting for its code was resumed before (its cookie was sent again)"),
    codeExpired: refused("codeExpired", "The code has expired: ask for a new email"),
    attemptsExhausted: refused("attemptsExhausted", "Too many wrong codes: ask for a new email"),
    linkUsed: refused("linkUsed", "The link mailed with the code signed in first: the code works no more"),
    claimFailed: failed,
    tokenLookupFailed: failed,
    accessDenied: failed,
    lookupFailed: failed,
    persistFailed: failed,
    sessionFailed: failed,
  }
  return outcomeOf(snapshot, outcomes)
}

function emailCodeEffects(options: AuthOptions, provider: InternalProvider<EmailConfig>, opened: OpenedFlow<typeof emailCodeMachine>): Omit<FlowEffects<typeof emailCodeMachine>, "checkRateLimit"> {
  const site = emailCodeFlow.site(options, provider)
  const adapter = emailAdapter(options)
  return {
    claimFlow: () => emailCodeFlow.claimEvent(site, opened),
    ...csrfCheckEffect(options),
    ...emailedCodeEffects(options),
    useLinkToken: async ({ identifier, linkTokenHash }) => {
      try {
        const row = await adapter.useVerificationToken({ identifier, token: linkTokenHash ?? "" })
        return { type: "token.used", row: row && { identifier: row.identifier, expires: row.expires } }
      } catch (error) {
        return { type: "token.failed", error }
      }
    },
    ...emailUserEffects(options, provider),
    ...sessionEffects(options, (context: EmailCodeContext) => signingIn(provider, context)),
  }
}
