/**
 * A node:http server for the inspector tests: Auth() under /auth (a credentials provider) and the
 * inspector's handler under /inspect. Responses are streamed, so the inspector's event stream flows.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Auth } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import { sendWebResponse, toWebRequest } from "../../src/frameworks/node.js"
import { createInspector, type Inspector, type InspectorOptions } from "../../src/inspect/index.js"
import { withClientAddress } from "../../src/rate-limit.js"
import type { AuthConfig } from "../../src/types.js"

export const accounts = [{ id: "1", username: "ada", password: "lovelace-3f9a1c77e2", name: "Ada Lovelace", email: "ada@example.test" }]

export interface InspectedServer {
  server: Server
  origin: string
  inspector: Inspector
  config: AuthConfig
  close(): Promise<void>
}

/** Starts the server on a free loopback port. */
export async function startInspectedServer(options: InspectorOptions = {}): Promise<InspectedServer> {
  const inspector = createInspector({ basePath: "/inspect", ...options })
  const config: AuthConfig = {
    secret: "inspect-browser-test-secret-0123456789",
    trustHost: true,
    inspect: inspector.inspect,
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [
      Credentials({
        name: "Demo account",
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: ({ username, password }) => {
          const account = accounts.find((candidate) => candidate.username === username && candidate.password === password)
          return account ? { id: account.id, name: account.name, email: account.email } : null
        },
      }),
    ],
  }
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const request = await toWebRequest(req)
      const path = new URL(request.url).pathname
      if (path === "/inspect" || path.startsWith("/inspect/")) {
        // Ends the request's signal when the page goes away, as web-standard servers do.
        const controller = new AbortController()
        res.on("close", () => controller.abort())
        // The copy keeps the socket's address, so the inspector sees a request from this machine.
        return await sendWebResponse(res, await inspector.handler(withClientAddress(new Request(request, { signal: controller.signal }), req.socket.remoteAddress)))
      }
      if (path.startsWith("/auth/")) return await sendWebResponse(res, await Auth(request, config))
      if (path === "/") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<!DOCTYPE html><html lang="en"><title>Home</title><h1>Home</h1><a href="/auth/signin">Sign in</a>`)
        return
      }
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found")
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" })
      res.end(String(error))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    server,
    origin: `http://127.0.0.1:${port}`,
    inspector,
    config,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
