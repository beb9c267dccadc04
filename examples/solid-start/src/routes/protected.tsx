import { createAsync, type RouteDefinition } from "@solidjs/router"
import { signOut } from "authflow/client"
import { createSignal, onMount, Show } from "solid-js"
import { protectedSession } from "~/session"

/** Server-rendered and protected: without a session, requireSession redirects to "/". */
export const route = { preload: () => protectedSession() } satisfies RouteDefinition

export default function Protected() {
  // deferStream: the redirect is decided before any HTML is sent.
  const session = createAsync(() => protectedSession(), { deferStream: true })
  // Enabled once hydrated: a click on the server-rendered button before then would do nothing.
  const [ready, setReady] = createSignal(false)
  onMount(() => setReady(true))
  return (
    <>
      <h1>Protected (server-rendered)</h1>
      <Show when={session()}>
        {(current) => (
          <>
            <p data-testid="server-name">Signed in as {current().user.name}</p>
            <p data-testid="server-email">{current().user.email}</p>
            <button type="button" disabled={!ready()} onClick={() => signOut({ redirectTo: "/" })}>
              Sign out
            </button>
          </>
        )}
      </Show>
    </>
  )
}
