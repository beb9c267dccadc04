// Next.js 16 calls this file's export for every matched request (middleware.ts in Next.js 15).
// `auth` keeps the session cookie fresh and applies `callbacks.authorized`.
export { auth as proxy } from "./auth"

export const config = {
  matcher: ["/((?!api|_next/static|_next/image|favicon.ico).*)"],
}
