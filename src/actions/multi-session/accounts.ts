import { multiSessionMachine } from "../../machines/multi-session.js"
import { csrfCheckEffect } from "../../machines/csrf-check.js"
import { runFlowWithCookies, type FlowEffects } from "../../machines/run-flow.js"
import { outcomeOf, type FlowOutcomes } from "../flow-outcomes.js"
import { AccountNotFound, MissingCSRF, SessionTokenError } from "../../core/errors.js"
import { errorAnswer, noCacheHeaders, type Answer } from "../../core/answer.js"
import { asError } from "../../core/as-error.js"
import { chunkIndexOf } from "../../core/cookies/session-store.js"
import { sessionAction } from "../session.js"
import { accountId, activate, readActive, readOthers, readSessionToken, writeOthers, type OtherSession, type ReadSession } from "./others.js"
import type { AuthOptions } from "../../core/options.js"
import type { Cookie, ResponseInternal, Session } from "../../types.js"

/** One other signed-in account, as `GET /sessions` lists it: its id (for `account`), and what the `session` callback answered for it. */
export type ListedAccount = Session & { id: string }

/** The body of `GET /sessions`: the active session exactly as `/session` answers it, and the browser's other accounts. */
export interface AccountsList {
  active: Session | null
  others: ListedAccount[]
}

/**
 * A session read as `/session` reads it, for one token: the `session` callback's answer (and the
 * cookies a sliding expiry re-issues, the new token among them), or `null` when it is no longer
 * alive (expired, revoked, refused by the `jwt` callback).
 */
async function readAsSession(options: AuthOptions, token: string): Promise<{ session: Session; token: string } | null> {
  const name = options.cookies.sessionToken.name
  const read = await sessionAction({ ...options, request: { ...options.request, cookies: { [name]: token } } }, [])
  const session = "body" in read ? read.body : null
  if (!session) return null
  const written = read.cookies ?? []
  // The re-issued token (a JWT's sliding expiry), whole or in chunks, replaces the kept one.
  const parts = written.filter((cookie) => cookie.value !== "" && chunkIndexOf(cookie.name, name) !== undefined).sort((a, b) => chunkIndexOf(a.name, name)! - chunkIndexOf(b.name, name)!)
  return { session: session as Session, token: parts.length ? parts.map((cookie) => cookie.value).join("") : token }
}

/**
 * GET `/sessions` (`multiSession` on): the active session, answered exactly as `/session` answers
 * it (and re-issued the same way), and the others, each through the `session` callback. Others
 * that are no longer alive, or that are the active user's, are dropped, and the others cookie is
 * rewritten.
 *
 * @example
 * ```ts
 * const { active, others } = await (await fetch("/auth/sessions")).json()
 * // others: [{ id: "u2", user: { name: "Bo", email: "bo@example.com" }, expires: "…" }]
 * ```
 */
export async function listAccounts(options: AuthOptions, cookies: Cookie[]): Promise<ResponseInternal<AccountsList>> {
  const read = await sessionAction(options, cookies)
  const active = ("body" in read ? read.body : null) ?? null
  const stored = await readOthers(options)
  const others: ListedAccount[] = []
  const kept: OtherSession[] = []
  // An account signed in again without "use another account" is active: its older session is not also another account.
  const activeUser = stored.length ? (await readActive(options))?.userId : undefined
  for (const other of stored) {
    if (activeUser !== undefined && other.u === activeUser) continue
    const found = await readAsSession(options, other.t)
    if (!found) continue
    kept.push({ ...other, t: found.token })
    others.push({ ...found.session, id: accountId(other, kept.length - 1) })
  }
  const changed = kept.length !== stored.length || kept.some((other, index) => other.t !== stored[index]!.t)
  const written = changed ? await writeOthers(options, kept) : []
  // The active session's cookies as `/session` answers them (issued again, or cleared), then the others'.
  return { status: 200, headers: { "Content-Type": "application/json", ...noCacheHeaders }, body: { active, others }, cookies: [...(read.cookies ?? cookies), ...written] }
}

/** Whether the request asked for JSON (a `fetch` from the client, not a form post). */
function wantsJson(options: AuthOptions): boolean {
  const { headers } = options.request
  return (headers.get("content-type") ?? "").includes("application/json") || (headers.get("accept") ?? "").startsWith("application/json")
}

/** Where an account's flow goes from `others`: the index of `account` among them. */
function indexOfAccount(others: readonly OtherSession[], account: unknown): number {
  return typeof account === "string" && account !== "" ? others.findIndex((other, index) => accountId(other, index) === account) : -1
}

