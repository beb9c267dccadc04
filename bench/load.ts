/**
 * Sustained load: a `node:http` server running `Auth()` in a child process, loaded from this
 * process over loopback by autocannon at saturation, for authflow and for `@auth/core` under the
 * same load and the same `node:http` bridge:
 *
 * - `jwt`: GET /auth/session with a JWT session cookie (and the CSRF and callback-url cookies a
 *   browser holds);
 * - `database`: GET /auth/session with a database session on SQLite (Kysely adapter, a file);
 * - `credentials`: the credentials sign-in, POST /auth/callback/credentials with the CSRF token.
 *
 * For each: requests per second of both and their ratio, p50/p99 latency, errors (any answer other
 * than 2xx/3xx, socket errors, timeouts: all must be 0), the server's heap (after a full GC)
 * before and after the warm-up and after the run, and for authflow a leak check: the heap after
 * each of 10 rounds of 10,000 requests, which must stay flat.
 *
 *   npm run bench:load                                  # 60 s per run
 *   npm run bench:load -- --duration 5 --leak-requests 1000 --only jwt
 *
 * Options: --duration <s> (60), --warmup <s> (10), --connections <n> (16), --leak-rounds <n> (10),
 * --leak-requests <n> (10000), --only <jwt|database|credentials>[,…], --impl <authflow|authjs>[,…].
 * BENCH_LOAD_NODE_FLAGS passes Node flags to the servers (e.g. "--cpu-prof --cpu-prof-dir=prof").
 */
