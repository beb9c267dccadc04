/**
 * A path's outcome, how two outcomes differ, and which part of the configuration most likely made
 * them differ.
 *
 * @module
 */
import type { AnyStateMachine } from "xstate"
import type { ResponseSummary } from "./browser.js"

/** What one path did, as recorded in the snapshot file. Nothing in it changes from run to run. */
export interface CaseOutcome {
  /** The state the path's flow ended in (from the inspection events). */
  final: string
  /** The states the flow went through, over all its requests. */
  states: string[]
  /** Each request of the path: status, redirect target, cookies set and cleared. */
  responses: ResponseSummary[]
  /** What `/session` answers afterwards: who is signed in, and the session's fields. */
  session: { user: { name: string | null; email: string | null } | null; fields: string[] } | null
  /** Names of the events fired (`events.signIn`, …), in order. */
  events: string[]
  /** Adapter writes by method name, and how many. */
  adapterWrites: Record<string, number>
  /** Names of the errors logged. */
  errors: string[]
  /** Why the path's own flow did not run, when it did not (`asking for the link ended in accessDenied`). */
  note?: string
}

/** The fields of an outcome in the order a difference lists them. */
const fieldOrder: (keyof CaseOutcome)[] = ["final", "note", "states", "responses", "session", "events", "adapterWrites", "errors"]

/**
 * JSON with keys in sorted order at every level, indented: the same outcome always gives the same
 * text, so snapshot files diff cleanly.
 *
 * @example
 * ```ts
 * stableJson({ b: 1, a: [2] }) // '{\n  "a": [\n    2\n  ],\n  "b": 1\n}'
 * ```
 */
export function stableJson(value: unknown): string {
  return JSON.stringify(sorted(value), null, 2)
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted)
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted((value as Record<string, unknown>)[key])]))
  }
  return value
}

/** Leaves of a JSON value by path (`responses[1].redirect`); arrays of plain values are one leaf. */
function leaves(value: unknown, path = "", into = new Map<string, string>()): Map<string, string> {
  const plainArray = Array.isArray(value) && value.every((item) => item === null || typeof item !== "object")
  if (value && typeof value === "object" && !plainArray) {
    const entries = Array.isArray(value) ? value.map((item, index) => [`[${index}]`, item] as const) : Object.entries(value).map(([key, item]) => [path ? `.${key}` : key, item] as const)
    // An empty container says nothing its counterpart's leaves do not.
    for (const [key, item] of entries) leaves(item, `${path}${key}`, into)
    return into
  }
  into.set(path, JSON.stringify(value))
  return into
}

/** The configuration piece whose answer a state's effect reports. */
function pieceOf(effect: string | undefined, provider: string | undefined, machine: string): string {
  const of = provider ? `providers.${provider}` : "the provider"
  switch (effect) {
    case "askSignIn":
      return "callbacks.signIn changed?"
    case "resolveRedirect":
      return "callbacks.redirect changed?"
    case "authorize":
      return machine === "credentials-sign-in" ? `${of}.authorize changed?` : `${of} (its endpoints) changed?`
    case "fetchProfile":
      return `${of}.profile changed?`
    case "resolveAccount":
      return `${of}.allowDangerousEmailAccountLinking or the adapter changed?`
    case "createSession":
    case "encodeToken":
      return "callbacks.jwt or the session strategy changed?"
    case "normalizeEmail":
      return `${of}.normalizeIdentifier changed?`
    case "sendLink":
      return `${of}.sendVerificationRequest changed?`
    case "checkCsrf":
      return "skipCSRFCheck changed?"
    case "findSession":
    case "decodeToken":
      return "the session strategy or jwt changed?"
    case "discover":
    case "readResponse":
    case "exchangeCode":
    case "validateTokens":
      return `${of} (endpoints, client, checks) changed?`
    default:
      return "the adapter changed?"
  }
}

/** The effect of a top-level state of `machine`. */
function effectOfState(machine: AnyStateMachine, state: string): string | undefined {
  const node = machine.root.states[state]
  return (node?.meta as { effect?: string } | undefined)?.effect
}

