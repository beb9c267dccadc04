/**
 * Whether a Password provider's answer time tells if an account exists, through `Auth()` with the
 * default scrypt cost: for each flow, 200 requests naming a known address and 200 naming an unknown
 * one, interleaved (the order alternates each round). Prints the median and the mean of each, their
 * difference, and as the noise to compare it with the difference between the first and the second
 * half of the known-address requests.
 *
 * - sign-in: a wrong password for a known email, against an unknown email;
 * - sign-up (verification required): a taken address, against a new one;
 * - forgot password: a known address (a reset link mailed), against an unknown one (nothing mailed).
 *
 *   npm run bench:password-enumeration        (ROUNDS=200, LN=17, FLOWS=sign-in,sign-up,forgot by default)
 *   VERIFY_BY=code npm run bench:password-enumeration   (sign-up answers with the code page: a sealed flow either way)
 */
import { performance } from "node:perf_hooks"
import { MemoryAdapter } from "../src/adapters/memory.js"
import Password from "../src/providers/password.js"
import { hashPassword } from "../src/core/password/index.js"
import { Auth } from "../src/index.js"
import type { AuthConfig } from "../src/types.js"

const ROUNDS = Number(process.env.ROUNDS ?? 200)
const FLOWS = (process.env.FLOWS ?? "sign-in,sign-up,forgot").split(",")
const hashing = { scrypt: { ln: Number(process.env.LN ?? 17) } }
const verifyBy = (process.env.VERIFY_BY ?? "link") as "link" | "code" | "both"
const signedUp = verifyBy === "link" ? "https://app.test/auth/signin?notice=verify-email" : "https://app.test/auth/verify-request?provider=password&type=code"
const adapter = MemoryAdapter()
const user = await adapter.createUser({ id: "", email: "ada@example.test", emailVerified: new Date() } as never)
await adapter.linkAccount({ userId: user.id, type: "credentials" as never, provider: "password", providerAccountId: user.id, refresh_token: await hashPassword("correct horse battery", hashing) })
// The app's mailer: a resolved promise, so the flows' own time is measured (a real mailer's time is the app's to hide).
const config: AuthConfig = { secret: "bench-secret-0123456789abcdef0123456789", trustHost: true, adapter, providers: [Password({ hashing, verification: "required", verifyBy, sendMail: async () => {} })], rateLimit: false, logger: { error() {}, warn() {}, debug() {} } }

/** A CSRF token and its cookie, made once: every request posts them. */
const csrf = await Auth(new Request("https://app.test/auth/csrf"), config)
const { csrfToken } = (await csrf.json()) as { csrfToken: string }
const cookie = csrf.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ")

async function post(path: string, form: Record<string, string>, expected: string): Promise<number> {
  const body = new URLSearchParams({ csrfToken, callbackUrl: "https://app.test/", ...form })
  const started = performance.now()
  const response = await Auth(new Request(`https://app.test/auth/${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", cookie }, body }), config)
  const elapsed = performance.now() - started
  if (response.headers.get("location") !== expected) throw new Error(`${path}: unexpected answer ${response.status} ${response.headers.get("location")}`)
  return elapsed
}

let fresh = 0
const flows: Record<string, { known: () => Promise<number>; unknown: () => Promise<number>; labels: [string, string] }> = {
  "sign-in": {
    labels: ["wrong password, known email", "unknown email"],
    known: () => post("callback/password", { email: "ada@example.test", password: "wrong horse battery" }, "https://app.test/auth/signin?error=CredentialsSignin&code=credentials"),
    unknown: () => post("callback/password", { email: "nobody@example.test", password: "wrong horse battery" }, "https://app.test/auth/signin?error=CredentialsSignin&code=credentials"),
  },
  "sign-up": {
    labels: ["taken address", "new address"],
    known: () => post("signup/password", { email: "ada@example.test", password: "another horse battery" }, signedUp),
    unknown: () => post("signup/password", { email: `new-${fresh++}@example.test`, password: "another horse battery" }, signedUp),
  },
  forgot: {
    labels: ["known address", "unknown address"],
    known: () => post("forgot-password/password", { email: "ada@example.test" }, "https://app.test/auth/signin?notice=reset-sent"),
    unknown: () => post("forgot-password/password", { email: "nobody@example.test" }, "https://app.test/auth/signin?notice=reset-sent"),
  },
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length
const ms = (value: number) => `${value.toFixed(2)} ms`
console.log(`password enumeration, node ${process.version}, scrypt ln=${hashing.scrypt.ln}, ${ROUNDS} requests each, interleaved`)
for (const name of FLOWS) {
  const flow = flows[name]
  if (!flow) throw new Error(`FLOWS: unknown flow ${name} (sign-in, sign-up, forgot)`)
  const known: number[] = []
  const unknown: number[] = []
  await flow.known()
  await flow.unknown()
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      known.push(await flow.known())
      unknown.push(await flow.unknown())
    } else {
      unknown.push(await flow.unknown())
      known.push(await flow.known())
    }
  }
  const half = Math.floor(known.length / 2)
  const [knownLabel, unknownLabel] = flow.labels
  console.log(`${name}`)
  console.log(`  ${knownLabel.padEnd(30)} median ${ms(median(known))}   mean ${ms(mean(known))}`)
  console.log(`  ${unknownLabel.padEnd(30)} median ${ms(median(unknown))}   mean ${ms(mean(unknown))}`)
  console.log(`  ${"unknown - known".padEnd(30)} median ${ms(median(unknown) - median(known))} (${((median(unknown) / median(known) - 1) * 100).toFixed(2)}%)   mean ${ms(mean(unknown) - mean(known))}`)
  console.log(`  ${"noise: known, 2nd half - 1st".padEnd(30)} median ${ms(median(known.slice(half)) - median(known.slice(0, half)))}   mean ${ms(mean(known.slice(half)) - mean(known.slice(0, half)))}`)
}