import { spawn, type ChildProcess } from "node:child_process"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { mkdtempSync, rmSync } from "node:fs"
import { cpus, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { randomUUID } from "node:crypto"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"

const scenarios = ["jwt", "database", "credentials"] as const
const impls = ["authflow", "authjs"] as const
type Scenario = (typeof scenarios)[number]
type Impl = (typeof impls)[number]

/** What the load generator sends, and the status every answer must have. */
interface Fixture {
  port: number
  method: "GET" | "POST"
  path: string
  headers: Record<string, string>
  body?: string
  status: number
}

const secret = "bench-load-secret-0123456789abcdef012345"
const user = { id: "user-ada", name: "Ada Lovelace", email: "ada@example.test" }

// ── The server (child process) ───────────────────────────────────────────────────────────────────

async function serve(impl: Impl, scenario: Scenario): Promise<void> {
  const { toWebRequest, sendWebResponse } = await import("../src/frameworks/node.js")
  const handle = impl === "authflow" ? (await import("../src/index.js")).Auth : (await import("@auth/core")).Auth
  let cleanup = async () => {}
  const config: Record<string, unknown> = { secret, trustHost: true, providers: [], ...(impl === "authjs" && { basePath: "/auth" }) }

  if (scenario === "database") {
    const { KyselyAdapter, createSqliteDatabase, migrateToLatest } = await import("../src/adapters/kysely/index.js")
    const directory = mkdtempSync(join(tmpdir(), "authflow-load-"))
    const db = createSqliteDatabase(join(directory, "load.sqlite"))
    await migrateToLatest(db)
    const adapter = KyselyAdapter(db)
    await adapter.createUser({ ...user, emailVerified: null })
    config.adapter = adapter
    config.sessionToken = randomUUID()
    await adapter.createSession({ sessionToken: config.sessionToken as string, userId: user.id, expires: new Date(Date.now() + 30 * 24 * 3600 * 1000) })
    cleanup = async () => {
      await db.destroy()
      rmSync(directory, { recursive: true, force: true })
    }
  }
  if (scenario === "credentials") {
    const authorize = (credentials: Partial<Record<string, unknown>>) => (credentials.username === "ada" && credentials.password === "analytical" ? user : null)
    const credentials = { username: { label: "Username" }, password: { label: "Password", type: "password" } }
    const Credentials = impl === "authflow" ? (await import("../src/providers/credentials.js")).default : (await import("@auth/core/providers/credentials")).default
    config.providers = [(Credentials as (options: unknown) => unknown)({ credentials, authorize })]
  }
  const { sessionToken, ...authConfig } = config

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === "/__heap") {
      const gc = (globalThis as { gc?: () => void }).gc
      gc?.()
      gc?.()
      res.writeHead(200, { "content-type": "application/json" })
      const cpu = process.cpuUsage()
      res.end(JSON.stringify({ heapUsed: process.memoryUsage().heapUsed, cpuMicros: cpu.user + cpu.system, gc: Boolean(gc) }))
      return
    }
    try {
      await sendWebResponse(res, await (handle as (request: Request, config: unknown) => Promise<Response>)(await toWebRequest(req), authConfig))
    } catch (error) {
      console.error(error)
      if (!res.headersSent) res.writeHead(500)
      res.end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  const base = `http://127.0.0.1:${port}`

  // What a browser holds after its first visit: the CSRF and callback-url cookies.
  const first = await fetch(`${base}/auth/csrf`)
  const { csrfToken } = (await first.json()) as { csrfToken: string }
  const steady = first.headers.getSetCookie().map((header) => header.split(";")[0]).join("; ")
  let fixture: Fixture
  if (scenario === "jwt") {
    const encode = impl === "authflow" ? (await import("../src/jwt.js")).encode : (await import("@auth/core/jwt")).encode
    const token = await encode({ token: { name: user.name, email: user.email, picture: null, sub: user.id }, secret, salt: "authjs.session-token" })
    fixture = { port, method: "GET", path: "/auth/session", headers: { cookie: `${steady}; authjs.session-token=${token}` }, status: 200 }
  } else if (scenario === "database") {
    fixture = { port, method: "GET", path: "/auth/session", headers: { cookie: `${steady}; authjs.session-token=${sessionToken as string}` }, status: 200 }
  } else {
    const body = new URLSearchParams({ csrfToken, username: "ada", password: "analytical", callbackUrl: `${base}/dashboard` }).toString()
    fixture = { port, method: "POST", path: "/auth/callback/credentials", headers: { cookie: steady, "content-type": "application/x-www-form-urlencoded" }, body, status: 302 }
  }
  console.log(`READY ${JSON.stringify(fixture)}`)

  const stop = async () => {
    server.closeAllConnections()
    server.close()
    await cleanup()
    process.exit(0)
  }
  process.on("SIGTERM", () => void stop())
  process.on("SIGINT", () => void stop())
}

// ── The load generator (this process) ─────────────────────────────────────────────────────────────

interface RunResult {
  rps: number
  p50: number
  p99: number
  requests: number
  /** Answers with another status than the expected one (200, or 302 for the sign-in), socket errors, timeouts. */
  errors: number
  detail: string
  /** Server CPU time (user + system) per request during the measured run, in µs. */
  cpuPerRequest?: number
}

interface ImplResult {
  run: RunResult
  heap: { start: number; afterWarmup: number; afterRun: number }
  leak?: number[]
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

async function startServer(impl: Impl, scenario: Scenario): Promise<{ child: ChildProcess; fixture: Fixture }> {
  const script = fileURLToPath(import.meta.url)
  // BENCH_LOAD_NODE_FLAGS="--cpu-prof --cpu-prof-dir=prof" profiles the servers.
  const flags = (process.env.BENCH_LOAD_NODE_FLAGS ?? "").split(" ").filter(Boolean)
  const child = spawn(process.execPath, [...flags, "--expose-gc", "--import", "tsx", script, "--serve", impl, scenario], { stdio: ["ignore", "pipe", "inherit"] })
  let output = ""
  const fixture = await new Promise<Fixture>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const line = /READY (.*)\n/.exec(output)
      if (line) resolve(JSON.parse(line[1]!) as Fixture)
    })
    child.once("exit", (code) => reject(new Error(`${impl} server for ${scenario} exited with ${code}: ${output}`)))
  })
  return { child, fixture }
}

