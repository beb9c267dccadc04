import { describe, expect, it } from "vitest"
import { CookieJar, recordingLogger, send } from "../helpers.js"
import type { AuthConfig } from "../../src/types.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Passkey from "../../src/providers/passkey.js"
import WebAuthn from "../../src/providers/webauthn.js"

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

  it("a WebAuthn provider with the flag works: the warning is printed once over many requests", async () => {
    const { logger, warnings, errors } = recordingLogger()
    const config: AuthConfig = { secret: "s", trustHost: true, adapter: MemoryAdapter(), providers: [Passkey()], experimental: { enableWebAuthn: true }, logger }
    for (let i = 0; i < 3; i++) expect((await send(config, new CookieJar(), "/webauthn-options/passkey?action=authenticate")).status).toBe(200)
    expect(warnings).toEqual(["experimental-webauthn"])
    expect(errors).toEqual([])
  })

  it("a WebAuthn provider needs an adapter that stores authenticators", async () => {
    const { logger, errors } = recordingLogger()
    const base: AuthConfig = { secret: "s", trustHost: true, providers: [Passkey()], experimental: { enableWebAuthn: true }, logger }
    expect((await send(base, new CookieJar(), "/session")).status).toBe(500)
    const { getAuthenticator: _, updateAuthenticatorCounter: __, ...partial } = MemoryAdapter()
    expect((await send({ ...base, adapter: partial }, new CookieJar(), "/session")).status).toBe(500)
    expect(errors.map((e) => [e.name, e.message])).toEqual([
      ["MissingAdapter", "WebAuthn requires an adapter"],
      ["MissingAdapterMethods", "Required adapter methods were missing: getAuthenticator, updateAuthenticatorCounter"],
    ])
  })

  it("conditional UI: one provider at most, with a webauthn autocomplete field", async () => {
    const { logger, errors } = recordingLogger()
    const base: AuthConfig = { secret: "s", trustHost: true, adapter: MemoryAdapter(), providers: [], experimental: { enableWebAuthn: true }, logger }
    await send({ ...base, providers: [Passkey(), WebAuthn()] }, new CookieJar(), "/session")
    await send({ ...base, providers: [Passkey({ formFields: { username: { label: "Username" } } })] }, new CookieJar(), "/session")
    await send({ ...base, providers: [Passkey({ simpleWebAuthnBrowserVersion: "latest" })] }, new CookieJar(), "/session")
    expect(errors.map((e) => e.name)).toEqual(["DuplicateConditionalUI", "MissingWebAuthnAutocomplete", "AuthError"])
  })

  it("nothing experimental is on by default", async () => {
    const { logger, warnings } = recordingLogger()
    await send({ secret: "s", trustHost: true, providers: [], logger }, new CookieJar(), "/session")
    expect(warnings).toEqual([])
  })
})
