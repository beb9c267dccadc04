import { auth } from "@/auth"

export default async function MiddlewareProtectedPage() {
  // The proxy already refused signed-out visitors; this only shows who got through.
  const session = await auth()
  return (
    <>
      <h1>Protected by the proxy</h1>
      <p data-testid="middleware-name">Let through: {session?.user?.name ?? "nobody"}</p>
    </>
  )
}
