import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx", "test/**/*.test.ts", "test/**/*.test.tsx"],
    reporters: ["default", "./test/closing-line.ts"],
    // Generous: the CI machine is shared and slow; the heaviest tests (model-test comparisons, 10,000
    // fuzz cases) take 25–35 s there.
    testTimeout: 120_000,
    // Two files at a time even on a 2-core machine (vitest's default there is one): most of the slow
    // files wait on Chromium, child processes and databases, not the CPU. On a 2-core machine busy with
    // other work, the suite took 878 s with two, against about 1,800 s with one (2026-11-27).
    maxWorkers: 2,
    hookTimeout: 120_000,
  },
})
