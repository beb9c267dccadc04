/**
 * `/factors`: a signed-in user's second factors, through the factor management machine. GET reads
 * the list (the built-in page, or JSON for `Accept: application/json`); POST enrols an
 * authenticator app (`action=enrol`, then `action=confirm` with a code), renames or removes one
 * (`factorId`, `name`, `code` for the last one) or makes new backup codes (`action=regenerate`).
 * Forms get pages and redirects; JSON bodies get JSON.
 *
 * @module
 */
import { requestTranslator } from "../../core/i18n/load.js"
import type { KeysOf } from "../../core/i18n/messages.js"
import type { Translator } from "../../core/i18n/translate.js"
import { CallbackRouteError, MissingCSRF } from "../../core/errors.js"
import { errorAnswer, type Answer } from "../../core/answer.js"
import { asError } from "../../core/as-error.js"
import { randomUUID } from "../../core/crypto.js"
import { base32Encode, hashBackupCode, newBackupCodes, newTotpSecret, openFactorSecret, otpauthUri, qrCodeSvg, sealFactorSecret, verifyTotp } from "../../core/second-factor/index.js"
import { runFlow, type FlowEffects } from "../../machines/run-flow.js"
import { csrfCheckEffect } from "../../machines/csrf-check.js"
import { factorsMachine, type FactorsAction, type FactorsContext, type FactorsEvent, type FactorSummary } from "../../machines/factors.js"
import { FlowCookieRefused, newFlowId, sealedFlow, type OpenedFlow } from "../flow-cookie.js"
import { outcomeOf, type FlowOutcomes } from "../flow-outcomes.js"
import { rateLimitedError, requestLimiter } from "../rate-limit.js"
import { SECOND_FACTOR_MAX_AGE } from "./sealed-flow.js"
import { sessionUser } from "./session-user.js"
import type { AuthOptions } from "../../core/options.js"
import type { RequestLimiter } from "../../core/rate-limit/limiter.js"
import type { AdapterFactor } from "../../adapters.js"
import type { Cookie, ResponseInternal } from "../../types.js"

const actions: ReadonlySet<string> = new Set<FactorsAction>(["enrol", "confirm", "rename", "remove", "regenerate"])

/** An enrolment waiting for its first code, sealed like a waiting second factor (its own binding). */
const enrolmentFlow = sealedFlow({
  machine: factorsMachine,
  version: 1,
  seals: ["enrolment", "attempts"],
  maxAge: SECOND_FACTOR_MAX_AGE,
  cookies: (options) => ({
    flow: options.cookies.secondFactor,
    binding: { name: `${options.cookies.flowBinding.name}.factors`, options: { ...options.cookies.flowBinding.options, maxAge: SECOND_FACTOR_MAX_AGE } },
  }),
})
const site = { id: "factors" } as const

const summary = (factor: AdapterFactor): FactorSummary => ({ id: factor.id, name: factor.name, createdAt: new Date(factor.createdAt).toISOString() })

/** The name a factor is given: trimmed, at most 64 characters, or the default. */
function factorName(name: string | undefined): string {
  const trimmed = (name ?? "").trim().slice(0, 64)
  return trimmed || "Authenticator app"
}

interface FactorsRequestState {
  limiter: RequestLimiter
  opened?: OpenedFlow<typeof factorsMachine>
}

