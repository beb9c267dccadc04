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

const collectGarbage = (globalThis as { gc?: () => void }).gc

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
 * machine does weighs on every contender alike; with `--expose-gc` the heap is collected before
 * each round, so no contender pays for another's garbage.
 *
 * Each round is timed on the wall clock and in process CPU time (`cpu`). For work that never waits
 * (no I/O), CPU time leaves out the time the process spent descheduled, which on a shared machine is
 * most of the noise; it also counts the work of V8's helper threads (parallel GC), which the wall
 * clock of a quiet machine partly hides. More, shorter rounds (`iterations` per round) pair the
 * contenders more closely in time, so the paired ratios drift less with the machine.
 *
 * `collect: false` skips the collection: a forced full collection leaves V8 slower for a while
 * after it (on a 2-core machine, 2026-11-27, the session read's floor took 54–59 µs per request in
 * rounds of 100 after one, 31–32 µs without), so the rounds then show a server's steady state.
 */
export async function compare(contenders: Contender[], { rounds = 21, warmup = 300, iterations: perRound = 500, collect = true } = {}): Promise<Timings & { cpu: Timings }> {
  for (const contender of contenders) for (let i = 0; i < warmup; i++) await contender.run()
  const wall = new Map<string, number[]>(contenders.map((c) => [c.name, []]))
  const cpu = new Map<string, number[]>(contenders.map((c) => [c.name, []]))
  for (let round = 0; round < rounds; round++) {
    for (const { name, run, iterations = perRound } of contenders) {
      if (collect) collectGarbage?.()
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
