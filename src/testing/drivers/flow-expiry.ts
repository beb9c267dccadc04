/**
 * Expired emailed codes without a clock: a flow waiting for an emailed code lives sealed in the
 * browser's flow cookie, the code's expiry in its context. Before the request that types the code,
 * the kit opens the browser's flow cookie with your secret and seals the same snapshot again, the
 * code's expiry an hour in the past, so the real engine finds the code expired (as the links of
 * `editLink` are sealed again an hour past their end).
 *
 * @module
 */
import { passwordCodeCookies, passwordCodeFlow } from "../../actions/password/verify-code.js"
import { passwordResetCodeFlow } from "../../actions/password/reset-code.js"
import { codeFlowCookies, emailCodeCookies } from "../../actions/email-code-cookies.js"
import { emailCodeFlow } from "../../actions/email-code.js"
import { secondFactorCookies, secondFactorFlow, secondFactorSite } from "../../actions/second-factor/sealed-flow.js"
import { FlowCookieRefused, type FlowCookies, type FlowSite, type SealedFlow } from "../../actions/flow-cookie.js"
import type { ReplayStore } from "../../core/replay-store.js"
import type { World } from "../world.js"
import type { AnyStateMachine, ContextFrom } from "xstate"

/** How far in the past an expired code's expiry is moved. */
const pastItsEnd = 60 * 60 * 1000

/** Re-sealing neither issues nor claims a flow: the engine claims it at the request that follows. */
const noReplayStore: ReplayStore = { markUsed: () => Promise.reject(new Error("authflow/testing re-seals flows; it never claims them")) }

/** A kind of sealed flow that waits for an emailed code: its sealed flow, its cookies, the id it is bound to, and its context with the code's expiry moved to `expiresAt`. */
interface CodeFlow<TMachine extends AnyStateMachine> {
  flow: SealedFlow<TMachine, { id: string }>
  cookies(world: World): FlowCookies
  providerId?: string
  expire(context: ContextFrom<TMachine>, expiresAt: number): ContextFrom<TMachine>
}

/** The code's expiry, where the flow keeps it at the top of its context. */
const expiresAtTop = <TContext extends { expiresAt: number }>(context: TContext, expiresAt: number): TContext => ({ ...context, expiresAt })

const passwordVerifyCode: CodeFlow<typeof passwordCodeFlow.machine> = {
  flow: passwordCodeFlow,
  cookies: (world) => passwordCodeCookies({ cookies: world.cookies }),
  expire: expiresAtTop,
}

const passwordResetCode: CodeFlow<typeof passwordResetCodeFlow.machine> = {
  flow: passwordResetCodeFlow,
  cookies: (world) => codeFlowCookies({ cookies: world.cookies }, "password-reset-code"),
  expire: expiresAtTop,
}

const emailCode: CodeFlow<typeof emailCodeFlow.machine> = {
  flow: emailCodeFlow,
  cookies: (world) => emailCodeCookies({ cookies: world.cookies }),
  expire: expiresAtTop,
}

const secondFactor: CodeFlow<typeof secondFactorFlow.machine> = {
  flow: secondFactorFlow,
  cookies: (world) => secondFactorCookies({ cookies: world.cookies }),
  providerId: secondFactorSite.id,
  expire: (context, expiresAt) => (context.emailCode ? { ...context, emailCode: { ...context.emailCode, expiresAt } } : context),
}

/** The flows whose emailed code the kit can expire, by name. */
const codeFlows = { "email-code": emailCode, "password-verify-code": passwordVerifyCode, "password-reset-code": passwordResetCode, "second-factor": secondFactor } as const

/** A flow waiting for an emailed code that {@link expireEmailedCode} can expire. */
export type ExpirableCodeFlow = keyof typeof codeFlows

/**
 * Seals the browser's flow of `kind` again with its emailed code expired an hour ago: the same
 * snapshot, flow id and replay-store entry, so the next request resumes it once, as the first
 * claim, and the engine's own clock finds the code past its end. The flow and its binding cookie
 * are both replaced in the browser. Resolves false, the path noted, where the browser holds no
 * such flow (or holds one the engine would refuse anyway).
 *
 * @param providerId - The provider the flow is bound to (for the second factor, none: it has its own).
 * @example
 * ```ts
 * await expireEmailedCode(world, "password-verify-code", "password") // the code typed next is refused as expired
 * ```
 */
export async function expireEmailedCode(world: World, kind: ExpirableCodeFlow, providerId?: string): Promise<boolean> {
  const codeFlow = codeFlows[kind] as CodeFlow<AnyStateMachine>
  const site: FlowSite = { providerId: codeFlow.providerId ?? providerId ?? "", secret: world.config.secret as string | string[], cookies: codeFlow.cookies(world), replayStore: noReplayStore }
  const opened = await codeFlow.flow.open(site, Object.fromEntries([...world.browser.cookies.keys()].map((name) => [name, world.browser.get(name)!])))
  if (opened instanceof FlowCookieRefused) {
    world.note = `the ${kind} flow could not be expired: the browser's flow cookie was refused (${opened.reason})`
    return false
  }
  const { value, context } = opened.snapshot as { value: unknown; context: ContextFrom<AnyStateMachine> }
  const waiting = codeFlow.flow.machine.resolveState({ value: value as never, context: codeFlow.expire(context, Date.now() - pastItsEnd) })
  for (const cookie of await codeFlow.flow.seal(site, waiting, opened.flowId, opened.issued)) world.browser.cookies.set(cookie.name, cookie.value)
  return true
}