/** The server's heap after a full GC, and the CPU time it has used so far (µs). */
async function statsOf(fixture: Fixture): Promise<{ heap: number; cpuMicros: number }> {
  const answer = (await (await fetch(`http://127.0.0.1:${fixture.port}/__heap`)).json()) as { heapUsed: number; cpuMicros: number; gc: boolean }
  if (!answer.gc) throw new Error("the server runs without --expose-gc: heap figures would include garbage")
  return { heap: answer.heapUsed, cpuMicros: answer.cpuMicros }
}

async function load(fixture: Fixture, connections: number, limit: { duration: number } | { amount: number }): Promise<RunResult> {
  const { default: autocannon } = await import("autocannon")
  const result = await autocannon({
    url: `http://127.0.0.1:${fixture.port}${fixture.path}`,
    method: fixture.method,
    headers: fixture.headers,
    ...(fixture.body !== undefined && { body: fixture.body }),
    connections,
    ...limit,
  })
  // Every answer must have the scenario's status (200, or 302 for the sign-in): anything else, a
  // socket error or a timeout counts as an error.
  const unexpected = Object.entries(result.statusCodeStats).filter(([status]) => Number(status) !== fixture.status)
  const errors = unexpected.reduce((sum, [, { count }]) => sum + count, 0) + result.errors + result.timeouts
  const detail = [
    ...unexpected.map(([status, { count }]) => `${count}× ${status}`),
    result.errors ? `${result.errors} socket errors` : "",
    result.timeouts ? `${result.timeouts} timeouts` : "",
  ].filter(Boolean).join(", ")
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, requests: result.requests.total, errors, detail }
}

