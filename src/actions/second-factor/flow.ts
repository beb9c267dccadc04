/**
 * `/second-factor`: a sign-in waiting for its second factor. The first-factor flow ended in
 * `secondFactorRequired` and {@link startSecondFactor} sealed the second-factor machine in
 * `awaitingCode`; GET shows the page, POST resumes the machine with a code (or a request for an
 * emailed code) and answers with the state it stops in.
 *
 * @module
 */
import { requestTranslator } from "../../core/i18n/load.js"
import { secondFactorCodeMessage } from "../../providers/email-message.js"
import { CallbackRouteError, EmailSignInError, MissingCSRF, SecondFactorAttemptsExhausted, SecondFactorRefused, SecondFactorUnavailable, type SecondFactorRefusal } from "../../core/errors.js"
import { errorAnswer, type Answer } from "../../core/answer.js"
import { asError } from "../../core/as-error.js"
import { backupCodeHashes, hashEmailCode, newEmailCode, normalizeBackupCode, openFactorSecret, typedEmailCodeHashes, verifyTotp } from "../../core/second-factor/index.js"
import { EMAIL_CODE_LIFETIME } from "../../core/second-factor-options.js"
import { runFlow, runFlowWithCookies, type FlowEffects } from "../../machines/run-flow.js"
import { csrfCheckEffect } from "../../machines/csrf-check.js"
import { secondFactorMachine, type FirstFactor, type SecondFactorContext, type SecondFactorEvent, type SecondFactorPolicy } from "../../machines/second-factor.js"
import type { SecondFactorMethod } from "../../machines/sign-in-tail.js"
import { FlowCookieRefused, newFlowId, type OpenedFlow } from "../flow-cookie.js"
import { outcomeOf, type FlowOutcomes } from "../flow-outcomes.js"
import { newUserRedirect, signInTailPolicy } from "../issue-session.js"
import { rateLimitedError, requestLimiter } from "../rate-limit.js"
import { sessionEffects } from "../session-effects.js"
import { secondFactorFlow, secondFactorSite } from "./sealed-flow.js"
import { factorsFingerprint, trustedDeviceCookie } from "./trusted-device.js"
import type { AuthOptions } from "../../core/options.js"
import type { Cookie, ResponseInternal } from "../../types.js"
import type { AuthMethod } from "./auth-context.js"
import type { RequestLimiter } from "../../core/rate-limit/limiter.js"

const methods: ReadonlySet<string> = new Set<SecondFactorMethod>(["totp", "backup", "email"])

/** What the second-factor flow reads of the configuration (for the provider of its first factor), with the event that resumes it. */
function policyOf(options: AuthOptions, providerId: string | undefined): SecondFactorPolicy {
  const settings = options.secondFactor!
  const provider = options.providers.find((candidate) => candidate.id === providerId)
  return { ...signInTailPolicy(options, provider), maxAttempts: settings.maxAttempts, trustsDevices: settings.trustedDeviceDays > 0 }
}

/** Where the page is: the built-in one, or `pages.secondFactor`, with what it shows. */
function pageUrl(options: AuthOptions, context: Pick<SecondFactorContext, "methods" | "refusal">, emailSent: boolean): string {
  const query = new URLSearchParams({ methods: context.methods.join(",") })
  if (context.refusal) {
    query.set("error", SecondFactorRefused.type)
    query.set("reason", context.refusal)
  }
  if (emailSent) query.set("sent", "email")
  const page = options.pages.secondFactor ?? `${options.baseUrl}/second-factor`
  return `${page}${page.includes("?") ? "&" : "?"}${query}`
}

/** Seals a flow waiting in `awaitingCode` and sends the browser to the page. */
async function sealAndShow(options: AuthOptions, cookies: Cookie[], snapshot: Awaited<ReturnType<typeof runFlow<typeof secondFactorMachine>>>, emailSent: boolean): Promise<Answer> {
  const site = secondFactorFlow.site(options, secondFactorSite)
  const flowId = newFlowId()
  const sealed = await secondFactorFlow.seal(site, snapshot, flowId, await secondFactorFlow.issue(site, flowId))
  return { redirect: pageUrl(options, snapshot.context, emailSent), cookies: [...cookies, ...sealed] }
}

