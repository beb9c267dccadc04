/**
 * What a second factor adds to a sign-in through `Auth()`: the sealed second-factor cookie's size
 * while the sign-in waits, and the time of a whole password sign-in (CSRF token, credentials
 * callback) without second factors, with them on for a user who has none (the extra lookup), and
 * with an authenticator app (the callback, then the code). Memory adapter, JWT sessions, one
 * process. Three rounds of 20 sign-ins each, the kinds interleaved; prints each round's medians,
 * the range over the rounds, and the ratios measured in the same round.
 *
 *   npm run bench:second-factor
 */
import { MemoryAdapter } from "../src/adapters/memory.js"
import { base32Encode, newTotpSecret, sealFactorSecret } from "../src/core/second-factor/index.js"
import { softwareTotp } from "../src/testing/index.js"
import { adaCredentials, ada, CookieJar, cookieNames, csrfTokenFor, origin, send } from "../test/helpers.js"
import type { AuthConfig } from "../src/types.js"

const secret = "bench-secret-0123456789abcdef0123456789"
const logger = { warn() {}, error: (error: Error) => console.error(error), debug() {} }

async function configs() {
  const withFactor = MemoryAdapter()
  await withFactor.createUser({ ...ada, emailVerified: null })
  const totpSecret = newTotpSecret()
  // A period of one second and no replay of a step: each sign-in of the round needs a fresh code, so the app's step advances with the clock.
  await withFactor.createFactor({ id: "f1", userId: ada.id, type: "totp", name: "Phone", secret: await sealFactorSecret(totpSecret, secret), algorithm: "SHA-1", digits: 6, period: 1, lastUsedStep: null, createdAt: new Date() })
  const without = MemoryAdapter()
  await without.createUser({ ...ada, emailVerified: null })
  const base = { secret, trustHost: true, session: { strategy: "jwt" as const }, providers: [adaCredentials()], logger }
  return {
    off: { ...base, adapter: without } satisfies AuthConfig,
    onNoFactor: { ...base, adapter: without, secondFactor: true } satisfies AuthConfig,
    onWithApp: { ...base, adapter: withFactor, secondFactor: true } satisfies AuthConfig,
    app: softwareTotp(base32Encode(totpSecret), { period: 1 }),
  }
}

async function password(config: AuthConfig, jar: CookieJar): Promise<Response> {
  const csrfToken = await csrfTokenFor(config, jar)
  return send(config, jar, "/callback/credentials", { form: { csrfToken, username: "ada", password: "lovelace", callbackUrl: `${origin}/` } })
}

async function signIn(config: AuthConfig, code?: () => Promise<string>): Promise<{ ms: number; cookieBytes?: number }> {
  const jar = new CookieJar()
  const started = performance.now()
  const first = await password(config, jar)
  let cookieBytes: number | undefined
  if (code) {
    const waiting = first.headers.getSetCookie().filter((header) => /second-factor/.test(header.split("=")[0]!))
    cookieBytes = waiting.reduce((sum, header) => sum + header.split(";")[0]!.length, 0)
    const csrfToken = await csrfTokenFor(config, jar)
    const passed = await send(config, jar, "/second-factor", { form: { csrfToken, method: "totp", code: await code() } })
    if (passed.headers.get("location") !== `${origin}/`) throw new Error(`second factor refused: ${passed.headers.get("location")}`)
  }
  if (!jar.get(cookieNames.https.sessionToken)) throw new Error("no session after the sign-in")
  return { ms: performance.now() - started, ...(cookieBytes !== undefined && { cookieBytes }) }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const range = (values: number[], digits = 2) => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`

const { off, onNoFactor, onWithApp, app } = await configs()
// Warm up: load every module and derive every key once.
for (let i = 0; i < 5; i++) {
  await signIn(off)
  await signIn(onNoFactor)
}
let lastStep = -1
const freshCode = async () => {
  // Wait for a step no sign-in used yet (one second each).
  while (Math.floor(Date.now() / 1000) <= lastStep) await new Promise((resolve) => setTimeout(resolve, 20))
  lastStep = Math.floor(Date.now() / 1000)
  return app.code()
}

const rounds: { off: number; onNoFactor: number; onWithApp: number; cookieBytes: number }[] = []
for (let round = 0; round < 3; round++) {
  const times = { off: [] as number[], onNoFactor: [] as number[], onWithApp: [] as number[] }
  let cookieBytes = 0
  for (let i = 0; i < 20; i++) {
    times.off.push((await signIn(off)).ms)
    times.onNoFactor.push((await signIn(onNoFactor)).ms)
    const code = await freshCode()
    const withApp = await signIn(onWithApp, async () => code)
    times.onWithApp.push(withApp.ms)
    cookieBytes = withApp.cookieBytes ?? 0
  }
  const result = { off: median(times.off), onNoFactor: median(times.onNoFactor), onWithApp: median(times.onWithApp), cookieBytes }
  rounds.push(result)
  console.log(
    `round ${round + 1}: password only ${result.off.toFixed(2)} ms, second factors on (no app) ${result.onNoFactor.toFixed(2)} ms, password + app code ${result.onWithApp.toFixed(2)} ms (×${(result.onWithApp / result.off).toFixed(2)}), waiting cookies ${cookieBytes} bytes`,
  )
}
console.log(`
medians of 20 sign-ins, range over 3 rounds:
  password only (secondFactor off)          ${range(rounds.map((r) => r.off))} ms
  secondFactor on, user without an app      ${range(rounds.map((r) => r.onNoFactor))} ms  (×${range(rounds.map((r) => r.onNoFactor / r.off))})
  password, then the app's code             ${range(rounds.map((r) => r.onWithApp))} ms  (×${range(rounds.map((r) => r.onWithApp / r.off))}; +${range(rounds.map((r) => r.onWithApp - r.off))} ms)
  second-factor cookie and binding while waiting: ${range(rounds.map((r) => r.cookieBytes), 0)} bytes (name=value)`)