/** One request, checked: the server answers what the scenario expects before anything is timed. */
async function sanity(impl: Impl, scenario: Scenario, fixture: Fixture): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${fixture.port}${fixture.path}`, {
    method: fixture.method,
    headers: fixture.headers,
    redirect: "manual",
    ...(fixture.body !== undefined && { body: fixture.body }),
  })
  const text = await response.text()
  const ok = response.status === fixture.status && (scenario === "credentials" ? response.headers.getSetCookie().some((cookie) => cookie.startsWith("authjs.session-token=")) : text.includes(user.name))
  if (!ok) throw new Error(`${impl} ${scenario}: unexpected answer ${response.status} ${text.slice(0, 200)}`)
}

async function measure(impl: Impl, scenario: Scenario, options: { duration: number; warmup: number; connections: number; leakRounds: number; leakRequests: number }): Promise<ImplResult> {
  const { child, fixture } = await startServer(impl, scenario)
  try {
    await sanity(impl, scenario, fixture)
    const start = (await statsOf(fixture)).heap
    await load(fixture, options.connections, { duration: options.warmup })
    const warm = await statsOf(fixture)
    const run = await load(fixture, options.connections, { duration: options.duration })
    const done = await statsOf(fixture)
    // CPU time the server spent per request: what the machine's other load does not inflate much.
    run.cpuPerRequest = (done.cpuMicros - warm.cpuMicros) / Math.max(1, run.requests)
    const afterWarmup = warm.heap
    const afterRun = done.heap
    let leak: number[] | undefined
    if (impl === "authflow" && options.leakRounds > 0) {
      leak = []
      for (let round = 0; round < options.leakRounds; round++) {
        const result = await load(fixture, options.connections, { amount: options.leakRequests })
        if (result.errors) run.errors += result.errors
        leak.push((await statsOf(fixture)).heap)
      }
    }
    return { run, heap: { start, afterWarmup, afterRun }, ...(leak && { leak }) }
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve))
    child.kill("SIGTERM")
    await exited
  }
}

/** Flat: after its first round the heap never rises more than 1 MB (or 5 %) above that round's. */
function leakVerdict(heaps: number[]): string {
  const first = heaps[0]!
  const allowance = Math.max(1024 * 1024, first * 0.05)
  const highest = Math.max(...heaps)
  const growth = heaps.at(-1)! - first
  const flat = highest - first <= allowance
  return `${flat ? "flat (no leak)" : "GROWS (possible leak)"}: ${growth >= 0 ? "+" : ""}${((growth / 1024 / 1024)).toFixed(2)} MB from round 1 to ${heaps.length}, highest ${mb(highest)}`
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      duration: { type: "string", default: "60" },
      warmup: { type: "string", default: "10" },
      connections: { type: "string", default: "16" },
      "leak-rounds": { type: "string", default: "10" },
      "leak-requests": { type: "string", default: "10000" },
      only: { type: "string" },
      impl: { type: "string" },
    },
  })
  const options = {
    duration: Number(values.duration),
    warmup: Number(values.warmup),
    connections: Number(values.connections),
    leakRounds: Number(values["leak-rounds"]),
    leakRequests: Number(values["leak-requests"]),
  }
  for (const [name, value] of Object.entries(options)) {
    if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number, got ${value}`)
  }
  const chosen = values.only ? values.only.split(",") : [...scenarios]
  const chosenImpls = values.impl ? values.impl.split(",") : [...impls]
  for (const name of chosen) if (!scenarios.includes(name as Scenario)) throw new Error(`--only: unknown scenario "${name}" (one of ${scenarios.join(", ")})`)
  for (const name of chosenImpls) if (!impls.includes(name as Impl)) throw new Error(`--impl: unknown implementation "${name}" (one of ${impls.join(", ")})`)

  console.log(`Load on loopback: autocannon in this process, Auth() in a child process (Node ${process.version}, ${cpus().length} CPUs)`)
  console.log(`${options.connections} connections, ${options.warmup} s warm-up, ${options.duration} s measured; leak check ${options.leakRounds} × ${options.leakRequests} requests`)
  console.log(`load average before: ${loadavg().map((value) => value.toFixed(2)).join(" ")}`)
  let failed = false
  const labels: Record<Scenario, string> = {
    jwt: "GET /auth/session, JWT session",
    database: "GET /auth/session, database session (SQLite)",
    credentials: "POST /auth/callback/credentials (sign-in with CSRF)",
  }
  for (const scenario of chosen as Scenario[]) {
    console.log(`\n${labels[scenario]}`)
    const results = new Map<Impl, ImplResult>()
    for (const impl of chosenImpls as Impl[]) {
      const result = await measure(impl, scenario, options)
      results.set(impl, result)
      const { run, heap } = result
      const name = impl === "authflow" ? "authflow" : "@auth/core"
      console.log(
        `  ${name.padEnd(11)} ${run.rps.toFixed(0).padStart(7)} req/s  p50 ${String(run.p50).padStart(3)} ms  p99 ${String(run.p99).padStart(4)} ms  ` +
          `server CPU ${run.cpuPerRequest!.toFixed(0).padStart(5)} µs/request  ${run.requests} requests, ${run.errors} errors${run.detail ? ` (${run.detail})` : ""}`,
      )
      console.log(`              heap ${mb(heap.start)} at start, ${mb(heap.afterWarmup)} after warm-up, ${mb(heap.afterRun)} after the run`)
      if (result.leak) {
        console.log(`              leak check, heap after each round: ${result.leak.map(mb).join(", ")}`)
        console.log(`              ${leakVerdict(result.leak)}`)
        const first = result.leak[0]!
        if (Math.max(...result.leak) - first > Math.max(1024 * 1024, first * 0.05)) failed = true
      }
      if (run.errors) failed = true
    }
    const ours = results.get("authflow")
    const theirs = results.get("authjs")
    if (ours && theirs) {
      console.log(
        `  authflow serves ${(ours.run.rps / theirs.run.rps).toFixed(2)}× the requests per second of @auth/core, ` +
          `at ${(ours.run.cpuPerRequest! / theirs.run.cpuPerRequest!).toFixed(2)}× its server CPU time per request`,
      )
    }
  }
  console.log(`\nload average after: ${loadavg().map((value) => value.toFixed(2)).join(" ")} (other processes on the machine weigh on both alike)`)
  if (failed) {
    console.log("FAILED: errors under load or a growing heap (see above)")
    process.exitCode = 1
  }
}

const serveAt = process.argv.indexOf("--serve")
if (serveAt !== -1) {
  await serve(process.argv[serveAt + 1] as Impl, process.argv[serveAt + 2] as Scenario)
} else {
  await main()
}
