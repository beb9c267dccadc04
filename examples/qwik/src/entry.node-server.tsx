/** The production server: `node server/entry.node-server.js` (PORT, default 3004; HOST, default all interfaces). */
import { createQwikCity } from "@builder.io/qwik-city/middleware/node"
import qwikCityPlan from "@qwik-city-plan"
import { createServer } from "node:http"
import render from "./entry.ssr"

const { router, notFound, staticFile } = createQwikCity({
  render,
  qwikCityPlan,
  static: { cacheControl: "public, max-age=31536000, immutable" },
})

const port = Number(process.env.PORT ?? 3004)
const host = process.env.HOST

createServer((req, res) => {
  staticFile(req, res, () => router(req, res, () => notFound(req, res, () => {})))
}).listen(port, host, () => {
  console.log(`Node server listening on http://${host ?? "localhost"}:${port}`)
})