/**
 * Starts the second-factor flow for a first factor that passed (the tail's `secondFactorRequired`):
 * the machine waits in `awaitingCode`, sealed in the second-factor cookie, and the browser goes to
 * the page. No session cookie is set.
 *
 * @example
 * ```ts
 * return startSecondFactor(options, cookies, { user, account, callbackUrl: "/", methods: ["totp", "backup"] })
 * ```
 */
export async function startSecondFactor(options: AuthOptions, cookies: Cookie[], firstFactor: FirstFactor): Promise<Answer> {
  const snapshot = await runFlow(secondFactorMachine, {} as FlowEffects<typeof secondFactorMachine>, { inspect: options.config.inspect, input: firstFactor })
  return sealAndShow(options, cookies, snapshot, false)
}

/** What one request of the flow shares with its effects. */
interface SecondFactorRequest {
  opened: OpenedFlow<typeof secondFactorMachine>
  limiter: RequestLimiter
}

function secondFactorEffects(options: AuthOptions, request: SecondFactorRequest): FlowEffects<typeof secondFactorMachine> {
  const settings = options.secondFactor!
  const adapter = options.adapter!
  const site = secondFactorFlow.site(options, secondFactorSite)
  const typed = (context: SecondFactorContext) => (context.submission && "code" in context.submission ? context.submission.code : "")
  return {
    claimFlow: () => secondFactorFlow.claimEvent(site, request.opened),
    ...csrfCheckEffect(options),
    checkRateLimit: ({ rateLimitIdentity }) => request.limiter.count("second-factor", rateLimitIdentity),
    checkTotp: async (context) => {
      try {
        for (const factor of await adapter.listFactorsByUserId!(context.user.id!)) {
          const secret = await openFactorSecret(factor.secret, options.secret)
          if (!secret) continue
          const matched = await verifyTotp(secret, typed(context), { algorithm: factor.algorithm, digits: factor.digits, period: factor.period })
          if (matched) return { type: "totp.matched", factorId: factor.id, step: matched.step }
        }
        return { type: "totp.unmatched" }
      } catch (error) {
        return { type: "totp.failed", error }
      }
    },
    claimStep: async ({ matched }) => {
      try {
        // Only `true` claims the step (an adapter answering anything else has not proven the write): a code is accepted once.
        return (await adapter.useFactorStep!(matched!.factorId, matched!.step)) === true ? { type: "step.claimed" } : { type: "step.taken" }
      } catch (error) {
        return { type: "step.failed", error }
      }
    },
    useBackupCode: async (context) => {
      try {
        const code = normalizeBackupCode(typed(context))
        if (code === null) return { type: "backupCode.unknown" }
        // Under every secret (a rotation in progress): the codes were hashed with the one current then.
        for (const hash of await backupCodeHashes(code, options.secret)) {
          if ((await adapter.useBackupCode!(context.user.id!, hash)) === true) return { type: "backupCode.used" }
        }
        return { type: "backupCode.unknown" }
      } catch (error) {
        return { type: "backupCode.failed", error }
      }
    },
    // Under every secret (a rotation during the code's 10 minutes does not void it), as the other emailed codes are.
    hashEmailCode: async (context) => ({ type: "emailCode.hashed", hashes: await typedEmailCodeHashes(typed(context), options.secret), now: Date.now() }),
    sendEmailCode: async ({ user }) => {
      try {
        const code = newEmailCode()
        const expires = new Date(Date.now() + EMAIL_CODE_LIFETIME * 1000)
        const translator = await requestTranslator(options.config.i18n, options.request, ["emails"])
        const message = secondFactorCodeMessage({ code, expires, url: options.request.url.href, translator })
        await settings.sendCode!({ email: user.email!, code, expires, request: new Request(options.request.url), locale: translator.locale, message })
        return { type: "emailCode.sent", hash: await hashEmailCode(code, options.secret), expiresAt: expires.getTime() }
      } catch (error) {
        return { type: "emailCode.failed", error }
      }
    },
    trustDevice: async ({ user }) => {
      try {
        const userId = user.id!
        const fingerprint = factorsFingerprint(userId, await adapter.listFactorsByUserId!(userId))
        // Set only by a sign-in that ends signed in (see the outcomes).
        return { type: "device.trusted", cookies: [await trustedDeviceCookie(options, { userId, fingerprint }, settings.trustedDeviceDays)] }
      } catch (error) {
        options.logger.error(asError(error))
        return { type: "device.failed", error }
      }
    },
    renewAuthContext: async ({ user, stepUp, passedWith }) => {
      const { authContextCookie, steppedUpAmr } = await import("./auth-context.js")
      return { type: "authContext.renewed", cookies: [await authContextCookie(options, { userId: user.id!, amr: steppedUpAmr((stepUp?.amr ?? []) as AuthMethod[], passedWith!) })] }
    },
    ...sessionEffects(options, ({ user, account, profile, isNewUser, passedWith }: SecondFactorContext) => ({ user, account, ...(profile && { profile }), isNewUser: isNewUser ?? false, ...(passedWith && { secondFactor: passedWith }) })),
  }
}

