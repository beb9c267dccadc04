// proxy.ts (middleware.ts before Next.js 16): keeps sessions alive, applies callbacks.authorized
export { auth as proxy } from "@/auth"

export const config = {
  // Every page, but not authflow's own routes, Next's assets or the images and texts of public/.
  matcher: ["/((?!api/auth/|_next/static/|_next/image|.*\\.(?:ico|png|jpe?g|gif|svg|webp|avif|txt|xml)$).*)"],
}
