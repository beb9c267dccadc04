/**
 * Several signed-in accounts from the browser (`multiSession` on the server): list them, switch the
 * active one, add another. Signing one out is {@link signOut} with `account`.
 *
 * @module
 */
import { announceSessionChange } from "./broadcast.js"
import { authUrl } from "./config.js"
import { ClientFetchError, requestJson, send } from "./fetch.js"
import { currentHref, navigate } from "./navigate.js"
import { getCsrfToken } from "./session.js"
import type { Session } from "./types.js"

/** One other signed-in account: its `id` (for {@link switchAccount} and `signOut({ account })`) and its session as the `session` callback answered it. */
export type OtherAccount = Session & { id: string }

/** The browser's accounts, as `GET /sessions` answers them. */
export interface Accounts {
  /** The active session, exactly as `getSession()` reads it; `null` when nobody is signed in. */
  active: Session | null
  /** The other signed-in accounts, the most recently active first. */
  others: OtherAccount[]
}

/**
 * The browser's signed-in accounts: the active one and the others.
 *
 * @example
 * ```ts
 * import { listAccounts } from "authflow/client"
 * const { active, others } = await listAccounts()
 * others.map((account) => account.user?.email)
 * ```
 */
export async function listAccounts(): Promise<Accounts> {
  return requestJson<Accounts>("sessions")
}

/**
 * Makes the account `id` (from {@link listAccounts}) the active one, tells the other tabs, and
 * resolves with its session. Throws `ClientFetchError` (status 404) when that account is not
 * signed in in this browser any more.
 *
 * @example
 * ```ts
 * import { listAccounts, switchAccount } from "authflow/client"
 * const { others } = await listAccounts()
 * const session = await switchAccount(others[0]!.id)
 * ```
 */
export async function switchAccount(id: string): Promise<Session | null> {
  const csrfToken = (await getCsrfToken()) ?? ""
  const answer = await send<Session | null | { error?: string }>("sessions/switch", { json: { csrfToken, account: id } })
  if (!answer.ok) throw new ClientFetchError(`${authUrl("sessions/switch")} answered HTTP ${answer.status}${typeof (answer.data as { error?: unknown } | null)?.error === "string" ? ` (${(answer.data as { error: string }).error})` : ""}`, answer.status)
  announceSessionChange("signin")
  return answer.data as Session | null
}

/** Options of {@link addAccount}. */
export interface AddAccountOptions {
  /**
   * Where the user lands once the other account signed in.
   * @default the current page
   */
  callbackUrl?: string
}

/**
 * Goes to the sign-in page to sign in another account, keeping the signed-in one (`?addAccount=1`).
 *
 * @example
 * ```ts
 * import { addAccount } from "authflow/client"
 * addAccount({ callbackUrl: "/inbox" })
 * ```
 */
export function addAccount(options: AddAccountOptions = {}): void {
  navigate(`${authUrl("signin")}?${new URLSearchParams({ addAccount: "1", callbackUrl: options.callbackUrl ?? currentHref() })}`)
}
