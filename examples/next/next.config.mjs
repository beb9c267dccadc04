import { fileURLToPath } from "node:url"

const here = fileURLToPath(new URL(".", import.meta.url))

/** @type {import("next").NextConfig} */
const nextConfig = {
  // The example sits inside the authflow repository, which has a lockfile of its own: keep the
  // build rooted here.
  turbopack: { root: here },
  outputFileTracingRoot: here,
  poweredByHeader: false,
}

export default nextConfig
