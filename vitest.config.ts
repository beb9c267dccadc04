import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx", "test/**/*.test.ts", "test/**/*.test.tsx"],
    reporters: ["default", "./test/closing-line.ts"],
    // Generous: the CI machine is shared and slow; the heaviest tests (model-test comparisons, 10,000
    // fuzz cases) take 25–35 s there.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
})
