import { signInWithPassword } from "../actions"

const messages: Record<string, string> = {
  CredentialsSignin: "Wrong username or password.",
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { callbackUrl, error } = await searchParams
  const redirectTo = typeof callbackUrl === "string" ? callbackUrl : "/protected"
  return (
    <>
      <h1>Sign in</h1>
      {typeof error === "string" ? <p role="alert">{messages[error] ?? "Could not sign in."}</p> : null}
      <form action={signInWithPassword}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <label>
          Username
          <input name="username" autoComplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit">Sign in</button>
      </form>
    </>
  )
}
