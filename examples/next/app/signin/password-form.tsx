"use client"
import { useActionState, useState } from "react"
import type { SignInActionState } from "authflow/next"
import { signInWithPassword } from "../actions"

const messages: Record<string, string> = {
  CredentialsSignin: "Wrong username or password.",
}

/** The credentials form: a refused sign-in shows its error here, and the username stays. */
export function PasswordForm({ redirectTo, error }: { redirectTo: string; error?: string }) {
  const [state, action, pending] = useActionState(signInWithPassword, error ? ({ error } as SignInActionState) : null)
  // Controlled, so that React's reset of the form after the action keeps what was typed.
  const [username, setUsername] = useState("")
  const problem = state?.error ? (messages[state.error] ?? "Could not sign in.") : null
  const invalid = problem ? { "aria-invalid": true, "aria-describedby": "signin-error" } : {}
  return (
    <form action={action}>
      {problem ? (
        <p role="alert" id="signin-error">
          {problem}
        </p>
      ) : null}
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <label>
        Username
        <input name="username" autoComplete="username" required value={username} onChange={(event) => setUsername(event.target.value)} {...invalid} />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required {...invalid} />
      </label>
      <button type="submit" disabled={pending}>
        Sign in
      </button>
    </form>
  )
}
