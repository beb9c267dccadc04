import { describe, expect, it } from "vitest"
import { CookieJar, recordingLogger, send } from "../helpers.js"
import type { AuthConfig } from "../../src/types.js"

describe("experimental features", () => {
  it("enabling WebAuthn prints the experimental warning once, even without a WebAuthn provider", async () => {
    const { logger, warnings } = recordingLogger()
    const config: AuthConfig = { secret: "s", trustHost: true, providers: [], experimental: { enableWebAuthn: true }, logger }
    await send(config, new CookieJar(), "/session")
    await send(config, new CookieJar(), "/session")
    expect(warnings).toEqual(["experimental-webauthn"])
  })

  it("a WebAuthn provider without the flag is a configuration error", async () => {
    const { logger, errors } = recordingLogger()
    const config: AuthConfig = { secret: "s", trustHost: true, providers: [{ id: "webauthn", name: "Passkey", type: "webauthn" }], logger }
    const response = await send(config, new CookieJar(), "/session")
    expect(response.status).toBe(500)
    expect(errors.map((e) => e.name)).toEqual(["ExperimentalFeatureNotEnabled"])
  })

  it("nothing experimental is on by default", async () => {
    const { logger, warnings } = recordingLogger()
    await send({ secret: "s", trustHost: true, providers: [], logger }, new CookieJar(), "/session")
    expect(warnings).toEqual([])
  })
})
