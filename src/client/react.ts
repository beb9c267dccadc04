"use client"
/**
 * React bindings of the browser client (`authflow/react`): `SessionProvider` keeps the session of
 * the page, `useSession` reads it. Wire-compatible with `next-auth/react`: the same routes, the same
 * refetch rules, and tab sync on the same `next-auth` BroadcastChannel.
 *
 * @example
 * ```tsx
 * // app/providers.tsx
 * "use client"
 * import { SessionProvider } from "authflow/react"
 * export default function Providers({ children }: { children: React.ReactNode }) {
 *   return <SessionProvider>{children}</SessionProvider>
 * }
 * ```
 * @module
 */
import { createContext, createElement, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react"
import { announceSessionChange, onSessionChange } from "./broadcast.js"
import { authUrl, configure } from "./config.js"
import { navigate, currentHref } from "./navigate.js"
import { getSession, postSessionUpdate } from "./session.js"
import type { Session } from "./types.js"

import { listAccounts, switchAccount, type Accounts } from "./accounts.js"
import { signOut } from "./sign-out.js"

export { getSession, getCsrfToken, getProviders, signIn, signOut, configure } from "./index.js"
export { addAccount, listAccounts, switchAccount } from "./accounts.js"
export type { ClientSafeProvider, SignInOptions, SignInResponse, SignOutOptions, Session } from "./index.js"
export type { Accounts, AddAccountOptions, OtherAccount } from "./accounts.js"

/** Where the session of the page stands. */
export type SessionStatus = "loading" | "authenticated" | "unauthenticated"

/** Sends data to the server's `jwt` (or `session`) callback and returns the new session. */
export type UpdateSession = (data?: unknown) => Promise<Session | null | undefined>

/**
 * What {@link useSession} returns. `status` is `"authenticated"` with a session, `"unauthenticated"`
 * with `null`, and `"loading"` while the first read or an `update` runs (during an update `data`
 * still holds the previous session).
 */
export type SessionContextValue<Required extends boolean = false> =
  | { update: UpdateSession; data: Session; status: "authenticated" }
  | { update: UpdateSession; data: Session | null; status: "loading" }
  | (Required extends true ? never : { update: UpdateSession; data: null; status: "unauthenticated" })

/** Props of {@link SessionProvider}. */
export interface SessionProviderProps {
  children?: ReactNode
  /**
   * The session the server already knows (from `auth()`), so the first render needs no request.
   * `null` means signed out; leave it out to fetch it on mount.
   */
  session?: Session | null
  /** Path of the auth routes; default `/api/auth`. Configures `authflow/client` for the whole page. */
  basePath?: string
  /** Read the session again every that many seconds (default `0`: never). */
  refetchInterval?: number
  /** Read the session again when the tab becomes visible (default `true`). */
  refetchOnWindowFocus?: boolean
  /** Let `refetchInterval` run while the browser is offline (default `true`). */
  refetchWhenOffline?: boolean
}

const SessionContext = createContext<SessionContextValue | undefined>(undefined)

/**
 * Holds the session for the components below it and keeps it fresh: on mount (unless `session`
 * is given), when the tab becomes visible, every `refetchInterval` seconds, and whenever another
 * tab or this tab's `signIn`/`signOut`/`update` announces a change.
 *
 * @example
 * ```tsx
 * import { auth } from "@/auth"
 * import { SessionProvider } from "authflow/react"
 *
 * export default async function Layout({ children }: { children: React.ReactNode }) {
 *   return <SessionProvider session={await auth()}>{children}</SessionProvider>
 * }
 * ```
 */
export function SessionProvider(props: SessionProviderProps): ReactNode {
  const { children, basePath, refetchInterval = 0, refetchOnWindowFocus = true, refetchWhenOffline = true } = props
  // Before any child effect sends a request; idempotent, so doing it while rendering is safe.
  if (basePath !== undefined) configure({ basePath })

  const hasInitialSession = props.session !== undefined
  const [session, setSession] = useState<Session | null | undefined>(props.session)
  const [loading, setLoading] = useState(!hasInitialSession)
  const known = useRef<Session | null | undefined>(props.session)
  const loadingRef = useRef(loading)

  const accept = useCallback((next: Session | null, announce: boolean) => {
    const previous = known.current
    known.current = next
    setSession(next)
    // A change this tab noticed on its own (an expiry, a refetch) is news for the other tabs.
    if (announce && previous !== undefined && !sameSession(previous, next)) announceSessionChange("getSession", { local: false })
  }, [])

  const refresh = useCallback(
    async (announce: boolean) => {
      const next = await getSession()
      accept(next, announce)
      loadingRef.current = false
      setLoading(false)
    },
    [accept],
  )

  useEffect(() => {
    if (props.session === undefined) return
    known.current = props.session
    setSession(props.session)
    loadingRef.current = false
    setLoading(false)
  }, [props.session])

  useEffect(() => {
    if (known.current === undefined) void refresh(false)
    return onSessionChange(() => void refresh(false))
  }, [refresh])

  useEffect(() => {
    if (!refetchOnWindowFocus || typeof document === "undefined") return
    const onVisibility = () => {
      if (document.visibilityState === "visible") void refresh(true)
    }
    document.addEventListener("visibilitychange", onVisibility)
    return () => document.removeEventListener("visibilitychange", onVisibility)
  }, [refetchOnWindowFocus, refresh])

  useEffect(() => {
    if (!refetchInterval) return
    const timer = setInterval(() => {
      const online = typeof navigator === "undefined" || navigator.onLine !== false
      if (refetchWhenOffline || online) void refresh(true)
    }, refetchInterval * 1000)
    return () => clearInterval(timer)
  }, [refetchInterval, refetchWhenOffline, refresh])

  const update = useCallback<UpdateSession>(
    async (data) => {
      if (loadingRef.current) return undefined
      loadingRef.current = true
      setLoading(true)
      try {
        const next = await postSessionUpdate(data)
        if (next) {
          accept(next, false)
          announceSessionChange("update", { local: false })
        }
        return next
      } finally {
        loadingRef.current = false
        setLoading(false)
      }
    },
    [accept],
  )

  const value = useMemo<SessionContextValue>(() => {
    if (loading) return { data: session ?? null, status: "loading", update }
    return session ? { data: session, status: "authenticated", update } : { data: null, status: "unauthenticated", update }
  }, [session, loading, update])

  return createElement(SessionContext.Provider, { value }, children)
}

/** Options of {@link useSession}. */
export interface UseSessionOptions<Required extends boolean> {
  /** Treat "signed out" as an error: the status stays `"loading"` and `onUnauthenticated` runs. */
  required?: Required
  /** With `required`: what to do when signed out; default: go to the sign-in page. */
  onUnauthenticated?: () => void
}

/**
 * The session of the page: `{ data, status, update }`. Must be used below a {@link SessionProvider}.
 *
 * With `required: true`, a signed-out user is sent to `<basePath>/signin?error=SessionRequired`
 * (or `onUnauthenticated` runs) and `status` never reads `"unauthenticated"`.
 *
 * @example
 * ```tsx
 * "use client"
 * import { useSession } from "authflow/react"
 *
 * export function Greeting() {
 *   const { data, status, update } = useSession()
 *   if (status === "loading") return <p>…</p>
 *   if (!data) return <p>Not signed in</p>
 *   return <button onClick={() => update({ name: "Ada King" })}>{data.user?.name}</button>
 * }
 * ```
 */
export function useSession<Required extends boolean = false>(options: UseSessionOptions<Required> = {}): SessionContextValue<Required> {
  const value = useContext(SessionContext)
  if (!value) throw new Error("useSession() must be called inside a <SessionProvider> (from authflow/react)")
  const { required, onUnauthenticated } = options
  const mustLeave = Boolean(required) && value.status === "unauthenticated"

  useEffect(() => {
    if (!mustLeave) return
    if (onUnauthenticated) onUnauthenticated()
    else navigate(`${authUrl("signin")}?${new URLSearchParams({ error: "SessionRequired", callbackUrl: currentHref() })}`)
  }, [mustLeave, onUnauthenticated])

  if (mustLeave) return { data: null, status: "loading", update: value.update } as SessionContextValue<Required>
  return value as SessionContextValue<Required>
}

function sameSession(a: Session | null, b: Session | null): boolean {
  if (a === null || b === null) return a === b
  // `expires` slides on every read; it is no change of who is signed in or of what the session says.
  const { expires: _a, ...restA } = a
  const { expires: _b, ...restB } = b
  return JSON.stringify(restA) === JSON.stringify(restB)
}

/** What {@link useAccounts} returns. */
export interface AccountsValue {
  /** The browser's accounts; `undefined` until the first listing arrives. */
  accounts: Accounts | undefined
  /** `"loading"` until the first listing arrives. */
  status: "loading" | "ready"
  /** Makes an account active (its `id` from `accounts.others`); the listing and every tab's session follow. */
  switchAccount: (id: string) => Promise<void>
  /** Signs one account out (its `id`), or every account without one; stays on the page. */
  signOut: (account?: string) => Promise<void>
  /** Lists the accounts again. */
  refresh: () => Promise<void>
}

/**
 * The browser's signed-in accounts (`multiSession` on the server), kept up to date when the
 * session changes in any tab, with the account switcher's actions.
 *
 * @example
 * ```tsx
 * import { useAccounts } from "authflow/react"
 *
 * export function AccountSwitcher() {
 *   const { accounts, switchAccount } = useAccounts()
 *   return (
 *     <ul>
 *       {accounts?.others.map((account) => (
 *         <li key={account.id}><button onClick={() => switchAccount(account.id)}>{account.user?.email}</button></li>
 *       ))}
 *     </ul>
 *   )
 * }
 * ```
 */
export function useAccounts(): AccountsValue {
  const [accounts, setAccounts] = useState<Accounts | undefined>(undefined)
  const refresh = useCallback(async () => setAccounts(await listAccounts()), [])
  useEffect(() => {
    void refresh()
    return onSessionChange(() => void refresh())
  }, [refresh])
  const switchTo = useCallback(async (id: string) => {
    await switchAccount(id)
    await refresh()
  }, [refresh])
  const signOutOf = useCallback(async (account?: string) => {
    await signOut({ redirect: false, ...(account !== undefined && { account }) })
    await refresh()
  }, [refresh])
  return useMemo(() => ({ accounts, status: accounts ? "ready" : "loading", switchAccount: switchTo, signOut: signOutOf, refresh }), [accounts, switchTo, signOutOf, refresh])
}
