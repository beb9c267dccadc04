/**
 * The OAuth / OpenID Connect callback, GET /callback/<id>: authflow against @auth/core in the same
 * run, against the same in-process stand-in provider. The stand-in answers from memory (discovery,
 * JWKS and each token response are serialised before timing, ID tokens signed when the code is
 * minted), so what is timed is each library's own work: opening its checks (authflow's sealed flow
 * cookie, Auth.js's pkce/state/nonce cookies), validating the response, the code exchange and the
 * ID token, the profile, and issuing the JWT session. Every sign-in (POST /signin → authorization
 * URL → code minted at the stand-in) is prepared beforehand; only the callback is timed. The time
 * spent inside the stand-in is measured too and subtracted.
 *
 *   node --expose-gc --import tsx bench/oauth.ts
 */
import { SignJWT, exportJWK, generateKeyPair } from "jose"
import { Auth as authflow, customFetch as authflowFetch } from "../src/index.js"
import { Auth as authjs, customFetch as authjsFetch } from "@auth/core"
import type { AuthConfig as AuthJsConfig } from "@auth/core"
import { compare, pairedRatio, row } from "./measure.js"
import type { AuthConfig, Provider } from "../src/types.js"

const secret = "bench-secret-0123456789abcdef0123456789"
const origin = "https://bench.test"
const issuer = "https://op.bench.test"
const clientId = "bench-client"
const clientSecret = "bench-client-secret"
const callbackUrl = `${origin}/dashboard`
const sessionCookie = "__Secure-authjs.session-token"

// ── The stand-in provider ─────────────────────────────────────────────────────────────────────────

const keys = await generateKeyPair("RS256")
const jwk = { ...(await exportJWK(keys.publicKey)), kid: "bench-key", alg: "RS256", use: "sig" }
const discoveryBody = JSON.stringify({
  issuer,
  authorization_endpoint: `${issuer}/authorize`,
  token_endpoint: `${issuer}/token`,
  userinfo_endpoint: `${issuer}/userinfo`,
  jwks_uri: `${issuer}/jwks`,
  response_types_supported: ["code"],
  subject_types_supported: ["public"],
  id_token_signing_alg_values_supported: ["RS256"],
  code_challenge_methods_supported: ["S256"],
  authorization_response_iss_parameter_supported: true,
})
const jwksBody = JSON.stringify({ keys: [jwk] })
const json = { "content-type": "application/json" }

/** Token responses by code, ready to send: the ID token was signed when the code was minted. */
const tokenResponses = new Map<string, string>()
/** Time spent inside the stand-in, per library, and how many requests it answered. */
const providerTime = new Map<string, { nanos: bigint; calls: number }>([["authflow", { nanos: 0n, calls: 0 }], ["authjs", { nanos: 0n, calls: 0 }]])
let minted = 0

/** The user consents at the authorization endpoint: a code is minted with its token response. */
async function mintCode(authorizationUrl: URL): Promise<string> {
  const code = `code-${++minted}`
  const nonce = authorizationUrl.searchParams.get("nonce")
  const idToken = await new SignJWT({ sub: "op-user-1", name: "Ada Lovelace", email: "ada@example.test", ...(nonce && { nonce }) })
    .setProtectedHeader({ alg: "RS256", kid: jwk.kid, typ: "JWT" })
    .setIssuer(issuer)
    .setAudience(clientId)
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(keys.privateKey)
  tokenResponses.set(code, JSON.stringify({ access_token: `at-${code}`, token_type: "Bearer", expires_in: 3600, id_token: idToken }))
  return code
}

function codeOf(body: BodyInit | null | undefined): string | null {
  if (body instanceof URLSearchParams) return body.get("code")
  if (typeof body === "string") return new URLSearchParams(body).get("code")
  return null
}