function effects(options: AuthOptions, state: FactorsRequestState): FlowEffects<typeof factorsMachine> {
  const adapter = options.adapter!
  const settings = options.secondFactor!
  return {
    // Only a confirmation opens an enrolment cookie; anything else claiming one is a bug, reported as a replay.
    claimFlow: async () => (state.opened ? enrolmentFlow.claimEvent(enrolmentFlow.site(options, site), state.opened) : { type: "flow.replayed" }),
    ...csrfCheckEffect(options),
    checkRateLimit: ({ rateLimitIdentity }) => state.limiter.count("second-factor", rateLimitIdentity),
    findUser: async () => {
      try {
        const user = await sessionUser(options)
        if (!user) return { type: "user.missing" }
        const userId = user.id
        const email = user.email || undefined
        const [factors, backupCodes] = await Promise.all([adapter.listFactorsByUserId!(userId), adapter.countBackupCodes!(userId)])
        return { type: "user.found", userId, ...(email && { email }), factors: factors.map(summary), backupCodes }
      } catch (error) {
        return { type: "user.failed", error }
      }
    },
    generateSecret: async ({ userId, email }) => {
      try {
        const { algorithm, digits, period } = settings.totp
        return { type: "secret.generated", enrolment: { userId: userId!, accountName: email ?? userId!, secret: await sealFactorSecret(newTotpSecret(), options.secret), algorithm, digits, period } }
      } catch (error) {
        return { type: "write.failed", error }
      }
    },
    checkEnrolmentCode: async ({ enrolment, request }) => {
      const secret = await openFactorSecret(enrolment!.secret, options.secret)
      const matched = secret && (await verifyTotp(secret, request?.code ?? "", enrolment!))
      return matched ? { type: "code.matched", step: matched.step } : { type: "code.unmatched" }
    },
    checkFactorCode: async ({ userId, request }) => {
      try {
        const factor = (await adapter.listFactorsByUserId!(userId!)).find((candidate) => candidate.id === request?.factorId)
        const secret = factor && (await openFactorSecret(factor.secret, options.secret))
        const matched = factor && secret && (await verifyTotp(secret, request?.code ?? "", factor))
        // The code proves the factor once: the same code cannot prove it again.
        // Only `true` claims the step: an adapter answering anything else has not proven the write.
        return matched && (await adapter.useFactorStep!(factor.id, matched.step)) === true ? { type: "code.matched", step: matched.step } : { type: "code.unmatched" }
      } catch (error) {
        return { type: "code.failed", error }
      }
    },
    createFactor: async ({ enrolment, request, confirmedStep }) => {
      try {
        const factor = await adapter.createFactor!({
          id: randomUUID(),
          userId: enrolment!.userId,
          type: "totp",
          name: factorName(request?.name),
          secret: enrolment!.secret,
          algorithm: enrolment!.algorithm,
          digits: enrolment!.digits,
          period: enrolment!.period,
          lastUsedStep: confirmedStep ?? null,
          createdAt: new Date(),
        })
        return { type: "factor.created", factor: summary(factor) }
      } catch (error) {
        return { type: "write.failed", error }
      }
    },
    generateBackupCodes: async ({ userId }) => {
      try {
        const codes = newBackupCodes(10)
        await adapter.replaceBackupCodes!(userId!, await Promise.all(codes.map((code) => hashBackupCode(code, options.secret))))
        return { type: "backupCodes.generated", codes }
      } catch (error) {
        return { type: "write.failed", error }
      }
    },
    renameFactor: async ({ request }) => {
      try {
        await adapter.renameFactor!(request!.factorId!, factorName(request?.name))
        return { type: "factor.renamed" }
      } catch (error) {
        return { type: "write.failed", error }
      }
    },
    removeFactor: async ({ request }) => {
      try {
        await adapter.deleteFactor!(request!.factorId!)
        return { type: "factor.removed" }
      } catch (error) {
        return { type: "write.failed", error }
      }
    },
  }
}

/** JSON for a JSON body or `Accept: application/json`; pages and redirects for forms. */
function wantsJson(options: AuthOptions): boolean {
  const type = options.request.headers.get("content-type") ?? ""
  return type.includes("application/json") || (options.request.method === "GET" && (options.request.headers.get("accept") ?? "").includes("application/json"))
}

function json(status: number, body: unknown, cookies: Cookie[]): ResponseInternal {
  return { status, body, headers: { "Content-Type": "application/json" }, cookies }
}

