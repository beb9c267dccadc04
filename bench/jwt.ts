/**
 * Micro benchmark of session token encode/decode: authflow on node:crypto, authflow on WebCrypto
 * (the portable path), and @auth/core 0.41.3, all with warm keys as on a running server.
 * The contenders run in interleaved rounds and the median round is reported, so a noisy neighbour or
 * a GC pause does not favour whoever ran first.
 *
 * Run: node --import tsx bench/jwt.ts [rounds]
 */
import { performance } from "node:perf_hooks"
import * as authjs from "@auth/core/jwt"
import { encode, decode } from "../src/jwt.js"
import { useNodeCrypto } from "../src/core/jwt/runtime.js"

const secret = "bench-secret-0123456789abcdef0123456789abcdef"
const salt = "authjs.session-token"
const claims = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  picture: "https://example.com/ada.png",
  sub: "6b1f0c3e-9a55-4b7e-8f0d-2c1e5d9a7b44",
}
const rounds = Number(process.argv[2] ?? 9)

interface Contender {
  name: string
  /** Operations per round; the slow WebCrypto paths need fewer to take comparable time. */
  batch: number
  select: () => void
  encode: () => Promise<string>
  decode: (jwe: string) => Promise<unknown>
  jwe?: string
  encodeUs: number[]
  decodeUs: number[]
}

const ours = {
  encode: () => encode({ token: claims, secret, salt }),
  decode: (jwe: string) => decode({ token: jwe, secret, salt }),
}
const contenders: Contender[] = [
  { name: "authflow, node:crypto", batch: 5000, select: () => useNodeCrypto(true), ...ours, encodeUs: [], decodeUs: [] },
  { name: "authflow, WebCrypto (portable)", batch: 500, select: () => useNodeCrypto(false), ...ours, encodeUs: [], decodeUs: [] },
  {
    name: "@auth/core 0.41.3",
    batch: 500,
    select: () => useNodeCrypto(true),
    encode: () => authjs.encode({ token: claims, secret, salt }),
    decode: (jwe: string) => authjs.decode({ token: jwe, secret, salt }),
    encodeUs: [],
    decodeUs: [],
  },
]

async function timePerOp(batch: number, run: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  for (let i = 0; i < batch; i++) await run()
  return ((performance.now() - start) * 1000) / batch
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

for (const contender of contenders) {
  contender.select()
  contender.jwe = await contender.encode()
  const back = (await contender.decode(contender.jwe)) as { sub?: string } | null
  if (back?.sub !== claims.sub) throw new Error(`${contender.name}: the round trip failed`)
  await timePerOp(contender.batch, contender.encode) // warm-up
  await timePerOp(contender.batch, () => contender.decode(contender.jwe!))
}

for (let round = 0; round < rounds; round++) {
  for (const contender of contenders) {
    contender.select()
    contender.encodeUs.push(await timePerOp(contender.batch, contender.encode))
    contender.decodeUs.push(await timePerOp(contender.batch, () => contender.decode(contender.jwe!)))
  }
}
useNodeCrypto(true)

const results = contenders.map((c) => ({ name: c.name, encode: median(c.encodeUs), decode: median(c.decodeUs) }))
const [node, portable, core] = results as [(typeof results)[0], (typeof results)[0], (typeof results)[0]]
const cell = (n: number) => n.toFixed(1).padStart(10)
const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}×`

console.log(`Node ${process.version}; ${JSON.stringify(claims).length}-byte claims; median of ${rounds} interleaved rounds\n`)
console.log(`${"".padEnd(27)}${"encode µs".padStart(10)}${"decode µs".padStart(10)}`)
for (const row of results) console.log(`${row.name.padEnd(27)}${cell(row.encode)}${cell(row.decode)}`)
console.log("")
console.log(`@auth/core vs authflow node:crypto   encode ${ratio(core.encode, node.encode)} slower, decode ${ratio(core.decode, node.decode)} slower`)
console.log(`authflow portable vs node:crypto     encode ${ratio(portable.encode, node.encode)} slower, decode ${ratio(portable.decode, node.decode)} slower`)
console.log(`@auth/core vs authflow portable      encode ${ratio(core.encode, portable.encode)}, decode ${ratio(core.decode, portable.decode)}`)