/**
 * The answers of the second-factor flow's stops, given the cookies its run minted: the session's
 * (when it wrote one), the trusted device's (when the user asked to be remembered), or a step-up's
 * renewed auth context.
 */
function outcomes(
  options: AuthOptions,
  cookies: Cookie[],
  minted: readonly Cookie[],
  request: SecondFactorRequest,
  snapshot: Awaited<ReturnType<typeof runFlow<typeof secondFactorMachine>>>,
): FlowOutcomes<typeof secondFactorMachine, Answer | Promise<Answer>> {
  const site = secondFactorFlow.site(options, secondFactorSite)
  const isDevice = (cookie: Cookie) => cookie.name === options.cookies.trustedDevice.name
  // Every end clears the flow's cookies (after the session's, when one was written); waiting again seals a new flow in their place.
  const ended = () => [...cookies, ...minted.filter((cookie) => !isDevice(cookie)), ...secondFactorFlow.clear(site)]
  // A device is remembered only by a sign-in that ended signed in.
  const signedInCookies = () => [...ended(), ...minted.filter(isDevice)]
  const failed = ({ error }: SecondFactorContext) => errorAnswer(error instanceof Error && "type" in error ? error : new CallbackRouteError(asError(error), { cause: { provider: "second-factor" } }), ended())
  const refused = (reason: SecondFactorRefusal, message: string) => errorAnswer(new SecondFactorRefused(message, { cause: { reason } }), ended())
  return {
    awaitingCode: (context) => sealAndShow(options, cookies, snapshot, context.refusal === undefined && context.submission !== undefined && "requestsCode" in context.submission),
    flowReplayed: () => {
      const replayed = new FlowCookieRefused("replayed", "the second-factor flow was resumed before")
      return errorAnswer(new SecondFactorRefused(`The sign-in waiting for its second factor cannot go on: ${replayed.message}`, { cause: { reason: "foreign-flow", err: replayed } }), ended())
    },
    csrfRejected: () => errorAnswer(new MissingCSRF("CSRF token was missing during an action second-factor"), ended()),
    rateLimited: (context) => errorAnswer(rateLimitedError("second-factor", context, request.limiter), ended()),
    methodUnavailable: () => refused("method-unavailable", "The second factor named is not one this sign-in offers"),
    emailCodeFailed: ({ error }) => errorAnswer(new EmailSignInError(asError(error), { cause: { provider: "second-factor" } }), ended()),
    verifyFailed: failed,
    attemptsExhausted: ({ attempts }) => errorAnswer(new SecondFactorAttemptsExhausted(`The sign-in used its ${attempts + 1} attempts at the second factor`), ended()),
    signedIn: ({ callbackUrl }) => ({ redirect: callbackUrl, cookies: signedInCookies() }),
    // A step-up writes no session: what it minted is the renewed auth context, set after the flow's cookies are cleared.
    steppedUp: ({ callbackUrl }) => ({ redirect: callbackUrl, cookies: [...cookies, ...secondFactorFlow.clear(site), ...minted] }),
    signedInNewUser: ({ callbackUrl }) => ({ redirect: newUserRedirect(options, callbackUrl), cookies: signedInCookies() }),
    redirected: ({ redirectTo }) => ({ redirect: redirectTo!, cookies: ended() }),
    accessDenied: failed,
    sessionFailed: failed,
  }
}

