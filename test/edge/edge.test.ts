/**
 * authflow on the edge runtime Next.js uses for edge routes (`edge-runtime`, where Node's
 * built-ins are missing): the bundled entries import none of them, and the core scenarios run
 * there through the portable (jose) JWE path, interoperating with sessions minted in Node.
 */
import { EdgeRuntime } from "edge-runtime"
import { describe, expect, it } from "vitest"
import Credentials from "../../src/providers/credentials.js"
import { CookieJar, cookieNames, csrfTokenFor, send } from "../helpers.js"
import { bundleForEdge, edgeEntries } from "./bundle.js"
import type { AuthConfig } from "../../src/types.js"

/** Providers that talk SMTP over TCP: Node only, as in Auth.js. */
const nodeOnly = new Set(["authflow/providers/nodemailer", "authflow/providers/email"])

describe("the edge entries import no Node built-in", () => {
  for (const [name, entry] of Object.entries(edgeEntries)) {
    it(nodeOnly.has(name) ? `${name} needs Node (SMTP over TCP), and says so by importing it` : name, async () => {
      const { nodeImports } = await bundleForEdge(entry)
      if (nodeOnly.has(name)) expect(nodeImports.length).toBeGreaterThan(0)
      else expect(nodeImports).toEqual([])
    })
  }

  it("a planted node: import is caught", async () => {
    const { nodeImports } = await bundleForEdge("src/adapters/kysely/driver.ts")
    expect(nodeImports).toEqual([expect.stringContaining("node:module imported by")])
  })
})

describe("Auth() inside the edge-runtime VM", () => {
  const secret = "edge-runtime-secret-0123456789abcdef"

  it("runs sign-in, session, update, sign-out, email and OAuth on the portable path, reading a session minted in Node", async () => {
    // A session cookie minted by Node's Auth() (the node:crypto fast path).
    const nodeConfig: AuthConfig = {
      secret,
      trustHost: true,
      providers: [Credentials({ credentials: { username: {} }, authorize: () => ({ id: "7", name: "Node User", email: "node@example.test" }) })],
    }
    const nodeJar = new CookieJar()
    await send(nodeConfig, nodeJar, "/callback/credentials", { form: { csrfToken: await csrfTokenFor(nodeConfig, nodeJar), username: "x" } })
    const nodeCookie = nodeJar.cookies.get(cookieNames.https.sessionToken)!
    expect(nodeCookie).toBeTruthy()

    const { code, nodeImports } = await bundleForEdge("test/edge/scenarios.ts", { format: "iife", globalName: "edgeScenarios" })
    expect(nodeImports).toEqual([])
    const runtime = new EdgeRuntime({ initialCode: code })
    const result = await runtime.evaluate<Promise<any>>(`edgeScenarios.run(${JSON.stringify(secret)}, ${JSON.stringify(nodeCookie)})`)

    expect(result.runtime.getBuiltinModule).toBe("undefined") // no node:crypto: the jose path runs
    expect(result.credentials.wrong.location).toMatch(/error=CredentialsSignin/)
    expect(result.credentials.signedIn).toMatchObject({ status: 302, location: "https://edge.test" })
    expect(result.credentials.afterSignIn.user).toEqual({ name: "Ada", email: "ada@example.test" })
    expect(result.credentials.afterUpdate.user.name).toBe("Ada L.")
    expect(result.credentials.signOut.status).toBe(302)
    expect(result.credentials.afterSignOut).toBeNull()
    expect(result.nodeSession.user).toEqual({ name: "Node User", email: "node@example.test" })
    expect(result.email).toMatchObject({ requested: 302, mailed: 1, followed: "https://edge.test" })
    expect(result.email.session.user.email).toBe("grace@example.test")
    expect(result.oauth.errors).toEqual([])
    expect(result.oauth.start).toBe(302)
    expect(result.oauth.back).toMatchObject({ status: 302, location: "https://edge.test" })
    expect(result.oauth.session.user).toMatchObject({ name: "Linus", email: "linus@example.test" })

    // …and the session the edge minted reads in Node.
    const fromEdge = new CookieJar()
    fromEdge.cookies.set(cookieNames.https.sessionToken, result.credentials.sessionCookie)
    const session = (await (await send(nodeConfig, fromEdge, "/session")).json()) as { user: unknown }
    expect(session.user).toEqual({ name: "Ada", email: "ada@example.test" })
  })

  it("loads and signs in under Next.js's edge sandbox, whose `process` functions throw when called", async () => {
    // As next/dist/server/web/sandbox/context.js: `process.env`, and every other Node API of
    // `process` a function that throws "A Node.js API is used (process.…)".
    const nextProcess = `globalThis.process = { env: {}, get getBuiltinModule() { return () => { throw new Error("A Node.js API is used (process.getBuiltinModule) which is not supported in the Edge Runtime.") } } };`
    const { code } = await bundleForEdge("test/edge/scenarios.ts", { format: "iife", globalName: "edgeScenarios" })
    const runtime = new EdgeRuntime({ initialCode: `${nextProcess}\n${code}` })
    const result = await runtime.evaluate<Promise<any>>(`edgeScenarios.run(${JSON.stringify(secret)}, "")`)
    expect(result.runtime.getBuiltinModule).toBe("function")
    expect(result.credentials.signedIn).toMatchObject({ status: 302, location: "https://edge.test" })
    expect(result.credentials.afterSignIn.user).toEqual({ name: "Ada", email: "ada@example.test" })
  })
})
