/**
 * Issue 14, part 1: every route of two apps (JWT and database sessions) fuzzed with fast-check,
 * through the real `Auth()`. CI runs a fixed seed: 10,000 cases, half any request (test/fuzz/cases.ts
 * `anyCase`) and half a legitimate request with one part mutated (`nearlyValidCase`); each property
 * of test/fuzz/properties.ts must hold on every one. `npm run fuzz` runs 100,000 with any seed.
 */
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { anyCase, nearlyValidCase } from "./cases.js"
import { formatTally, newTally, propertyNames, record, runCase, watchProcess } from "./properties.js"
import { createWorld, type FuzzWorld } from "./world.js"

const seed = 20261125
let world: FuzzWorld

beforeAll(async () => {
  world = await createWorld()
  watchProcess()
})
afterAll(async () => {
  await world.close()
})

describe("fuzzing every route (fixed seed)", () => {
  it("10,000 cases keep every property", { timeout: 120_000 }, async () => {
    const tally = newTally()
    const started = performance.now()
    const arbitrary = fc.oneof(anyCase(world), nearlyValidCase(world))
    let cases = 0
    await fc.assert(
      fc.asyncProperty(arbitrary, async (c) => {
        const result = await runCase(world, c)
        record(tally, c, result)
        cases++
        return result.violations.length === 0
      }),
      { seed, numRuns: 10_000, endOnFailure: true },
    )
    const elapsed = performance.now() - started
    console.log(formatTally(tally, cases, elapsed))
    for (const name of propertyNames) expect(tally[name], name).toMatchObject({ violations: 0 })
    // Every property was exercised, most on every case.
    expect(tally["no-unhandled"].checked).toBe(10_000)
    expect(tally["no-5xx"].checked).toBe(10_000)
    expect(tally["location-on-site"].checked).toBeGreaterThan(1_000)
    expect(tally["no-store"].checked).toBeGreaterThan(200)
    expect(elapsed).toBeLessThan(110_000)
  })
})