/**
 * The sign-in tail's answer when a second factor is required of a user who has no method for one:
 * refused with `SecondFactorUnavailable`, naming the provider of the first factor.
 *
 * @example
 * ```ts
 * secondFactorUnavailable(cookies, "credentials") // { error: SecondFactorUnavailable, cookies }
 * ```
 */
export function secondFactorUnavailable(cookies: Cookie[], provider: string): Answer {
  return errorAnswer(
    new SecondFactorUnavailable("A second factor is required of this user, who has no authenticator app or backup codes, and no code can be emailed to them", { cause: { provider } }),
    cookies,
  )
}

/**
 * GET `/second-factor`: the page (or `pages.secondFactor`) for a sign-in waiting for its second
 * factor; without one, the sign-in page. POST: resumes the waiting flow with `method` and `code`
 * (or `send=true` to email a code), claimed once; a missing, expired, tampered or foreign flow
 * cookie is refused.
 *
 * @example
 * ```ts
 * // POST /auth/second-factor  (csrfToken, method=totp, code=123456) → 302 to the callback URL, signed in
 * ```
 */
export async function secondFactorAction(options: AuthOptions, cookies: Cookie[]): Promise<Answer> {
  const site = secondFactorFlow.site(options, secondFactorSite)
  if (options.request.method === "GET") return secondFactorPage(options, cookies, site.cookies.flow.name)
  const opened = await secondFactorFlow.open(site, options.request.cookies)
  if (opened instanceof FlowCookieRefused) {
    const reason = opened.reason === "expired" || opened.reason === "missing" ? "expired-flow" : "foreign-flow"
    return errorAnswer(new SecondFactorRefused(`The sign-in waiting for its second factor cannot go on: ${opened.message}`, { cause: { reason, err: opened } }), [...cookies, ...secondFactorFlow.clear(site)])
  }
  const request: SecondFactorRequest = { opened, limiter: requestLimiter(options) }
  const body = options.request.body ?? {}
  const method = typeof body.method === "string" && methods.has(body.method) ? (body.method as SecondFactorMethod) : "totp"
  const policy = policyOf(options, (opened.snapshot.context as Partial<SecondFactorContext> | undefined)?.account?.provider)
  const resume: SecondFactorEvent =
    method === "email" && body.send === "true"
      ? { type: "emailCode.requested", policy }
      : { type: "code.submitted", method, code: typeof body.code === "string" ? body.code : "", rememberDevice: body.remember === "true" || body.remember === "on", policy }
  const { snapshot, cookies: minted } = await runFlowWithCookies(secondFactorMachine, secondFactorEffects(options, request), {
    inspect: options.config.inspect,
    snapshot: opened.snapshot,
    resume,
    id: secondFactorFlow.actorId(opened.flowId),
  })
  return outcomeOf(snapshot, outcomes(options, cookies, minted, request, snapshot))
}

async function secondFactorPage(options: AuthOptions, cookies: Cookie[], flowCookie: string): Promise<ResponseInternal> {
  if (!options.request.cookies[flowCookie]) return { redirect: `${options.baseUrl}/signin`, cookies }
  const { query } = options.request
  const offered = (query.methods ?? "").split(",").filter((method): method is SecondFactorMethod => methods.has(method))
  const { renderSecondFactorPage } = await import("../../pages/second-factor.js")
  const page = renderSecondFactorPage({
    action: `${options.baseUrl}/second-factor`,
    ...(options.csrfToken !== undefined && { csrfToken: options.csrfToken }),
    methods: offered.length ? offered : ["totp"],
    ...(query.reason !== undefined && { refusal: query.reason }),
    emailSent: query.sent === "email",
    trustedDeviceDays: options.secondFactor?.trustedDeviceDays ?? 0,
    theme: options.theme,
    text: await requestTranslator(options.config.i18n, options.request, ["secondFactor"]),
  })
  return { status: page.status, headers: { "Content-Type": "text/html; charset=utf-8" }, body: page.html, cookies }
}
