import { useNavigate } from "@solidjs/router"
import { getSession, type Session } from "authflow/client"
import { createSignal, onMount, Show } from "solid-js"

/**
 * Client-rendered and protected. A page load without a session never gets here: the middleware
 * (src/middleware.ts) redirects it to "/". A client-side navigation does not reach the server, so
 * the page checks the session itself too.
 */
export default function ClientProtected() {
  const navigate = useNavigate()
  const [session, setSession] = createSignal<Session | null>(null)
  onMount(async () => {
    const current = await getSession()
    if (current?.user) setSession(current)
    else navigate("/", { replace: true })
  })
  return (
    <>
      <h1>Protected (client-rendered)</h1>
      <Show when={session()?.user} fallback={<p>Loading the session…</p>}>
        {(user) => <p data-testid="client-name">Client sees: {user().name}</p>}
      </Show>
    </>
  )
}
