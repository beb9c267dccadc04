/**
 * A provider kind's configuration checks are a module loaded when a configuration first has such a
 * provider. When that load fails (a chunk missing from a deployment), the request is answered as a
 * configuration error, the failure is logged, and nothing is kept: the next request loads the
 * module again and is answered as usual.
 */
import { describe, expect, it, vi } from "vitest"
import { CookieJar, recordingLogger, send } from "../helpers.js"
import type { AuthConfig } from "../../src/types.js"

const loads = vi.hoisted(() => ({ count: 0 }))
vi.mock("../../src/core/checks/oauth.js", async (importOriginal) => {
  loads.count += 1
  if (loads.count === 1) throw new Error("chunk-oauth-checks.js could not be loaded")
  return importOriginal()
})

describe("the OAuth checks module fails to load once", () => {
  it("answers that request as a configuration error, logs why, and loads the module again for the next", async () => {
    const { logger, errors } = recordingLogger()
    const config: AuthConfig = {
      secret: "s3cret-s3cret-s3cret-s3cret-s3cret",
      trustHost: true,
      logger,
      providers: [{ id: "corp", name: "Corp", type: "oidc", issuer: "https://idp.test", clientId: "corp-client" }],
    }

    const first = await send(config, new CookieJar(), "/session")
    expect(first.status).toBe(500)
    expect(await first.json()).toEqual({ message: "There was a problem with the server configuration. Check the server logs for more information." })
    // The load's own error, as the module loader reports it (vitest wraps it in one of its own).
    const causes = (error: unknown): string[] => (error instanceof Error ? [error.message, ...causes(error.cause)] : [])
    expect(errors.flatMap(causes)).toContain("chunk-oauth-checks.js could not be loaded")

    const second = await send(config, new CookieJar(), "/session")
    expect(second.status).toBe(200)
    expect(await second.json()).toBeNull()
    expect(loads.count).toBe(2)
  })
})
