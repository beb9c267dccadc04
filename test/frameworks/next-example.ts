/**
 * examples/next as the browser tests and the sign-out stress run (`npm run stress:next-signout`)
 * drive it: how it is built and served, and the Server Action sign-out scenario both check.
 */
import type { Browser, Request } from "playwright-core"
import { submitDemoCredentials, type ExampleApp } from "./example-app.js"
import { cookieNames } from "../helpers.js"

/** examples/next: `next build`, then `next start` (authflow's routes under /api/auth). */
export const nextExample: ExampleApp = {
  name: "next",
  exports: {
    "./client": { types: "./dist/client/index.d.ts", import: "./dist/client/index.js" },
    "./react": { types: "./dist/client/react.d.ts", import: "./dist/client/react.js" },
    "./next": { types: "./dist/frameworks/next/index.d.ts", import: "./dist/frameworks/next/index.js" },
  },
  env: { NEXT_TELEMETRY_DISABLED: "1" },
  build: [{ script: "node_modules/next/dist/bin/next", args: ["build"] }],
  buildName: "next build",
  start: (port) => ({ script: "node_modules/next/dist/bin/next", args: ["start", "-p", String(port), "-H", "127.0.0.1"] }),
  readyPath: "/api/auth/providers",
}

/** The secret the example's server gets in the browser tests and the stress run. */
export const nextExampleSecret = "next-example-secret-next-example-secret"

/** What the browser saw after signing out through the Server Action. */
export interface ServerActionSignOut {
  /** `useSession`'s status on the page the sign-out redirected to. */
  clientStatus: string
  /** `GET /api/auth/session` with the browser's cookies, right after the sign-out. */
  session: unknown
  /** Whether the browser still holds a session cookie then. */
  sessionCookie: boolean
  /** Where `/protected` (a Server Component) and `/middleware-protected` (the proxy) sent the browser. */
  protectedPage: string
  middlewarePage: string
}

/**
 * Signs in with the demo account (the sign-in form's Server Action lands on `/protected`), signs out
 * at once with the protected page's "Sign out" Server Action, and reports what the browser saw. The
 * sign-out is clicked as soon as the page is there, while its link prefetches and `useSession`'s
 * first read may still be on their way: each of them carries the session cookie.
 *
 * @example
 * ```ts
 * const seen = await signOutThroughServerAction(browser, "http://127.0.0.1:3000", (path) => path)
 * ```
 */
export async function signOutThroughServerAction(browser: Browser, base: string, screenshot?: string): Promise<ServerActionSignOut> {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    // Requests whose answer has not come yet: a late answer is what the sign-out must survive. An
    // answer's cookies apply with its headers, so a streamed body still on its way does not count.
    const pending = new Set<Request>()
    page.on("request", (request) => pending.add(request))
    page.on("response", (response) => pending.delete(response.request()))
    page.on("requestfailed", (request) => pending.delete(request))
    await page.goto(`${base}/signin`)
    await submitDemoCredentials(page)
    await page.waitForURL(`${base}/protected`)
    await page.getByRole("button", { name: "Sign out", exact: true }).click()
    await page.waitForURL(`${base}/`)
    const status = page.getByTestId("client-status")
    // Settled: the first read of useSession is done (the status leaves "loading").
    const deadline = Date.now() + 15_000
    let clientStatus = await status.innerText()
    while (clientStatus === "Status: loading" && Date.now() < deadline) {
      await page.waitForTimeout(50)
      clientStatus = await status.innerText()
    }
    // Every request started before now (the protected page's prefetches and session reads) has had
    // its answer. Not "networkidle": a request started later keeps the network busy without mattering.
    const started = [...pending]
    const answered = Date.now() + 30_000
    while (started.some((request) => pending.has(request))) {
      if (Date.now() > answered) throw new Error(`no answer in 30 s: ${started.filter((request) => pending.has(request)).map((request) => `${request.method()} ${request.url()}`).join(", ")}`)
      await page.waitForTimeout(50)
    }
    const session = await (await context.request.get(`${base}/api/auth/session`)).json()
    const sessionCookie = (await context.cookies()).some((c) => c.name === cookieNames.http.sessionToken)
    await page.goto(`${base}/protected`)
    const protectedPage = page.url()
    await page.goto(`${base}/middleware-protected`)
    const middlewarePage = page.url()
    if (screenshot) await page.screenshot({ path: screenshot })
    return { clientStatus, session, sessionCookie, protectedPage, middlewarePage }
  } finally {
    await context.close()
  }
}