async function page(rendered: Promise<{ status: number; html: string }>, cookies: Cookie[]): Promise<ResponseInternal> {
  const { status, html } = await rendered
  return { status, headers: { "Content-Type": "text/html; charset=utf-8" }, body: html, cookies }
}

const pages = () => import("../../pages/factors.js")
/** The factors page module and the request's language, loaded together. */
const pagesIn = (options: AuthOptions) => Promise.all([pages(), requestTranslator(options.config.i18n, options.request, ["secondFactor"])])

function outcomes(options: AuthOptions, cookies: Cookie[], state: FactorsRequestState, snapshot: Awaited<ReturnType<typeof runFlow<typeof factorsMachine>>>): FlowOutcomes<typeof factorsMachine, Answer | Promise<Answer>> {
  const asJson = wantsJson(options)
  const flowSite = enrolmentFlow.site(options, site)
  const ended = () => [...cookies, ...(state.opened ? enrolmentFlow.clear(flowSite) : [])]
  const list = `${options.baseUrl}/factors`
  /** A refusal: JSON with its status, or back to the list with a notice. */
  const refused = (status: number, notice: string) => () => (asJson ? json(status, { error: notice }, ended()) : { redirect: `${list}?notice=${notice}`, cookies: ended() })
  const failed = ({ error }: FactorsContext) => errorAnswer(new CallbackRouteError(asError(error), { cause: { provider: "factors" } }), ended())
  return {
    awaitingRequest: refused(400, "invalid-request"),
    awaitingConfirmation: async ({ enrolment, codeRefused }) => {
      const flowId = newFlowId()
      const sealed = await enrolmentFlow.seal(flowSite, snapshot, flowId, await enrolmentFlow.issue(flowSite, flowId))
      const bytes = (await openFactorSecret(enrolment!.secret, options.secret))!
      const secret = base32Encode(bytes)
      const uri = otpauthUri({ issuer: (options.secondFactor!.issuer ?? options.request.url.hostname).replaceAll(":", ""), accountName: enrolment!.accountName, secret: bytes, algorithm: enrolment!.algorithm, digits: enrolment!.digits, period: enrolment!.period })
      if (asJson) return json(codeRefused ? 400 : 200, { otpauthUri: uri, secret, ...(codeRefused && { error: "wrong-code" }) }, [...cookies, ...sealed])
      return page(pagesIn(options).then(([{ renderEnrolPage }, text]) => renderEnrolPage({ action: list, csrfToken: options.csrfToken, qrSvg: qrCodeSvg(uri), secret, codeRefused: codeRefused === true, theme: options.theme, text })), [...cookies, ...sealed])
    },
    listed: ({ factors, backupCodes }) =>
      asJson
        ? json(200, { factors, backupCodes }, cookies)
        : page(pagesIn(options).then(([{ renderFactorsPage }, text]) => renderFactorsPage({ action: list, csrfToken: options.csrfToken, factors: factors!, backupCodes: backupCodes!, notice: noticeText(options.request.query.notice, text), theme: options.theme, text })), cookies),
    enrolled: ({ created }) => (asJson ? json(200, { factor: created }, ended()) : { redirect: `${list}?notice=enrolled`, cookies: ended() }),
    backupCodesShown: ({ created, newBackupCodes }) =>
      asJson
        ? json(200, { ...(created && { factor: created }), backupCodes: newBackupCodes }, ended())
        : page(pagesIn(options).then(([{ renderBackupCodesPage }, text]) => renderBackupCodesPage({ codes: newBackupCodes!, continueUrl: list, theme: options.theme, text })), ended()),
    done: () => (asJson ? json(200, { ok: true }, ended()) : { redirect: `${list}?notice=saved`, cookies: ended() }),
    signedOut: () => (asJson ? json(401, { error: "signed-out" }, ended()) : { redirect: `${options.baseUrl}/signin?${new URLSearchParams({ callbackUrl: list })}`, cookies: ended() }),
    csrfRejected: () => errorAnswer(new MissingCSRF("CSRF token was missing during an action factors"), ended()),
    rateLimited: (context) => errorAnswer(rateLimitedError("second-factor", context, state.limiter), ended()),
    // A confirmation sent again: the enrolment ended with the first one; the log names the replay.
    flowReplayed: () => {
      options.logger.debug("a second-factor enrolment was confirmed again: the copy is refused")
      return refused(409, "enrolment-ended")()
    },
    enrolmentOfOtherUser: refused(403, "enrolment-of-other-user"),
    unknownFactor: refused(404, "unknown-factor"),
    invalidRequest: refused(400, "invalid-request"),
    attemptsExhausted: refused(400, "attempts-exhausted"),
    removalRefused: refused(403, "removal-refused"),
    failed,
  }
}

