/**
 * Whether a failed password sign-in's time tells if the account exists: 200 sign-ins through
 * `Auth()` with a wrong password for a known email and 200 with an unknown email, interleaved (the
 * order alternates each round), with the default scrypt cost. Prints the median and the mean of
 * each, their difference, and as the noise to compare it with the difference between the first and
 * the second half of the known-email sign-ins.
 *
 *   npm run bench:password-enumeration        (ROUNDS=200, LN=17 by default)
 */
import { performance } from "node:perf_hooks"
import { MemoryAdapter } from "../src/adapters/memory.js"
import Password from "../src/providers/password.js"
import { hashPassword } from "../src/core/password/index.js"
import { Auth } from "../src/index.js"
import type { AuthConfig } from "../src/types.js"

const ROUNDS = Number(process.env.ROUNDS ?? 200)
const hashing = { scrypt: { ln: Number(process.env.LN ?? 17) } }
const adapter = MemoryAdapter()
const user = await adapter.createUser({ id: "", email: "ada@example.test", emailVerified: null } as never)
await adapter.linkAccount({ userId: user.id, type: "credentials" as never, provider: "password", providerAccountId: user.id, refresh_token: await hashPassword("correct horse battery", hashing) })
const config: AuthConfig = { secret: "bench-secret-0123456789abcdef0123456789", trustHost: true, adapter, providers: [Password({ hashing })], rateLimit: false, logger: { error() {}, warn() {}, debug() {} } }

/** A CSRF token and its cookie, made once: every sign-in posts them. */
const csrf = await Auth(new Request("https://app.test/auth/csrf"), config)
const { csrfToken } = (await csrf.json()) as { csrfToken: string }
const cookie = csrf.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ")

async function signIn(email: string): Promise<number> {
  const body = new URLSearchParams({ csrfToken, email, password: "wrong horse battery", callbackUrl: "https://app.test/" })
  const started = performance.now()
  const response = await Auth(new Request("https://app.test/auth/callback/password", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", cookie }, body }), config)
  const elapsed = performance.now() - started
  if (response.headers.get("location") !== "https://app.test/auth/signin?error=CredentialsSignin&code=credentials") throw new Error(`unexpected answer ${response.status} ${response.headers.get("location")}`)
  return elapsed
}

const known: number[] = []
const unknown: number[] = []
await signIn("ada@example.test")
await signIn("nobody@example.test")
for (let round = 0; round < ROUNDS; round++) {
  if (round % 2 === 0) {
    known.push(await signIn("ada@example.test"))
    unknown.push(await signIn("nobody@example.test"))
  } else {
    unknown.push(await signIn("nobody@example.test"))
    known.push(await signIn("ada@example.test"))
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length
const ms = (value: number) => `${value.toFixed(2)} ms`
const half = Math.floor(known.length / 2)
console.log(`password sign-in enumeration, node ${process.version}, scrypt ln=${hashing.scrypt.ln}, ${ROUNDS} sign-ins each, interleaved`)
console.log(`  wrong password, known email   median ${ms(median(known))}   mean ${ms(mean(known))}`)
console.log(`  unknown email                 median ${ms(median(unknown))}   mean ${ms(mean(unknown))}`)
console.log(`  unknown - known               median ${ms(median(unknown) - median(known))} (${((median(unknown) / median(known) - 1) * 100).toFixed(2)}%)   mean ${ms(mean(unknown) - mean(known))}`)
console.log(`  noise: known, 2nd half - 1st  median ${ms(median(known.slice(half)) - median(known.slice(0, half)))}   mean ${ms(mean(known.slice(half)) - mean(known.slice(0, half)))}`)
