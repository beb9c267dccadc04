import { component$ } from "@builder.io/qwik"
import { Form, useLocation } from "@builder.io/qwik-city"
import { useSignIn } from "../plugin@auth"

export default component$(() => {
  const signIn = useSignIn()
  const location = useLocation()
  const redirectTo = location.url.searchParams.get("callbackUrl") ?? "/protected"
  const failure = signIn.value?.failed ? signIn.value : undefined
  return (
    <main>
      <h1>Sign in</h1>
      {location.url.searchParams.get("error") === "CredentialsSignin" && <p role="alert">Wrong username or password.</p>}
      <Form action={signIn}>
        <input type="hidden" name="providerId" value="credentials" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <label>
          Username <input name="options.username" autoComplete="username" />
        </label>
        <label>
          Password <input name="options.password" type="password" autoComplete="current-password" />
        </label>
        <button>Sign in</button>
      </Form>
      {failure && (
        <pre data-testid="signin-failure">
          {JSON.stringify({
            failed: failure.failed,
            formErrors: failure.formErrors,
            fieldErrors: Object.fromEntries(Object.entries(failure.fieldErrors).map(([field, errors]) => [field, errors ?? null])),
          })}
        </pre>
      )}
    </main>
  )
})
