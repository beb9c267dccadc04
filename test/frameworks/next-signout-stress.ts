/**
 * `npm run stress:next-signout`: the Server Action sign-out of examples/next in Chromium, `--runs`
 * times (default 50) beside `--burners` CPU-burning processes (default 2), each run checked as the
 * browser test checks it. Prints one line per failed run and the count; exits 1 if any run failed.
 * Long (a `next build`, then a few seconds a run), so not part of `npm test`.
 *
 *   npm run stress:next-signout -- --runs 50 --burners 2
 *   npm run stress:next-signout -- --runs 20 --no-build    # reuse examples/next/.next as it is
 */
import { spawn, type ChildProcess } from "node:child_process"
import { existsSync } from "node:fs"
import { launchChromium } from "../support/chromium.js"
import { prepareExample, root, startExample } from "./example-app.js"
import { nextExample, nextExampleSecret, signOutThroughServerAction, type ServerActionSignOut } from "./next-example.js"

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`)
  const value = at === -1 ? undefined : Number(process.argv[at + 1])
  return value === undefined || !Number.isInteger(value) || value < 0 ? fallback : value
}

const runs = option("runs", 50)
const burnerCount = option("burners", 2)
/** Each run gets this long before it counts as failed (a hung run must not hang the harness). */
const runTimeout = option("run-timeout", 90) * 1000

if (!process.argv.includes("--no-build") || !existsSync(`${root}examples/next/.next/BUILD_ID`)) {
  const prepared = prepareExample(nextExample)
  console.log(`examples/next: ${prepared.installed}; next build ${prepared.seconds.build} s`)
}

/** What a signed-out browser must see; anything else is a failed run. */
function problemsOf(seen: ServerActionSignOut, base: string): string[] {
  const problems: string[] = []
  if (seen.clientStatus !== "Status: unauthenticated") problems.push(`useSession: ${seen.clientStatus}`)
  if (seen.session !== null) problems.push(`/api/auth/session answered ${JSON.stringify(seen.session)}`)
  if (seen.sessionCookie) problems.push("the session cookie is still set")
  if (seen.protectedPage !== `${base}/signin?callbackUrl=%2Fprotected`) problems.push(`/protected stayed at ${seen.protectedPage}`)
  if (!seen.middlewarePage.startsWith(`${base}/signin?callbackUrl=`)) problems.push(`/middleware-protected stayed at ${seen.middlewarePage}`)
  return problems
}

const server = await startExample(nextExample, { AUTH_SECRET: nextExampleSecret, AUTH_TRUST_HOST: "true" })
const browser = await launchChromium().catch(async (error: unknown) => {
  await server.close()
  throw error
})
const burners: ChildProcess[] = []
const stopBurners = () => {
  for (const burner of burners) if (burner.exitCode === null && burner.signalCode === null) burner.kill("SIGKILL")
}
// Never leave a burner behind, however the harness ends.
process.once("exit", stopBurners)
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130))
for (let i = 0; i < burnerCount; i++) burners.push(spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }))

let failed = 0
const started = performance.now()
try {
  for (let run = 1; run <= runs; run++) {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${runTimeout / 1000} s`)), runTimeout)
    })
    let problems: string[]
    try {
      problems = problemsOf(await Promise.race([signOutThroughServerAction(browser, server.url), timeout]), server.url)
    } catch (error) {
      problems = [`error: ${(error as Error).message.split("\n")[0]}`]
    } finally {
      clearTimeout(timer)
    }
    if (problems.length) {
      failed++
      console.log(`run ${run}: FAILED: ${problems.join("; ")}`)
    } else if (run % 10 === 0) console.log(`run ${run}: ok (${failed} failed so far)`)
  }
} finally {
  stopBurners()
  await browser.close()
  await server.close()
}
const minutes = ((performance.now() - started) / 60_000).toFixed(1)
console.log(`${failed} of ${runs} runs failed (beside ${burnerCount} CPU burners, ${minutes} min)`)
process.exit(failed ? 1 : 0)
