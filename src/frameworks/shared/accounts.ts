/**
 * The browser's signed-in accounts (`multiSession`) from server code, shared by the framework
 * wrappers: `GET <basePath>/sessions` and `POST <basePath>/sessions/switch` run in-process through
 * `Auth()` in raw mode on the incoming request's cookies, answered as `authflow/client` answers
 * `listAccounts()` and `switchAccount()`. The cookies they set go back through the framework's
 * cookie API, which each wrapper passes in.
 *
 * The CSRF token is not checked: each framework protects the server code that calls these (Server
 * Actions, form actions, Qwik actions), and the SolidStart wrapper checks the origin.
 *
 * @module
 */
import { Auth } from "../../auth.js"
import { AuthError } from "../../core/errors.js"
import { withClientAddress } from "../../core/rate-limit/peer.js"
import type { Accounts } from "../../client/accounts.js"
import { rawConfig } from "./factors.js"
import type { AuthConfig, Cookie, ResponseInternal, Session } from "../../types.js"

export type { Accounts, OtherAccount } from "../../client/accounts.js"

/** Where an accounts call runs: the framework's view of the incoming request. */
export interface AccountCallContext {
  /** The configuration, as the wrapper completed it (`basePath`, `secret`…). */
  config: Omit<AuthConfig, "raw">
  /** `<basePath>/sessions` on the app's public origin. */
  url: URL
  /** The incoming request's headers: its cookies say who is signed in. */
  headers: Headers
  /** The client's address, where the framework knows it. */
  clientAddress?: string | undefined
  /** Writes the cookies the answer sets through the framework's cookie API. */
  setCookies: (cookies: Cookie[]) => void | Promise<void>
}

/** What `switchAccount` answers on the server: the new active session, or why not (`AccountNotFound`, 404). */
export type SwitchAccountResult = { ok: true; session: Session | null } | { ok: false; error: string; status: number }

async function run(context: AccountCallContext, body?: Record<string, string>): Promise<ResponseInternal> {
  const headers = new Headers(context.headers)
  for (const name of ["content-length", "content-type", "x-auth-return-redirect"]) headers.delete(name)
  headers.set("accept", "application/json")
  if (body) headers.set("content-type", "application/json")
  const url = body ? new URL(`${context.url.pathname}/switch`, context.url) : context.url
  const request = new Request(url, body ? { method: "POST", headers, body: JSON.stringify(body) } : { headers })
  const answer = await Auth(withClientAddress(request, context.clientAddress), rawConfig(context.config))
  // Only the session cookies: the callback URL of an internal request is nobody's.
  const cookies = (answer.cookies ?? []).filter((cookie) => !cookie.name.endsWith("authjs.callback-url"))
  if (cookies.length) await context.setCookies(cookies)
  return answer
}

/**
 * The accounts of the incoming request's browser: the active session (as `/session` reads it) and
 * the others. Throws the `AuthError` authflow logged when `multiSession` is off.
 *
 * @example
 * ```ts
 * const { active, others } = await listAccountsOf({ config, url: new URL("https://app.example/auth/sessions"), headers: request.headers, setCookies })
 * ```
 */
export async function listAccountsOf(context: AccountCallContext): Promise<Accounts> {
  const answer = await run(context)
  if (answer.status === 200 && answer.body && typeof answer.body === "object") return answer.body as Accounts
  throw new AuthError(`Listing the accounts failed: authflow answered HTTP ${answer.status ?? 302}; is \`multiSession\` on?`)
}

/**
 * Makes the account `id` (from the listing) the active one and writes the cookies. An account not
 * signed in in this browser resolves `{ ok: false, error: "AccountNotFound", status: 404 }`.
 *
 * @example
 * ```ts
 * const switched = await switchAccountOf("u2", context)
 * if (switched.ok) return switched.session
 * ```
 */
export async function switchAccountOf(id: string, context: AccountCallContext): Promise<SwitchAccountResult> {
  const answer = await run(context, { account: id })
  const status = answer.status ?? 200
  const body = answer.body as Record<string, unknown> | null | undefined
  if (status === 200 && !answer.redirect) return { ok: true, session: (body ?? null) as Session | null }
  if (body && typeof body.error === "string") return { ok: false, error: body.error, status }
  throw new AuthError(`Switching accounts failed: authflow answered HTTP ${status}; is \`multiSession\` on?`)
}

/** The account functions of a wrapper: `authflow/client`'s names, run in-process. */
export interface ServerAccounts {
  /**
   * The browser's accounts: the active session and the others.
   *
   * @example
   * ```ts
   * const { others } = await listAccounts()
   * ```
   */
  listAccounts(): Promise<Accounts>
  /**
   * Makes another account (its `id` from `listAccounts`) the active one.
   *
   * @example
   * ```ts
   * const switched = await switchAccount(id)
   * if (!switched.ok) return { error: switched.error }
   * ```
   */
  switchAccount(id: string): Promise<SwitchAccountResult>
}

/**
 * The {@link ServerAccounts} functions over a context made for each call (the wrapper reads the
 * incoming request there).
 *
 * @example
 * ```ts
 * const { listAccounts, switchAccount } = serverAccounts(async () => ({ config, url, headers: await incomingHeaders(), setCookies }))
 * ```
 */
export function serverAccounts(contextOf: () => Promise<AccountCallContext>): ServerAccounts {
  return {
    listAccounts: async () => listAccountsOf(await contextOf()),
    switchAccount: async (id) => switchAccountOf(id, await contextOf()),
  }
}