// The catalog message of each `?notice=` of the list.
const NOTICES: Readonly<Record<string, KeysOf<"secondFactor">>> = Object.freeze({
  enrolled: "factorsNoticeEnrolled",
  saved: "factorsNoticeSaved",
  "unknown-factor": "factorsNoticeUnknownFactor",
  "invalid-request": "factorsNoticeInvalidRequest",
  "attempts-exhausted": "factorsNoticeAttemptsExhausted",
  "removal-refused": "factorsNoticeRemovalRefused",
  "enrolment-of-other-user": "factorsNoticeEnrolmentOfOtherUser",
  "enrolment-ended": "factorsNoticeEnrolmentEnded",
})

function noticeText(notice: string | undefined, text: Translator<KeysOf<"secondFactor">>): string | undefined {
  return notice !== undefined && Object.hasOwn(NOTICES, notice) ? text.t(NOTICES[notice]!) : undefined
}

/**
 * GET and POST `/factors` (see the module).
 *
 * @example
 * ```ts
 * // POST /auth/factors  (csrfToken, action=enrol) → the enrolment page with its QR code
 * // POST /auth/factors  (csrfToken, action=confirm, code=123456) → the backup codes, shown once
 * ```
 */
export async function factorsAction(options: AuthOptions, cookies: Cookie[]): Promise<Answer> {
  const body = options.request.body ?? {}
  const text = (value: unknown) => (typeof value === "string" ? value : undefined)
  const asked = options.request.method === "GET" ? "list" : text(body.action)
  const action = asked === "list" || (asked !== undefined && actions.has(asked)) ? (asked as FactorsAction) : undefined
  const state: FactorsRequestState = { limiter: requestLimiter(options) }
  const flowSite = enrolmentFlow.site(options, site)
  if (action === "confirm") {
    const opened = await enrolmentFlow.open(flowSite, options.request.cookies)
    if (opened instanceof FlowCookieRefused) {
      // No enrolment waits here (it expired, ended, or belongs to another browser): start again.
      const ended = [...cookies, ...enrolmentFlow.clear(flowSite)]
      return wantsJson(options) ? json(409, { error: "enrolment-ended" }, ended) : { redirect: `${options.baseUrl}/factors?notice=enrolment-ended`, cookies: ended }
    }
    state.opened = opened
  }
  const resume: FactorsEvent = {
    type: "request.received",
    request: {
      ...(action !== undefined && { action }),
      ...(text(body.factorId) !== undefined && { factorId: text(body.factorId)! }),
      ...(text(body.name) !== undefined && { name: text(body.name)! }),
      ...(text(body.code) !== undefined && { code: text(body.code)! }),
      policy: { maxAttempts: options.secondFactor!.maxAttempts },
    },
  }
  const snapshot = await runFlow(factorsMachine, effects(options, state), {
    inspect: options.config.inspect,
    resume,
    ...(state.opened && { snapshot: state.opened.snapshot, id: enrolmentFlow.actorId(state.opened.flowId) }),
  })
  return outcomeOf(snapshot, outcomes(options, cookies, state, snapshot))
}
