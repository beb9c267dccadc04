/** A named operation to time. `iterations` is per round (default: `compare`'s); slow ones take fewer. */
export interface Contender {
  name: string
  run: () => Promise<unknown> | unknown
  iterations?: number
}

/** Per contender: the median µs per call, and the µs per call of every round (in round order). */
export interface Timings {
  median: Map<string, number>
  rounds: Map<string, number[]>
  /** The same rounds timed in process CPU time (user + system, every thread) instead of the wall clock. */
  cpu?: Timings
}

const gc = (globalThis as { gc?: (options?: { type: "minor" }) => void }).gc

/**
 * What is collected before each round: `"full"`, the whole heap (`gc()`); `"young"`, the young
 * generation only (`gc({ type: "minor" })`), where a round's short-lived garbage lives.
 */
export type Collection = "full" | "young"

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** The process's CPU time (user + system) in µs. */
function cpuMicros(): number {
  const { user, system } = process.cpuUsage()
  return user + system
}

function timingsOf(perRound: Map<string, number[]>): Timings {
  return { median: new Map([...perRound].map(([name, values]) => [name, median(values)])), rounds: perRound }
}

/**
 * Times each contender. Rounds are interleaved (A, B, C, A, B, C, …) so that whatever else the
 * machine does weighs on every contender alike; with `--expose-gc` garbage is collected before
 * each round (`collect`), so no contender pays for another's garbage.
 *
 * Each round is timed on the wall clock and in process CPU time (`cpu`). For work that never waits
 * (no I/O), CPU time leaves out the time the process spent descheduled, which on a shared machine is
 * most of the noise; it also counts the work of V8's helper threads (parallel GC), which the wall
 * clock of a quiet machine partly hides. More, shorter rounds (`iterations` per round) pair the
 * contenders more closely in time, so the paired ratios drift less with the machine.
 *
 * `collect` chooses the collection (without `--expose-gc` there is none). A full collection also
 * throws away optimized code that depends on objects it frees ("marking dependent code for
 * deoptimization, reason: weak objects" under `--trace-deopt`: 376 times in 100 rounds of the
 * session read, 2026-11-27, none without it), so each round after one starts by compiling again; a
 * young-generation collection clears the rounds' garbage without that.
 *
 * @default collect "full"
 */
export async function compare(contenders: Contender[], { rounds = 21, warmup = 300, iterations: perRound = 500, collect = "full" as Collection } = {}): Promise<Timings & { cpu: Timings }> {
  for (const contender of contenders) for (let i = 0; i < warmup; i++) await contender.run()
  const wall = new Map<string, number[]>(contenders.map((c) => [c.name, []]))
  const cpu = new Map<string, number[]>(contenders.map((c) => [c.name, []]))
  for (let round = 0; round < rounds; round++) {
    for (const { name, run, iterations = perRound } of contenders) {
      if (collect === "full") gc?.()
      else gc?.({ type: "minor" })
      const startCpu = cpuMicros()
      const start = process.hrtime.bigint()
      for (let i = 0; i < iterations; i++) await run()
      wall.get(name)!.push(Number(process.hrtime.bigint() - start) / 1000 / iterations)
      cpu.get(name)!.push((cpuMicros() - startCpu) / iterations)
    }
  }
  return { ...timingsOf(wall), cpu: timingsOf(cpu) }
}

/** Median over rounds of `a / b` measured in the same round: robust to the machine's drift. */
export function pairedRatio(timings: Timings, a: string, b: string): number {
  const left = timings.rounds.get(a)!
  const right = timings.rounds.get(b)!
  return median(left.map((value, round) => value / right[round]!))
}

export function row(label: string, micros: number, extra = ""): string {
  return `${label.padEnd(58)} ${micros.toFixed(1).padStart(9)} µs${extra}`
}
