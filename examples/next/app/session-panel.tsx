"use client"
import { signOut, useSession } from "authflow/react"

/** The session as the browser sees it, through useSession. */
export function SessionPanel() {
  const { data, status, update } = useSession()
  return (
    <section aria-label="Client session">
      <h2>useSession</h2>
      <p data-testid="client-status">Status: {status}</p>
      {data?.user ? (
        <>
          <p data-testid="client-name">Client sees: {data.user.name}</p>
          <button type="button" onClick={() => void update({ name: "Ada King" })}>
            Change name to Ada King
          </button>{" "}
          <button type="button" onClick={() => void signOut({ redirectTo: "/" })}>
            Sign out (client)
          </button>
        </>
      ) : null}
    </section>
  )
}
