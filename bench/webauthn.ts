/**
 * Passkeys through `Auth()`: the sealed challenge cookie's size, the options payload's size, and
 * the time of a whole registration and a whole authentication (options, CSRF token, callback),
 * with a software authenticator (node:crypto P-256), the memory adapter and JWT sessions, in one
 * process. Three rounds of 20 ceremonies each; prints each round's median and the range.
 *
 *   npm run bench:webauthn
 */
import { MemoryAdapter } from "../src/adapters/memory.js"
import Passkey from "../src/providers/passkey.js"
import { SoftCredential } from "../src/testing/authenticator.js"
import { CookieJar, csrfTokenFor, origin, send } from "../test/helpers.js"
import type { AuthConfig } from "../src/types.js"

const config: AuthConfig = {
  secret: "bench-secret-0123456789abcdef0123456789",
  trustHost: true,
  adapter: MemoryAdapter(),
  providers: [Passkey()],
  experimental: { enableWebAuthn: true },
  logger: { warn() {}, error: (error: Error) => console.error(error), debug() {} },
}

/** The options answer, its size, and the size of each cookie it set (`name=value`). */
async function options(jar: CookieJar, query: Record<string, string>) {
  const response = await send(config, jar, `/webauthn-options/passkey?${new URLSearchParams(query)}`)
  const text = await response.text()
  const cookies = response.headers.getSetCookie().map((header) => header.split(";")[0]!)
  const challenge = cookies.find((cookie) => /challenge/i.test(cookie.split("=")[0]!))
  if (!challenge) throw new Error(`no challenge cookie among ${cookies.map((c) => c.split("=")[0]).join(", ")}`)
  return { body: JSON.parse(text), bytes: new TextEncoder().encode(text).length, challengeBytes: challenge.length }
}

async function callback(jar: CookieJar, action: string, data: unknown): Promise<void> {
  const csrfToken = await csrfTokenFor(config, jar)
  const response = await send(config, jar, "/callback/passkey", { form: { action, data: JSON.stringify(data), csrfToken, callbackUrl: `${origin}/` } })
  if (response.status !== 302 || /error=/.test(response.headers.get("location") ?? "")) throw new Error(`${action} refused: ${response.headers.get("location")}`)
}

let counter = 0
async function registration() {
  const jar = new CookieJar()
  const credential = new SoftCredential("app.test")
  const started = performance.now()
  const { body, bytes, challengeBytes } = await options(jar, { action: "register", email: `user-${counter++}@example.test` })
  await callback(jar, "register", credential.register(body.options, origin))
  return { ms: performance.now() - started, bytes, challengeBytes, credential }
}

async function authentication(credential: SoftCredential) {
  const jar = new CookieJar()
  const started = performance.now()
  const { body, bytes, challengeBytes } = await options(jar, { action: "authenticate" })
  await callback(jar, "authenticate", credential.authenticate(body.options, origin))
  return { ms: performance.now() - started, bytes, challengeBytes }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const range = (values: number[], digits = 1) => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`

for (let warm = 0; warm < 10; warm++) await authentication((await registration()).credential)
const rounds: { register: number; authenticate: number }[] = []
let sizes = { registerOptions: 0, registerCookie: 0, authenticateOptions: 0, authenticateCookie: 0 }
for (let round = 0; round < 3; round++) {
  const registers: number[] = []
  const authenticates: number[] = []
  for (let i = 0; i < 20; i++) {
    const registered = await registration()
    const authenticated = await authentication(registered.credential)
    registers.push(registered.ms)
    authenticates.push(authenticated.ms)
    sizes = { registerOptions: registered.bytes, registerCookie: registered.challengeBytes, authenticateOptions: authenticated.bytes, authenticateCookie: authenticated.challengeBytes }
  }
  rounds.push({ register: median(registers), authenticate: median(authenticates) })
  console.log(`round ${round + 1}: registration median ${rounds.at(-1)!.register.toFixed(2)} ms, authentication median ${rounds.at(-1)!.authenticate.toFixed(2)} ms`)
}
console.log(`\nPasskey (resident key, user verification) through Auth(), memory adapter, JWT sessions:`)
console.log(`  options payload: ${sizes.registerOptions} B (registration, with an email), ${sizes.authenticateOptions} B (authentication)`)
console.log(`  sealed challenge cookie: ${sizes.registerCookie} B (registration), ${sizes.authenticateCookie} B (authentication)`)
console.log(`  registration (options + CSRF + callback): ${range(rounds.map((r) => r.register), 2)} ms (median of 20, over 3 rounds)`)
console.log(`  authentication (options + CSRF + callback): ${range(rounds.map((r) => r.authenticate), 2)} ms (median of 20, over 3 rounds)`)
