import { component$ } from "@builder.io/qwik"
import { Form, type RequestHandler } from "@builder.io/qwik-city"
import { useSession, useSignOut } from "../plugin@auth"

/** Runs after the plugin's onRequest, which put the session in sharedMap. */
export const onRequest: RequestHandler = (event) => {
  if (!event.sharedMap.get("session")) {
    throw event.redirect(302, `/signin?callbackUrl=${encodeURIComponent(event.url.pathname)}`)
  }
}

export default component$(() => {
  const session = useSession()
  const signOut = useSignOut()
  return (
    <main>
      <h1>Protected</h1>
      <p data-testid="protected-name">Signed in as {session.value?.user?.name}</p>
      <Form action={signOut}>
        <input type="hidden" name="redirectTo" value="/" />
        <button>Sign out</button>
      </Form>
    </main>
  )
})