/** The stand-in's `customFetch` for one library: answers from memory and clocks itself. */
function standIn(library: string): typeof fetch {
  const clock = providerTime.get(library)!
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const start = process.hrtime.bigint()
    try {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url
      switch (url) {
        case `${issuer}/.well-known/openid-configuration`:
          return new Response(discoveryBody, { headers: json })
        case `${issuer}/jwks`:
          return new Response(jwksBody, { headers: json })
        case `${issuer}/token`: {
          const code = codeOf(init?.body)
          const body = code === null ? undefined : tokenResponses.get(code)
          if (body === undefined) return Response.json({ error: "invalid_grant" }, { status: 400 })
          tokenResponses.delete(code!)
          return new Response(body, { headers: { ...json, "cache-control": "no-store" } })
        }
        default:
          return new Response("not found", { status: 404 })
      }
    } finally {
      clock.nanos += process.hrtime.bigint() - start
      clock.calls++
    }
  }) as typeof fetch
}

// ── The two libraries, configured alike: OIDC with PKCE, state and nonce, JWT sessions ───────────

const provider = { id: "op", name: "Stand-in OP", type: "oidc" as const, issuer, clientId, clientSecret }
const authflowConfig: AuthConfig = { secret, trustHost: true, providers: [{ ...provider, [authflowFetch]: standIn("authflow") } as unknown as Provider] }
const authjsConfig: AuthJsConfig = {
  secret,
  trustHost: true,
  basePath: "/auth",
  // Auth.js's OIDC default checks only PKCE; authflow always checks state and nonce too.
  providers: [{ ...provider, checks: ["pkce", "state", "nonce"], [authjsFetch]: standIn("authjs") }],
}
type Handler = (request: Request) => Promise<Response>
const libraries: Record<string, Handler> = {
  authflow: (request) => authflow(request, authflowConfig),
  authjs: (request) => authjs(request, authjsConfig),
}

function cookiesOf(response: Response): Map<string, string> {
  const cookies = new Map<string, string>()
  for (const header of response.headers.getSetCookie()) {
    const pair = header.slice(0, header.indexOf(";"))
    const value = pair.slice(pair.indexOf("=") + 1)
    if (value && !/max-age=0/i.test(header)) cookies.set(pair.slice(0, pair.indexOf("=")), value)
  }
  return cookies
}
const cookieHeader = (cookies: Map<string, string>) => [...cookies].map(([name, value]) => `${name}=${value}`).join("; ")

/** A browser at the provider's redirect back: the callback URL and the cookies it will send. */
interface PreparedCallback {
  url: string
  cookie: string
  /** The cookies the library set for the flow itself (what it needs back at the callback). */
  flowCookies: Map<string, string>
}

/** GET /csrf → POST /signin/op → the provider mints a code: everything up to the callback. */
async function prepare(library: string): Promise<PreparedCallback> {
  const handle = libraries[library]!
  const csrf = await handle(new Request(`${origin}/auth/csrf`))
  const cookies = cookiesOf(csrf)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const signIn = await handle(
    new Request(`${origin}/auth/signin/op`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(cookies) },
      body: new URLSearchParams({ csrfToken, callbackUrl }),
    }),
  )
  const location = signIn.headers.get("location")
  if (signIn.status !== 302 || !location?.startsWith(`${issuer}/authorize`)) throw new Error(`${library}: sign-in answered ${signIn.status} ${location}`)
  const set = cookiesOf(signIn)
  const flowCookies = new Map([...set].filter(([name]) => /authflow\.flow|pkce|\.state|\.nonce/.test(name)))
  for (const [name, value] of set) cookies.set(name, value)
  const authorizationUrl = new URL(location)
  const code = await mintCode(authorizationUrl)
  const back = new URLSearchParams({ code, state: authorizationUrl.searchParams.get("state") ?? "", iss: issuer })
  return { url: `${origin}/auth/callback/op?${back}`, cookie: cookieHeader(cookies), flowCookies }
}

async function callback(library: string, prepared: PreparedCallback): Promise<Response> {
  const response = await libraries[library]!(new Request(prepared.url, { headers: { cookie: prepared.cookie } }))
  if (response.status !== 302 || response.headers.get("location") !== callbackUrl) {
    throw new Error(`${library}: callback answered ${response.status} ${response.headers.get("location")}`)
  }
  return response
}

// ── Sanity: both sign the user in, with the same session ──────────────────────────────────────────