/**
 * The `AccountNotFound` answer: 404 JSON for a JSON request, else the error page.
 *
 * @example
 * ```ts
 * return accountNotFound(options, cookies)
 * ```
 */
export function accountNotFound(options: AuthOptions, cookies: Cookie[]): Answer {
  const error = new AccountNotFound("No account with this id is signed in in this browser", { cause: { account: String(options.request.body?.account ?? "") } })
  if (wantsJson(options)) return { status: 404, headers: { "Content-Type": "application/json" }, body: { error: error.type, message: error.message }, cookies }
  return errorAnswer(error, cookies)
}

/**
 * POST `/sessions/switch` (`multiSession` on; `csrfToken`, `account`): the account named (an id
 * from `GET /sessions`) becomes the active one, and the active one moves into the others. The
 * answer is the new active session as `/session` answers it (JSON), or a redirect to the callback
 * URL for a form post. An unknown account is `AccountNotFound`.
 *
 * @example
 * ```ts
 * // POST /auth/sessions/switch  csrfToken=…&account=u2 → 302 to the callback URL, u2 active
 * ```
 */
export async function switchAccount(options: AuthOptions, cookies: Cookie[]): Promise<Answer> {
  const account = options.request.body?.account
  let others: OtherSession[] = []
  let index = -1
  let target: ReadSession | null = null
  const effects: FlowEffects<typeof multiSessionMachine> = {
    ...csrfCheckEffect(options),
    findAccount: async () => {
      const active = await readActive(options)
      if (active?.userId !== undefined && active.userId === account) return { type: "account.active" }
      others = await readOthers(options)
      index = indexOfAccount(others, account)
      target = index < 0 ? null : await readSessionToken(options, others[index]!.t)
      return target ? { type: "account.found" } : { type: "account.missing" }
    },
    switchAccount: async () => {
      try {
        const active = await readActive(options)
        const rest = others.filter((_, at) => at !== index)
        const moved: OtherSession[] = active ? [{ t: active.token, a: Date.now(), ...(active.userId !== undefined && { u: active.userId }) }] : []
        const switched = [...activate(options, target!), ...(await writeOthers(options, [...moved, ...rest]))]
        // The auth context (second factors) is the previous user's: it does not carry over.
        const context = options.cookies.authContext
        if (options.request.cookies[context.name] === undefined) return { type: "account.switched", cookies: switched }
        return { type: "account.switched", cookies: [...switched, { name: context.name, value: "", options: { ...context.options, maxAge: 0 } }] }
      } catch (error) {
        return { type: "switch.failed", error }
      }
    },
    findPrevious: () => ({ type: "marker.absent" }),
    dropOldest: () => ({ type: "oldest.dropped" }),
    keepPrevious: () => ({ type: "previous.kept" }),
    findSignOutTarget: () => ({ type: "target.missing" }),
    endOthers: () => ({ type: "others.ended" }),
    endOther: () => ({ type: "other.ended" }),
  }
  const switched = async (_: unknown, written: readonly Cookie[]): Promise<Answer> => {
    if (!wantsJson(options)) return { redirect: options.callbackUrl, cookies: [...cookies, ...written] }
    // The new active session, read as /session reads it (the active one, when it was asked for).
    const session = target ? ((await readAsSession(options, (target as ReadSession).token))?.session ?? null) : await activeSession(options)
    return { status: 200, headers: { "Content-Type": "application/json", ...noCacheHeaders }, body: session, cookies: [...cookies, ...written] }
  }
  const unused = async (): Promise<Answer> => errorAnswer(new AccountNotFound("Not a switch"), cookies)
  const outcomes: FlowOutcomes<typeof multiSessionMachine, Promise<Answer>> = {
    csrfRejected: async () => errorAnswer(new MissingCSRF("CSRF token was missing during an action sessions/switch"), cookies),
    switched,
    switchFailed: async ({ error }) => errorAnswer(new SessionTokenError(asError(error)), cookies),
    accountNotFound: async () => accountNotFound(options, cookies),
    replaced: unused,
    added: unused,
    keepFailed: unused,
    endAll: unused,
    promoteNext: unused,
    otherEnded: unused,
  }
  const input = { operation: "switch" as const, policy: { maxAccounts: options.multiSession!.maxAccounts } }
  return outcomeOf(await runFlowWithCookies(multiSessionMachine, effects, { inspect: options.config.inspect, input }), outcomes)
}

/** The active session as `/session` answers it. */
async function activeSession(options: AuthOptions): Promise<Session | null> {
  const read = await sessionAction(options, [])
  return ("body" in read ? read.body : null) ?? null
}
