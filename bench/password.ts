/**
 * The cost of password hashing with the default parameters: the median time of a hash and of a
 * verify for scrypt (N=2^17, r=8, p=1, on node:crypto) and PBKDF2-HMAC-SHA256 (600,000 iterations,
 * on WebCrypto), and the ratio of dummyVerify (an unknown user) to verify (an existing user, wrong
 * password) measured in the same rounds, which must be about 1 for a failed sign-in's time not to
 * tell whether the account exists. One call at a time, rounds interleaved.
 *
 *   npm run bench:password
 */
import { compare, pairedRatio } from "./measure.js"
import { dummyVerify, hashPassword, verifyPassword, type PasswordHashOptions } from "../src/core/password/index.js"

const ROUNDS = Number(process.env.ROUNDS ?? 11)
const password = "correct horse battery staple"
const algorithms: Array<[string, PasswordHashOptions]> = [
  ["scrypt", { algorithm: "scrypt" }],
  ["pbkdf2-sha256", { algorithm: "pbkdf2-sha256" }],
]

const contenders = []
for (const [name, options] of algorithms) {
  const stored = await hashPassword(password, options)
  contenders.push(
    { name: `${name} hash`, run: () => hashPassword(password, options) },
    { name: `${name} verify`, run: () => verifyPassword("correct horse battery stapler", stored, options) },
    { name: `${name} dummyVerify`, run: () => dummyVerify("correct horse battery stapler", options) },
  )
}

const timings = await compare(contenders, { rounds: ROUNDS, warmup: 1, iterations: 1 })
const ms = (micros: number) => `${(micros / 1000).toFixed(1).padStart(7)} ms`
console.log(`password hashing, node ${process.version}, ${ROUNDS} rounds, median wall time (process CPU time)`)
for (const { name } of contenders) console.log(`  ${name.padEnd(36)} ${ms(timings.median.get(name)!)}  (cpu ${ms(timings.cpu.median.get(name)!)})`)
for (const [name] of algorithms) {
  const wall = pairedRatio(timings, `${name} dummyVerify`, `${name} verify`)
  const cpu = pairedRatio(timings.cpu, `${name} dummyVerify`, `${name} verify`)
  console.log(`  ${`${name} dummyVerify / verify`.padEnd(36)} ${wall.toFixed(3).padStart(7)}     (cpu ${cpu.toFixed(3)})`)
}
