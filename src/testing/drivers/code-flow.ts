/**
 * What the drivers of the flows that wait in the browser for an emailed code share (the Password
 * provider's verification and reset codes, the email provider's sign-in code): the roles and
 * events of the code check (src/machines/emailed-code.ts), which paths meet nothing new after a
 * wrong code, and the requests that type the codes.
 *
 * @module
 */
import { EMAIL_CODE_MAX_ATTEMPTS } from "../../machines/emailed-code.js"
import { rateLimitEvents, sendFromCopy, type EventRole } from "./driver.js"
import { expireEmailedCode, type ExpirableCodeFlow } from "./flow-expiry.js"
import type { MachineEvent } from "../transitions.js"
import type { World } from "../world.js"

/** The model's code: its keyed hash, and when it dies. */
export interface ModelCode {
  codeHash: string
  expiresAt: number
}

/**
 * A well-formed code that is not `code`: the wrong code the kit types.
 *
 * @example
 * ```ts
 * wrongCodeOf("999999") // "000000"
 * ```
 */
export function wrongCodeOf(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, "0")
}

/**
 * The roles of a code flow's own events, the same in every emailed-code driver: the sealed flow
 * sent twice or its claim failing, the CSRF token, and the typed code (right, wrong, or past
 * `start.expiresAt`, against the mailed `start.codeHash`). `undefined` for any other event.
 *
 * @example
 * ```ts
 * codeFlowRole({ type: "flow.replayed" }, start) // { condition: "flow cookie sent twice" }
 * ```
 */
export function codeFlowRole(event: MachineEvent, start: ModelCode): EventRole | undefined {
  if (event.type !== "emailCode.hashed") return resumedFlowRole(event)
  if ((event.now as number) >= start.expiresAt) return { condition: "code expired" }
  return (event.hashes as string[]).includes(start.codeHash) ? {} : { condition: "wrong code" }
}

/**
 * The policy a path's `code.submitted` event carried (the request that typed the code brings it),
 * or undefined on a path that typed none.
 *
 * @example
 * ```ts
 * submittedPolicyOf<SignInTailPolicy>([{ type: "code.submitted", policy }]) // policy
 * ```
 */
export function submittedPolicyOf<Policy>(path: readonly MachineEvent[]): Policy | undefined {
  return path.find((event) => event.type === "code.submitted")?.policy as Policy | undefined
}

/**
 * The roles of what a request that resumes a sealed flow meets first, the same in every driver of
 * one (the emailed codes', the second factor's): its cookie sent twice, its claim failing, the
 * CSRF token refused. `undefined` for any other event.
 *
 * @example
 * ```ts
 * resumedFlowRole({ type: "flow.claimFailed", error }) // { condition: "claimFlow failed" }
 * ```
 */
export function resumedFlowRole(event: MachineEvent): EventRole | undefined {
  switch (event.type) {
    case "flow.replayed":
      return { condition: "flow cookie sent twice" }
    case "flow.claimFailed":
      return { condition: "claimFlow failed" }
    case "csrf.invalid":
      return { condition: "csrf.invalid" }
    default:
      return undefined
  }
}

/**
 * The events of a code flow's first request up to the code check: the typed code with each of
 * `policies` (the one the flow recorded, once it did), the sealed flow claimed, sent twice or its
 * claim failing, the limiter's answers, and the code right, wrong, or typed past its end.
 */
export function codeCheckEvents(context: { policy?: unknown }, policies: readonly unknown[], start: ModelCode): MachineEvent[] {
  return [
    ...(context.policy ? [context.policy] : policies).map((policy) => ({ type: "code.submitted", code: "typed", policy })),
    { type: "flow.fresh" },
    { type: "flow.replayed" },
    { type: "flow.claimFailed", error: "the replay store threw" },
    ...rateLimitEvents,
    { type: "emailCode.hashed", hashes: [start.codeHash], now: 1 },
    { type: "emailCode.hashed", hashes: ["another"], now: 1 },
    { type: "emailCode.hashed", hashes: [start.codeHash], now: start.expiresAt },
  ]
}

/**
 * The events of a request after a wrong code: the code typed again with the flow's policy, the
 * flow claimed, within the limits, and the code `hashes` hash to (a wrong one, by default): its
 * faults would take the same transitions as the first request's.
 */
export function codeAgainEvents(context: { policy?: unknown }, hashes: string[] = ["another"]): MachineEvent[] {
  return [{ type: "code.submitted", code: "typed", policy: context.policy }, { type: "flow.fresh" }, rateLimitEvents[0]!, { type: "emailCode.hashed", hashes, now: 1 }]
}

/** True for a path that meets any other condition after a wrong code: the later requests type wrong codes until the last try. */
export function otherThanWrongCodes(path: readonly MachineEvent[], role: (event: MachineEvent) => EventRole): boolean {
  const conditions = path.map((event) => role(event).condition).filter((condition) => condition !== undefined)
  const wrong = conditions.indexOf("wrong code")
  return wrong >= 0 && conditions.slice(wrong).some((condition) => condition !== "wrong code")
}

/**
 * Types the path's wrong codes before its own request, at `route` in the browser the flow waits
 * in: every try but the last (where they run out), each with `form` beside the code. Resolves the
 * code the path's own request types: a wrong one again after wrong ones, else the mailed one.
 */
export async function typeWrongCodes(world: World, route: string, code: string, wrong: number, form: Record<string, string> = {}): Promise<string> {
  for (let attempt = 0; attempt < Math.min(wrong, EMAIL_CODE_MAX_ATTEMPTS - 1); attempt++) await world.send(route, { form: { ...form, code: wrongCodeOf(code), csrfToken: await world.csrfToken() } })
  return wrong > 0 ? wrongCodeOf(code) : code
}

/**
 * The path's own request that types `code` at `route`, as `labels` say: past its end (the kit has
 * no clock: the flow waiting in this browser sealed again with its code expired), without the
 * CSRF token, or with the flow's cookie sent from a copy of the browser first.
 */
export async function typeCode(world: World, labels: ReadonlySet<string | undefined>, route: string, code: string, expiring: { kind: ExpirableCodeFlow; providerId: string }, form: Record<string, string> = {}): Promise<void> {
  if (labels.has("code expired") && !(await expireEmailedCode(world, expiring.kind, expiring.providerId))) return
  const csrfToken = labels.has("csrf.invalid") ? undefined : await world.csrfToken()
  const sent = { ...form, code, ...(csrfToken && { csrfToken }) }
  if (labels.has("flow cookie sent twice")) await sendFromCopy(world, route, { form: sent })
  await world.send(route, { form: sent })
}