const flowSizes = new Map<string, Map<string, string>>()
for (const library of Object.keys(libraries)) {
  const prepared = await prepare(library)
  flowSizes.set(library, prepared.flowCookies)
  const response = await callback(library, prepared)
  const session = cookiesOf(response).get(sessionCookie)
  if (!session) throw new Error(`${library}: no session cookie after the callback`)
  const read = await libraries[library]!(new Request(`${origin}/auth/session`, { headers: { cookie: `${sessionCookie}=${session}` } }))
  const body = (await read.json()) as { user?: { email?: string } } | null
  if (body?.user?.email !== "ada@example.test") throw new Error(`${library}: the session reads ${JSON.stringify(body)}`)
}

// ── Timing ────────────────────────────────────────────────────────────────────────────────────────

const warmup = 100
const rounds = 15
const iterations = 100
const perLibrary = warmup + rounds * iterations
console.log(`Preparing ${perLibrary} sign-ins per library (POST /signin → authorization URL → code minted)…`)
const queues = new Map<string, PreparedCallback[]>()
for (const library of Object.keys(libraries)) {
  const queue: PreparedCallback[] = []
  for (let i = 0; i < perLibrary; i++) queue.push(await prepare(library))
  queues.set(library, queue.reverse())
}
for (const clock of providerTime.values()) {
  clock.nanos = 0n
  clock.calls = 0
}

const consume = async (response: Response) => {
  await response.arrayBuffer()
  response.headers.getSetCookie()
}
console.log(
  `GET /callback/<id>, OIDC code flow with PKCE + state + nonce, JWT session (Node ${process.version}; ${rounds} interleaved rounds of ${iterations}${(globalThis as { gc?: unknown }).gc ? ", GC between rounds" : ""})`,
)
const times = await compare(
  Object.keys(libraries).map((library) => ({
    name: library,
    iterations,
    run: async () => consume(await callback(library, queues.get(library)!.pop()!)),
  })),
  { rounds, warmup },
)

const providerMicros = (library: string) => Number(providerTime.get(library)!.nanos) / 1000 / perLibrary
const providerCalls = (library: string) => providerTime.get(library)!.calls / perLibrary
for (const [library, label] of [["authflow", "authflow"], ["authjs", "@auth/core 0.41.3"]] as const) {
  const total = times.median.get(library)!
  console.log(row(`${label}: callback`, total))
  console.log(row(`  of which inside the stand-in (${providerCalls(library).toFixed(0)} requests)`, providerMicros(library)))
  console.log(row(`  ${label} excluding the provider`, total - providerMicros(library)))
}
// Per round, the ratio of the two libraries' own time (the stand-in's mean share taken off each).
const ownRatio = pairedRatio(
  {
    median: times.median,
    rounds: new Map([...times.rounds].map(([library, values]) => [library, values.map((micros) => micros - providerMicros(library))])),
  },
  "authjs",
  "authflow",
)
console.log(`@auth/core takes ${ownRatio.toFixed(2)}× authflow's time per callback, excluding the provider (${pairedRatio(times, "authjs", "authflow").toFixed(2)}× including it); medians of per-round ratios`)
console.log("Not the same work: authflow verifies the ID token's RS256 signature (JWKS request) and caches discovery; Auth.js fetches discovery on every callback and does not verify the signature.")

// ── What the browser carries between the two requests ─────────────────────────────────────────────

const bytes = (cookies: Map<string, string>) => {
  let values = 0
  let pairs = 0
  for (const [name, value] of cookies) {
    values += Buffer.byteLength(value)
    pairs += Buffer.byteLength(`${name}=${value}`)
  }
  return { values, pairs, names: [...cookies.keys()].join(", ") }
}
const ours = bytes(flowSizes.get("authflow")!)
const theirs = bytes(flowSizes.get("authjs")!)
console.log(`\nFlow state carried to the callback (cookie values; name=value in parentheses):`)
console.log(`  authflow    ${String(ours.values).padStart(5)} bytes (${ours.pairs})  ${ours.names}`)
console.log(`  @auth/core  ${String(theirs.values).padStart(5)} bytes (${theirs.pairs})  ${theirs.names}`)
