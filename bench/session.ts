/**
 * GET /session with a JWT session cookie: authflow against @auth/core on the same request in the
 * same process, and against the floor (the same token decrypted and re-encrypted with node:crypto,
 * plus building the Request and the Response). Also the cost of resuming a flow from its sealed
 * snapshot.
 *
 *   npm run bench
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomUUID, timingSafeEqual } from "node:crypto"
import { Auth as authflow } from "../src/index.js"
import { encode } from "../src/jwt.js"
import { Auth as authjs } from "@auth/core"
import { assign, setup } from "xstate"
import { sealedFlow } from "../src/actions/flow-cookie.js"
import { memoryReplayStore } from "../src/core/replay-store.js"
import { defaultCookies } from "../src/core/cookies/defaults.js"
import { runFlow } from "../src/machines/run-flow.js"
import { createActor } from "xstate"
import { compare, pairedRatio, row } from "./measure.js"

const secret = "bench-secret-0123456789abcdef0123456789"
const origin = "https://bench.test"
const cookieName = "__Secure-authjs.session-token"
const token = await encode({ token: { name: "Ada Lovelace", email: "ada@example.test", picture: null, sub: randomUUID() }, secret, salt: cookieName })

// A browser after its first visit: session, CSRF and callback-url cookies, all valid.
const first = await authflow(new Request(`${origin}/auth/csrf`), { secret, trustHost: true, providers: [] })
const steadyCookies = first.headers.getSetCookie().map((header) => header.split(";")[0]).join("; ")
const cookieHeader = `${steadyCookies}; ${cookieName}=${token}`
// A request that carries only the session cookie: the CSRF and callback-url cookies are minted too.
const sessionOnlyHeader = `${cookieName}=${token}`
const sessionUrl = `${origin}/auth/session`
const newRequest = (cookie = cookieHeader) => new Request(sessionUrl, { headers: { cookie } })

const authflowConfig = { secret, trustHost: true, providers: [] }
const authjsConfig = { secret, trustHost: true, providers: [], basePath: "/auth" }

// Sanity: both read the same session, and authflow's is not an error answer.
for (const [name, run] of [["authflow", () => authflow(newRequest(), authflowConfig)], ["@auth/core", () => authjs(newRequest(), authjsConfig)]] as const) {
  const response = await run()
  const body = (await response.json()) as { user?: { name?: string } } | null
  if (response.status !== 200 || body?.user?.name !== "Ada Lovelace") throw new Error(`${name} did not read the session: ${response.status} ${JSON.stringify(body)}`)
}
// The two cases differ as they should: steady cookies get only the session cookie back; a request
// with only the session cookie also gets a new CSRF cookie and the callback-url cookie.
for (const [header, expected] of [[cookieHeader, 1], [sessionOnlyHeader, 3]] as const) {
  const cookies = (await authflow(newRequest(header), authflowConfig)).headers.getSetCookie()
  if (cookies.length !== expected) throw new Error(`expected ${expected} Set-Cookie headers, got ${cookies.length}: ${cookies.map((c) => c.split("=")[0]).join(", ")}`)
}

// The floor: the least work any implementation must do for this request, answered with the same
// response (body, no-cache headers, the session cookie with its attributes).
const key = Buffer.from(hkdfSync("sha256", secret, cookieName, `Auth.js Generated Encryption Key (${cookieName})`, 64))
const macKey = key.subarray(0, 32)
const encKey = key.subarray(32)
const header = token.split(".")[0]!
function tag(aad: string, iv: Buffer, ciphertext: Buffer): Buffer {
  const al = Buffer.alloc(8)
  al.writeBigUInt64BE(BigInt(aad.length * 8))
  return createHmac("sha512", macKey).update(aad).update(iv).update(ciphertext).update(al).digest().subarray(0, 32)
}
async function floor(cookieHeader?: string): Promise<Response> {
  const request = newRequest(cookieHeader)
  const cookie = request.headers.get("cookie")!
  const jwe = cookie.slice(cookie.indexOf(`${cookieName}=`) + cookieName.length + 1)
  const [protectedHeader, , ivText, ciphertextText, tagText] = jwe.split(".") as [string, string, string, string, string]
  const iv = Buffer.from(ivText, "base64url")
  const ciphertext = Buffer.from(ciphertextText, "base64url")
  if (!timingSafeEqual(tag(protectedHeader, iv, ciphertext), Buffer.from(tagText, "base64url"))) throw new Error("bad tag")
  const decipher = createDecipheriv("aes-256-cbc", encKey, iv)
  const claims = JSON.parse(Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8"))
  const now = Math.floor(Date.now() / 1000)
  const fresh = JSON.stringify({ ...claims, iat: now, exp: now + 2592000, jti: randomUUID() })
  const newIv = randomBytes(16)
  const cipher = createCipheriv("aes-256-cbc", encKey, newIv)
  const encrypted = Buffer.concat([cipher.update(fresh, "utf8"), cipher.final()])
  const out = `${header}..${newIv.toString("base64url")}.${encrypted.toString("base64url")}.${tag(header, newIv, encrypted).toString("base64url")}`
  const expires = new Date((now + 2592000) * 1000)
  return new Response(JSON.stringify({ user: { name: claims.name, email: claims.email }, expires: expires.toISOString() }), {
    headers: [
      ["Content-Type", "application/json"],
      ["Cache-Control", "private, no-cache, no-store"],
      ["Expires", "0"],
      ["Pragma", "no-cache"],
      ["Set-Cookie", `${cookieName}=${out}; Path=/; Expires=${expires.toUTCString()}; HttpOnly; Secure; SameSite=Lax`],
    ],
  })
}

const consume = async (response: Response) => {
  await response.text()
  response.headers.getSetCookie()
}
// Two comparisons, each interleaved within itself. The floor comparison runs many short rounds of
// authflow and the floor alone: @auth/core in the same rounds would leave its garbage and its
// compiled code behind in every round of the others. The @auth/core comparison runs on its own.
// Before each round the young generation is collected (bench/measure.ts says why not the whole
// heap); the floor comparison is also run with the whole heap collected, as it was until 2026-11-27.
const collected = (globalThis as { gc?: unknown }).gc !== undefined
console.log(`GET /session with a JWT cookie (Node ${process.version}; interleaved rounds${collected ? ", the young generation collected between rounds" : ""}; wall clock, CPU time in brackets)`)
const floorContenders = [
  { name: "floor", run: async () => consume(await floor()) },
  { name: "authflow", run: async () => consume(await authflow(newRequest(), authflowConfig)) },
  { name: "floor-only", run: async () => consume(await floor(sessionOnlyHeader)) },
  { name: "authflow-only", run: async () => consume(await authflow(newRequest(sessionOnlyHeader), authflowConfig)) },
]
const times = await compare(floorContenders, { rounds: 101, iterations: 100, collect: "young" })
const fullyCollected = collected ? await compare(floorContenders, { rounds: 101, iterations: 100, collect: "full" }) : undefined
const peers = await compare(
  [
    { name: "authflow", run: async () => consume(await authflow(newRequest(), authflowConfig)) },
    { name: "authjs", run: async () => consume(await authjs(newRequest(), authjsConfig)), iterations: 60 },
  ],
  { collect: "young" },
)
const both = (timings: typeof times, name: string) => ` (${timings.cpu.median.get(name)!.toFixed(1)} µs CPU)`
console.log("Against the floor (101 rounds of 100 requests each):")
console.log(row("floor (node:crypto decrypt + encrypt, same Request/Response)", times.median.get("floor")!, both(times, "floor")))
console.log(row("authflow, a browser's steady cookies", times.median.get("authflow")!, both(times, "authflow")))
console.log(row("floor, the session cookie only", times.median.get("floor-only")!, both(times, "floor-only")))
console.log(row("authflow, the session cookie only (CSRF, callback-url minted)", times.median.get("authflow-only")!, both(times, "authflow-only")))
const ratios = (timings: typeof times, a: string, b: string) => `${pairedRatio(timings, a, b).toFixed(2)}× (${pairedRatio(timings.cpu, a, b).toFixed(2)}× in CPU time)`
console.log(`authflow is ${ratios(times, "authflow", "floor")} the floor with a browser's steady cookies (target ≤ 1.3×)`)
console.log(`authflow is ${ratios(times, "authflow-only", "floor-only")} the floor with only the session cookie (target ≤ 1.5×)`)
if (fullyCollected) {
  console.log(`With the whole heap collected before each round instead: floor ${fullyCollected.median.get("floor")!.toFixed(1)} µs, authflow ${ratios(fullyCollected, "authflow", "floor")} it with a browser's steady cookies, ${ratios(fullyCollected, "authflow-only", "floor-only")} with only the session cookie`)
}
console.log("Against @auth/core (21 rounds; 500 and 60 requests each):")
console.log(row("authflow, a browser's steady cookies", peers.median.get("authflow")!, both(peers, "authflow")))
console.log(row("@auth/core 0.41.3", peers.median.get("authjs")!, both(peers, "authjs")))
console.log(`authflow is ${pairedRatio(peers, "authjs", "authflow").toFixed(1)}× faster than @auth/core (${pairedRatio(peers.cpu, "authjs", "authflow").toFixed(1)}× in CPU time; target ≥ 8×); medians of per-round ratios`)

// Resuming a flow from its sealed snapshot: what every OAuth callback pays before its own work.
const flowMachine = setup({
  types: {
    context: {} as { verifier?: string; state?: string; nonce?: string; callbackUrl?: string; code?: string },
    events: {} as { type: "started"; verifier: string; state: string; nonce: string; callbackUrl: string } | { type: "callback"; code: string } | { type: "finished" },
  },
}).createMachine({
  id: "bench-flow",
  context: {},
  initial: "starting",
  states: {
    starting: { meta: { effect: "begin" }, on: { started: { target: "waitingForCallback", actions: assign(({ event }) => ({ verifier: event.verifier, state: event.state, nonce: event.nonce, callbackUrl: event.callbackUrl })) } } },
    waitingForCallback: { on: { callback: { target: "finishing", actions: assign({ code: ({ event }) => event.code }) } } },
    finishing: { meta: { effect: "finish" }, on: { finished: "done" } },
    done: { type: "final" },
  },
})
const flowCookies = { flow: defaultCookies(true).flow, binding: defaultCookies(true).flowBinding }
const benchFlow = sealedFlow({ machine: flowMachine, version: 1, seals: ["verifier", "state", "nonce", "callbackUrl"], cookies: () => flowCookies })
const site = { providerId: "oidc", issuer: "https://issuer.test", secret, cookies: flowCookies, replayStore: memoryReplayStore() }
const waiting = await runFlow(flowMachine, {
  begin: () => ({ type: "started" as const, verifier: randomBytes(32).toString("base64url"), state: randomBytes(32).toString("base64url"), nonce: randomBytes(32).toString("base64url"), callbackUrl: `${origin}/dashboard` }),
})
const [sealed, browser] = await benchFlow.seal(site, waiting, "bench-flow-id")
const flowJar = { [sealed.name]: sealed.value, [browser.name]: browser.value }
const flowTimes = await compare([
  { name: "seal", run: () => benchFlow.seal(site, waiting, "bench-flow-id") },
  { name: "resume", run: async () => {
  // A fresh store each round: the same sealed flow is resumed again and again here.
  const at = { ...site, replayStore: memoryReplayStore() }
  const opened = await benchFlow.open(at, flowJar)
  if (opened instanceof Error) throw opened
  if (!(await benchFlow.claim(at, opened))) throw new Error("the flow was resumed before")
  const { snapshot } = opened
  const actor = createActor(flowMachine, { snapshot }).start()
  actor.send({ type: "callback", code: "code" })
  return runFlow(flowMachine, { finish: () => ({ type: "finished" as const }) }, { snapshot: actor.getPersistedSnapshot() as never })
  } },
])
const sealMicros = flowTimes.median.get("seal")!
const resumeMicros = flowTimes.median.get("resume")!
console.log(`\nSealed flow cookie: ${sealed.value.length} bytes (PKCE verifier, state, nonce, callbackUrl)`)
console.log(row("seal a waiting flow", sealMicros))
console.log(row("unseal + validate + restore + advance to the end", resumeMicros))
