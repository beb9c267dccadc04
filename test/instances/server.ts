/**
 * One authflow instance for the several-instances test: a `node:http` server running `Auth()` with
 * the Kysely adapter on PostgreSQL, a real OpenID Provider and a Nodemailer email provider, served
 * as the fixed origin `http://app.test`. Two of these run as separate processes that share nothing
 * but the secret, the database schema and Redis (the flow replay store).
 *
 * Configuration by environment:
 * - `AUTH_SECRET`: the shared secret.
 * - `PG_SCHEMA`: the PostgreSQL schema holding the tables (127.0.0.1:5432, user postgres, db test).
 * - `OIDC_ISSUER`: the issuer of the OpenID Provider (client `app`, secret `app-secret`).
 * - `SMTP_PORT`: the port of the SMTP server on 127.0.0.1 that receives the sign-in mail.
 * - `REDIS_PREFIX`: the key prefix of the replay store in Redis at 127.0.0.1:6379.
 * - `INSTANCE`: a name, sent back in the `X-Instance` header of every answer.
 *
 * It listens on a free loopback port and prints `listening <port>` once it serves.
 *
 *   AUTH_SECRET=… PG_SCHEMA=… OIDC_ISSUER=… SMTP_PORT=… REDIS_PREFIX=… node --import tsx test/instances/server.ts
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Auth, redisReplayStore } from "../../src/index.js"
import { KyselyAdapter, createPostgresDatabase } from "../../src/adapters/kysely/index.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import { sendWebResponse, toWebRequest } from "../../src/frameworks/node.js"
import type { AuthConfig } from "../../src/types.js"
import { postgresServer, redisClient } from "../services.js"

/** The public origin both instances serve, whatever loopback port a request came in on. */
export const appOrigin = "http://app.test"

function required(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is not set: test/instances/server.ts reads its configuration from the environment`)
  return value
}

const instance = process.env.INSTANCE ?? "instance"
const db = createPostgresDatabase({ ...postgresServer, options: `-c search_path=${required("PG_SCHEMA")}` })
const redis = redisClient()

const config: AuthConfig = {
  secret: required("AUTH_SECRET"),
  origin: appOrigin,
  adapter: KyselyAdapter(db),
  replayStore: redisReplayStore(redis, { prefix: required("REDIS_PREFIX") }),
  providers: [
    { id: "oidc", name: "Test OP", type: "oidc", issuer: required("OIDC_ISSUER"), clientId: "app", clientSecret: "app-secret" },
    Nodemailer({ server: { host: "127.0.0.1", port: Number(required("SMTP_PORT")), secure: false, ignoreTLS: true }, from: "Authflow <login@app.test>" }),
  ],
} as AuthConfig

const server = createServer(async (req, res) => {
  try {
    const response = await Auth(await toWebRequest(req, appOrigin), config)
    res.setHeader("X-Instance", instance)
    await sendWebResponse(res, response)
  } catch (error) {
    console.error(error)
    if (!res.headersSent) res.writeHead(500)
    res.end()
  }
})

server.listen(0, "127.0.0.1", () => {
  console.log(`listening ${(server.address() as AddressInfo).port}`)
})

async function shutdown(): Promise<void> {
  server.close()
  server.closeAllConnections()
  await Promise.allSettled([db.destroy(), redis.quit()])
  process.exit(0)
}
process.on("SIGTERM", () => void shutdown())
process.on("SIGINT", () => void shutdown())
