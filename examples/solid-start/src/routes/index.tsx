import { createAsync } from "@solidjs/router"
import { signIn, signOut } from "authflow/client"
import { createSignal, onMount, Show } from "solid-js"
import { currentSession } from "~/session"

/** Public. Shows the session read on the server, a credentials sign-in form, and sign-out. */
export default function Home() {
  const session = createAsync(() => currentSession())
  // The form needs the client: its button stays disabled until the page is hydrated.
  const [ready, setReady] = createSignal(false)
  const [error, setError] = createSignal("")
  onMount(() => setReady(true))

  async function submit(event: SubmitEvent) {
    event.preventDefault()
    setError("")
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const result = await signIn("credentials", {
      username: String(form.get("username") ?? ""),
      password: String(form.get("password") ?? ""),
      redirectTo: "/protected",
      redirect: false,
    })
    if (result?.ok && result.url) window.location.assign(result.url)
    else setError(result?.error === "CredentialsSignin" ? "Wrong username or password." : `Sign-in failed (${result?.error ?? "unknown"}).`)
  }

  return (
    <>
      <h1>authflow + SolidStart</h1>
      <Show
        when={session()?.user}
        fallback={
          <>
            <p data-testid="status">Not signed in.</p>
            <form onSubmit={submit}>
              <label>
                Username <input name="username" autocomplete="username" />
              </label>
              <label>
                Password <input name="password" type="password" autocomplete="current-password" />
              </label>
              <button type="submit" disabled={!ready()}>
                Sign in
              </button>
            </form>
            <Show when={error()}>
              <p role="alert">{error()}</p>
            </Show>
            <p>The demo account is ada / lovelace.</p>
          </>
        }
      >
        {(user) => (
          <>
            <p data-testid="status">Signed in as {user().name}</p>
            <button type="button" disabled={!ready()} onClick={() => signOut({ redirectTo: "/" })}>
              Sign out
            </button>
          </>
        )}
      </Show>
    </>
  )
}
