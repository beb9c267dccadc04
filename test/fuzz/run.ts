/**
 * `npm run fuzz`: sends `--runs` cases (default 100,000: half any request, half a nearly valid one)
 * to the fuzzed apps and prints, per property, how many cases it was checked on and how many broke
 * it (with examples). Exits 1 if any property broke.
 *
 *   npm run fuzz -- --runs 20000 --seed 7
 */
import fc from "fast-check"
import { anyCase, nearlyValidCase, type FuzzCase } from "./cases.js"
import { formatTally, newTally, record, runCase, watchProcess } from "./properties.js"
import { createWorld } from "./world.js"

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`)
  const value = at === -1 ? undefined : Number(process.argv[at + 1])
  return value === undefined || Number.isNaN(value) ? fallback : value
}

const runs = option("runs", 100_000)
const seed = option("seed", Date.now() % 2 ** 31)
const batch = 500

const world = await createWorld()
// After the world is built: the watcher counts (and so swallows) unhandled rejections from then on.
watchProcess()
const tally = newTally()
const arbitrary = fc.oneof(anyCase(world), nearlyValidCase(world))
const started = performance.now()
let done = 0
for (let round = 0; done < runs; round++) {
  const cases: FuzzCase[] = fc.sample(arbitrary, { seed: seed + round, numRuns: Math.min(batch, runs - done) })
  for (const c of cases) {
    record(tally, c, await runCase(world, c))
    done++
  }
  if (round % 20 === 19) console.error(`… ${done} cases`)
}
await world.close()
console.log(`seed ${seed}`)
console.log(formatTally(tally, done, performance.now() - started))
process.exitCode = Object.values(tally).some((t) => t.violations) ? 1 : 0
