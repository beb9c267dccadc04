import adapter from "@sveltejs/adapter-node"

/** @type {import("@sveltejs/kit").Config} */
const config = {
  kit: {
    // `node build` serves the app; see README.md for ORIGIN / AUTH_URL behind a proxy.
    adapter: adapter(),
  },
}

export default config
