import { defineConfig } from "@solidjs/start/config"

export default defineConfig({
  // Node server output: `node .output/server/index.mjs` (PORT and HOST from the environment).
  server: { preset: "node-server" },
  // Guards the client-rendered protected page (see src/middleware.ts).
  middleware: "src/middleware.ts",
})
