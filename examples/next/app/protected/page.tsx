import { redirect } from "next/navigation"
import { auth } from "@/auth"
import { signOutAction } from "../actions"

export default async function ProtectedPage() {
  const session = await auth()
  if (!session?.user) redirect(`/signin?${new URLSearchParams({ callbackUrl: "/protected" })}`)
  return (
    <>
      <h1>Protected</h1>
      <p data-testid="server-name">Signed in as {session.user.name ?? session.user.email}</p>
      <p>Session expires {session.expires}</p>
      <form action={signOutAction}>
        <button type="submit">Sign out</button>
      </form>
    </>
  )
}
