/**
 * Keeps tabs in step: a session change in one tab makes the others read the session again.
 *
 * Messages go through a `BroadcastChannel` named `next-auth` with the shape
 * `{ event: "session", data: { trigger } }`, so tabs running `next-auth/react` and tabs running
 * authflow's client on the same origin hear each other. Listeners inside the same tab are told
 * directly, since a channel does not deliver a tab's own messages back to it.
 *
 * @module
 */

/** What changed the session. */
export type SessionTrigger = "signin" | "signout" | "update" | "getSession"

/** A message on the `next-auth` channel. */
export interface SessionMessage {
  event: "session"
  data: { trigger: SessionTrigger }
}

/** Name of the channel, shared with `next-auth/react` for compatibility. */
export const channelName = "next-auth"

type Listener = (message: SessionMessage) => void

const localListeners = new Set<Listener>()
let channel: BroadcastChannel | null | undefined

function sharedChannel(): BroadcastChannel | null {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(channelName) : null
    // Outside a browser (server rendering, tests) an open channel must not keep the process alive.
    ;(channel as { unref?: () => void } | null)?.unref?.()
  }
  return channel
}

/**
 * Tells the other tabs (and the listeners in this one) that the session may have changed.
 *
 * @example
 * ```ts
 * announceSessionChange("update")
 * ```
 */
export function announceSessionChange(trigger: SessionTrigger, options: { local?: boolean } = {}): void {
  const message: SessionMessage = { event: "session", data: { trigger } }
  sharedChannel()?.postMessage(message)
  if (options.local ?? true) for (const listener of [...localListeners]) listener(message)
}

/**
 * Calls `listener` whenever a session change is announced, in another tab or in this one.
 * Returns the function that stops listening.
 *
 * @example
 * ```ts
 * const stop = onSessionChange(() => void refresh())
 * ```
 */
export function onSessionChange(listener: Listener): () => void {
  const fromOtherTabs = (event: MessageEvent) => {
    const message = event.data as Partial<SessionMessage> | null
    if (message && typeof message === "object" && message.event === "session") listener(message as SessionMessage)
  }
  const shared = sharedChannel()
  shared?.addEventListener("message", fromOtherTabs)
  localListeners.add(listener)
  return () => {
    shared?.removeEventListener("message", fromOtherTabs)
    localListeners.delete(listener)
  }
}
