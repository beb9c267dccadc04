"use client"
import { useState } from "react"
import { signIn } from "authflow/client/passkey"

/**
 * Passkeys, through `authflow/client/passkey`: create one for an email (a new account), or sign in
 * with one already on this device (no email needed: the passkey names its account).
 */
export function PasskeyForm({ redirectTo }: { redirectTo: string }) {
  const [email, setEmail] = useState("")
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function run(action: "register" | "authenticate") {
    setProblem(null)
    setBusy(true)
    try {
      // Redirects to redirectTo when it worked; to the error page when the server refused.
      await signIn("passkey", action === "register" ? { action, email, redirectTo } : { action, redirectTo })
    } catch (error) {
      // The browser's prompt was cancelled or timed out (a DOMException), or the network failed.
      setProblem(error instanceof Error && error.name === "NotAllowedError" ? "The passkey prompt was closed." : "Could not use a passkey.")
      setBusy(false)
    }
  }

  return (
    <section aria-label="Passkey">
      <h2>Passkey</h2>
      {problem ? <p role="alert">{problem}</p> : null}
      <form
        onSubmit={(event) => {
          event.preventDefault()
          void run("register")
        }}
      >
        <label>
          Email
          <input name="email" type="email" autoComplete="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </label>
        <button type="submit" disabled={busy}>
          Create a passkey
        </button>
      </form>
      <p>
        <button type="button" disabled={busy} onClick={() => void run("authenticate")}>
          Use a passkey
        </button>
      </p>
    </section>
  )
}
