import { component$ } from "@builder.io/qwik"
import { Form, Link } from "@builder.io/qwik-city"
import { useSession, useSignOut } from "./plugin@auth"

export default component$(() => {
  const session = useSession()
  const signOut = useSignOut()
  return (
    <main>
      <h1>authflow with Qwik City</h1>
      <p data-testid="status">{session.value ? `Signed in as ${session.value.user?.name}` : "Not signed in"}</p>
      {session.value ? (
        <Form action={signOut}>
          <input type="hidden" name="redirectTo" value="/" />
          <button>Sign out</button>
        </Form>
      ) : (
        <Link href="/signin">Sign in</Link>
      )}
      <p>
        <Link href="/protected">Protected page</Link>
      </p>
    </main>
  )
})