function ending(final: string): string {
  switch (final) {
    case "signedIn":
      return "signs in"
    case "signedInNewUser":
      return "signs in, on the new-user page"
    case "signedOut":
      return "signs out"
    case "linkSent":
      return "sends the link"
    default:
      return `ends in ${final}`
  }
}

/** What to look at first when an outcome changed, and the headline that says what changed. */
function headline(machine: AnyStateMachine, provider: string | undefined, before: CaseOutcome, after: CaseOutcome): string {
  if (after.note !== undefined && after.note !== before.note) {
    return `now ${after.note} (was ${before.note ?? before.final}): ${/accessDenied|redirected/.test(after.note) ? "callbacks.signIn changed?" : `${provider ? `providers.${provider}` : "the provider"} changed?`}`
  }
  if (before.final !== after.final || before.states.join() !== after.states.join()) {
    let common = 0
    while (common < before.states.length && before.states[common] === after.states[common]) common++
    const decidedIn = before.states[common - 1] ?? after.states[0] ?? ""
    const what = before.final !== after.final ? `now ${ending(after.final)} (was ${before.final})` : `now goes ${after.states.slice(common).join(" → ")} (was ${before.states.slice(common).join(" → ")})`
    return `${what}: ${pieceOf(effectOfState(machine, decidedIn), provider, machine.id)}`
  }
  const last = (outcome: CaseOutcome) => outcome.responses[outcome.responses.length - 1]?.redirect
  if (last(before) !== last(after)) return `now redirects to ${last(after) ?? "nowhere"} (was ${last(before) ?? "nowhere"}): callbacks.redirect or pages changed?`
  if (JSON.stringify(before.session) !== JSON.stringify(after.session)) return "now has another session: callbacks.session or callbacks.jwt changed?"
  if (before.events.join() !== after.events.join()) return `now fires [${after.events.join(", ")}] (was [${before.events.join(", ")}]): events changed?`
  if (JSON.stringify(sorted(before.adapterWrites)) !== JSON.stringify(sorted(after.adapterWrites))) return "now writes other rows: the adapter changed?"
  if (before.errors.join() !== after.errors.join()) return `now logs [${after.errors.join(", ")}] (was [${before.errors.join(", ")}])`
  return "now answers otherwise: cookies or pages changed?"
}

/**
 * How a path's outcome differs from the one in the snapshot: a headline naming the path, what
 * changed and the configuration piece most likely responsible, then one line per changed value.
 * Undefined when nothing changed.
 *
 * @example
 * ```ts
 * describeDifference(oauthMachine, "github", "oauth github: account.new.emailTaken", before, after)
 * // oauth github: account.new.emailTaken → now signs in (was accountNotLinked): providers.github.allowDangerousEmailAccountLinking or the adapter changed?
 * //   final: "accountNotLinked" → "signedIn"
 * //   …
 * ```
 */
export function describeDifference(machine: AnyStateMachine, provider: string | undefined, name: string, before: CaseOutcome, after: CaseOutcome): string | undefined {
  const ordered = (outcome: CaseOutcome) => Object.fromEntries(fieldOrder.filter((key) => outcome[key] !== undefined).map((key) => [key, sorted(outcome[key])]))
  const was = leaves(ordered(before))
  const now = leaves(ordered(after))
  const rank = (key: string) => fieldOrder.indexOf(/^\w+/.exec(key)?.[0] as keyof CaseOutcome)
  const keys = [...new Set([...was.keys(), ...now.keys()])].sort((a, b) => rank(a) - rank(b))
  const lines: string[] = []
  for (const key of keys) {
    const [from, to] = [was.get(key), now.get(key)]
    if (from === to) continue
    // An empty container on one side only: the other side's own lines say it.
    if ((from === undefined && (to === "[]" || to === "{}")) || (to === undefined && (from === "[]" || from === "{}"))) continue
    lines.push(`  ${key}: ${from ?? "(none)"} → ${to ?? "(none)"}`)
  }
  if (lines.length === 0) return undefined
  return [`${name} → ${headline(machine, provider, before, after)}`, ...lines].join("\n")
}
