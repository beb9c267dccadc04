/** A named operation to time. `iterations` is per round; slow ones take fewer. */
export interface Contender {
  name: string
  run: () => Promise<unknown> | unknown
  iterations?: number
}

/** Per contender: the median µs per call, and the µs per call of every round (in round order). */
export interface Timings {
  median: Map<string, number>
  rounds: Map<string, number[]>
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

/**
 * Times each contender. Rounds are interleaved (A, B, C, A, B, C, …) so that whatever else the
 * machine does weighs on every contender alike; with `--expose-gc` the heap is collected before
 * each round, so no contender pays for another's garbage.
 *
 * `clock: "cpu"` measures the process's CPU time instead of the wall clock: for work that never
 * waits (no I/O), it leaves out the time the process spent descheduled, which on a shared machine
 * is most of the noise. Rounds then need to be long enough for the CPU clock's resolution.
 */
export async function compare(contenders: Contender[], { rounds = 21, warmup = 300, clock = "wall" as "wall" | "cpu" } = {}): Promise<Timings> {
  for (const contender of contenders) for (let i = 0; i < warmup; i++) await contender.run()
  const perRound = new Map<string, number[]>(contenders.map((c) => [c.name, []]))
  for (let round = 0; round < rounds; round++) {
    for (const { name, run, iterations = 500 } of contenders) {
      collectGarbage?.()
      if (clock === "cpu") {
        const start = cpuMicros()
        for (let i = 0; i < iterations; i++) await run()
        perRound.get(name)!.push((cpuMicros() - start) / iterations)
        continue
      }
      const start = process.hrtime.bigint()
      for (let i = 0; i < iterations; i++) await run()
      perRound.get(name)!.push(Number(process.hrtime.bigint() - start) / 1000 / iterations)
    }
  }
  return { median: new Map([...perRound].map(([name, values]) => [name, median(values)])), rounds: perRound }
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
