import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx", "test/**/*.test.ts", "test/**/*.test.tsx"],
    reporters: ["default", "./test/closing-line.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
