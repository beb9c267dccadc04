/** A named operation to time. `iterations` is per round; slow ones take fewer. */
export interface Contender {
  name: string
  run: () => Promise<unknown> | unknown
  iterations?: number
}

/**
 * Median µs per call of each contender. Rounds are interleaved (A, B, C, A, B, C, …) so that
 * whatever else the machine is doing weighs on every contender alike, and the ratios stay honest.
 */
export async function compare(contenders: Contender[], { rounds = 9, warmup = 300 } = {}): Promise<Map<string, number>> {
  for (const contender of contenders) for (let i = 0; i < warmup; i++) await contender.run()
  const samples = new Map<string, number[]>(contenders.map((c) => [c.name, []]))
  for (let round = 0; round < rounds; round++) {
    for (const { name, run, iterations = 1000 } of contenders) {
      const start = process.hrtime.bigint()
      for (let i = 0; i < iterations; i++) await run()
      samples.get(name)!.push(Number(process.hrtime.bigint() - start) / 1000 / iterations)
    }
  }
  const medians = new Map<string, number>()
  for (const [name, values] of samples) {
    values.sort((a, b) => a - b)
    medians.set(name, values[Math.floor(values.length / 2)]!)
  }
  return medians
}

export function row(label: string, micros: number, extra = ""): string {
  return `${label.padEnd(58)} ${micros.toFixed(1).padStart(9)} µs${extra}`
}
