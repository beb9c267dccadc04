import { qwikCity } from "@builder.io/qwik-city/vite"
import { qwikVite } from "@builder.io/qwik/optimizer"
import { defineConfig } from "vite"

export default defineConfig(() => ({
  plugins: [qwikCity(), qwikVite()],
  // Bundle authflow into the server build, so that authflow/qwik uses the app's copy of Qwik.
  ssr: { noExternal: ["authflow"] },
}))
