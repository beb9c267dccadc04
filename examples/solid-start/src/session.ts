import { query } from "@solidjs/router"
import { getRequestEvent } from "solid-js/web"
import { getSession, requireSession } from "authflow/solid-start"
import { authConfig } from "~/auth"

/** The session of the current request, or null. */
export const currentSession = query(async () => {
  "use server"
  return getSession(getRequestEvent()!.request, authConfig)
}, "session")

/** The session of a protected page: without one, the router is redirected to "/". */
export const protectedSession = query(async () => {
  "use server"
  return requireSession(getRequestEvent()!, authConfig)
}, "protected-session")
