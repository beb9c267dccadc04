import { describe, expect, it } from "vitest"
import { CookieJar, csrfTokenFor, recordingLogger, send } from "../helpers.js"
import { setEnvDefaults } from "../../src/core/env.js"
import { MissingClientId } from "../../src/core/errors.js"
import GitHub from "../../src/providers/github.js"
import Credentials from "../../src/providers/credentials.js"
import type { AuthConfig, Provider, ProviderConfig } from "../../src/types.js"
import type { OAuthConfig } from "../../src/providers/oauth.js"

const serverMessage = { message: "There was a problem with the server configuration. Check the server logs for more information." }

function configWith(providers: Provider[], extra: Partial<AuthConfig> = {}) {
  const log = recordingLogger()
  const config: AuthConfig = { secret: "s3cret", trustHost: true, providers, logger: log.logger, ...extra }
  return { config, ...log }
}

/** A factory that counts its calls: the configuration check calls each factory once per run. */
function countingFactory(make: () => ProviderConfig) {
  const factory = () => {
    factory.calls += 1
    return make()
  }
  factory.calls = 0
  return factory
}

const corp = (extra: Partial<OAuthConfig> = {}): OAuthConfig => ({
  id: "corp",
  name: "Corp",
  type: "oauth",
  authorization: "https://idp.test/authorize",
  token: "https://idp.test/token",
  userinfo: "https://idp.test/userinfo",
  clientId: "corp-client",
  ...extra,
})

describe("an OAuth provider without clientId is a configuration error", () => {
  it("API routes answer 500 JSON; the logged MissingClientId names the provider and AUTH_GITHUB_ID", async () => {
    const { config, errors } = configWith([GitHub])
    for (const path of ["/session", "/providers", "/csrf"]) {
      const response = await send(config, new CookieJar(), path)
      expect(response.status, path).toBe(500)
      expect(await response.json()).toEqual(serverMessage)
    }
    expect(errors.map((e) => (e as MissingClientId).type)).toEqual(["MissingClientId", "MissingClientId", "MissingClientId"])
    expect(errors[0]).toBeInstanceOf(MissingClientId)
    // Plain Auth() reads no environment: the message says so, and how to read it.
    expect(errors[0]!.message).toBe('Provider "github" has no clientId: pass clientId to GitHub(), or call setEnvDefaults(process.env, config) before Auth() to read AUTH_GITHUB_ID')
  })

  it("POST /signin/github is refused before any redirect to GitHub with an empty client_id", async () => {
    const { config, errors } = configWith([GitHub])
    const response = await send(config, new CookieJar(), "/signin/github", { form: { csrfToken: "x" } })
    expect(response.status).toBe(500)
    expect(response.headers.get("location")).toBeNull()
    expect(errors.map((e) => e.name)).toEqual(["MissingClientId"])
  })

  it("GET /signin shows the Configuration page; with pages.error it redirects there", async () => {
    const { config } = configWith([GitHub({ clientSecret: "shh" })])
    const page = await send(config, new CookieJar(), "/signin")
    expect(page.status).toBe(500)
    expect(page.headers.get("content-type")).toMatch(/^text\/html/)
    expect(await page.text()).toContain("There is a problem with the server configuration.")
    const redirected = configWith([GitHub], { pages: { error: "/oops" } })
    const redirect = await send(redirected.config, new CookieJar(), "/signin")
    expect(redirect.status).toBe(302)
    expect(redirect.headers.get("location")).toBe("https://app.test/oops?error=Configuration")
  })

  it("after setEnvDefaults (as the framework wrappers call it), names the env variable to set", async () => {
    const { config, errors } = configWith([GitHub])
    setEnvDefaults({}, config)
    await send(config, new CookieJar(), "/session")
    expect(errors[0]!.message).toBe('Provider "github" has no clientId: set AUTH_GITHUB_ID (or give the provider a clientId)')
  })

  it("names the env variable of ids with dashes, and says how to set a provider object's clientId", async () => {
    const { config, errors } = configWith([corp({ id: "corp-sso", clientId: "" })])
    await send(config, new CookieJar(), "/session")
    expect(errors[0]!.message).toBe('Provider "corp-sso" has no clientId: give the provider a clientId, or call setEnvDefaults(process.env, config) before Auth() to read AUTH_CORP_SSO_ID')
    expect(errors[0]!.cause).toEqual({ provider: "corp-sso" })
  })

  it("a clientId in the factory's options is enough", async () => {
    const { config, errors } = configWith([GitHub({ clientId: "gh-id" })])
    expect((await send(config, new CookieJar(), "/session")).status).toBe(200)
    expect(errors).toEqual([])
  })

  it("a public client needs no secret (PKCE, token_endpoint_auth_method none)", async () => {
    const { config, errors } = configWith([corp({ client: { token_endpoint_auth_method: "none" } })])
    expect((await send(config, new CookieJar(), "/session")).status).toBe(200)
    expect(errors).toEqual([])
  })

  it("a factory filled from env by setEnvDefaults passes, and signs in with that client_id", async () => {
    const { config, errors } = configWith([GitHub])
    setEnvDefaults({ AUTH_GITHUB_ID: "env-id", AUTH_GITHUB_SECRET: "env-secret" }, config)
    const jar = new CookieJar()
    expect((await send(config, jar, "/session")).status).toBe(200)
    const csrfToken = await csrfTokenFor(config, jar)
    const response = await send(config, jar, "/signin/github", { form: { csrfToken } })
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(location.origin + location.pathname).toBe("https://github.com/login/oauth/authorize")
    expect(location.searchParams.get("client_id")).toBe("env-id")
    expect(errors).toEqual([])
  })

  it("the request's callbackUrl is checked first, as before (Auth.js's order)", async () => {
    const { config, errors } = configWith([GitHub])
    await send(config, new CookieJar(), "/session?callbackUrl=javascript%3Aalert(1)")
    await send(config, new CookieJar(), "/session")
    expect(errors.map((e) => e.name)).toEqual(["InvalidCallbackUrl", "MissingClientId"])
  })
})

describe("the configuration is checked once per configuration object", () => {
  it("many requests, from several origins, call each provider factory once", async () => {
    const factory = countingFactory(() => corp())
    const { config, errors } = configWith([factory])
    for (let i = 0; i < 5; i++) expect((await send(config, new CookieJar(), "/session")).status).toBe(200)
    await send(config, new CookieJar(), "https://other.test/auth/providers")
    await send(config, new CookieJar(), "http://app.test/auth/csrf")
    expect(factory.calls).toBe(1)
    expect(errors).toEqual([])
  })

  it("a refused configuration is refused on every request without being checked again", async () => {
    const factory = countingFactory(() => corp({ clientId: undefined }))
    const { config, errors } = configWith([factory])
    for (let i = 0; i < 3; i++) expect((await send(config, new CookieJar(), "/session")).status).toBe(500)
    expect(factory.calls).toBe(1)
    expect(errors.map((e) => e.name)).toEqual(["MissingClientId", "MissingClientId", "MissingClientId"])
  })

  it("a replaced providers array is checked again", async () => {
    const broken = countingFactory(() => corp({ clientId: undefined }))
    const { config, errors } = configWith([broken])
    expect((await send(config, new CookieJar(), "/session")).status).toBe(500)
    const fixed = countingFactory(() => corp())
    config.providers = [fixed]
    expect((await send(config, new CookieJar(), "/session")).status).toBe(200)
    expect((await send(config, new CookieJar(), "/session")).status).toBe(200)
    expect([broken.calls, fixed.calls]).toEqual([1, 1])
    // The same array, mutated in place, is not: replace the array to change providers.
    config.providers.push(broken)
    expect((await send(config, new CookieJar(), "/session")).status).toBe(200)
    config.providers = [...config.providers]
    expect((await send(config, new CookieJar(), "/session")).status).toBe(500)
    expect(errors.map((e) => e.name)).toEqual(["MissingClientId", "MissingClientId"])
  })

  it("a replaced secret, adapter or session strategy is checked again", async () => {
    const factory = countingFactory(() => corp())
    const { config, errors } = configWith([factory])
    expect((await send(config, new CookieJar(), "/session")).status).toBe(200)
    config.secret = ""
    expect((await send(config, new CookieJar(), "/session")).status).toBe(500)
    config.secret = "again"
    expect((await send(config, new CookieJar(), "/session")).status).toBe(200)
    config.session = { strategy: "database" }
    expect((await send(config, new CookieJar(), "/session")).status).toBe(500)
    config.adapter = {}
    expect((await send(config, new CookieJar(), "/session")).status).toBe(500)
    expect(errors.map((e) => e.name)).toEqual(["MissingSecret", "MissingAdapter", "MissingAdapterMethods"])
    expect(factory.calls).toBe(5)
  })

  it("the request's own checks still run on every request", async () => {
    const factory = countingFactory(() => corp())
    const { config, errors } = configWith([factory])
    expect((await send(config, new CookieJar(), "/session")).status).toBe(200)
    expect((await send(config, new CookieJar(), "/session?callbackUrl=javascript%3Aalert(1)")).status).toBe(400)
    expect((await send(config, new CookieJar(), "/session")).status).toBe(200)
    expect(errors.map((e) => e.name)).toEqual(["InvalidCallbackUrl"])
    expect(factory.calls).toBe(1)
  })
})

describe("WebAuthn providers", () => {
  it("need an adapter once experimental.enableWebAuthn is on", async () => {
    const { config, errors } = configWith([{ id: "passkey", name: "Passkey", type: "webauthn" }], { experimental: { enableWebAuthn: true } })
    expect((await send(config, new CookieJar(), "/session")).status).toBe(500)
    expect(errors.map((e) => e.name)).toEqual(["MissingAdapter"])
    expect(errors[0]!.message).toBe("WebAuthn requires an adapter")
  })
})

describe("ProviderConfig is a union on type", () => {
  it("narrows on type, and accepts factories, factory results and written objects", () => {
    const describeProvider = (provider: ProviderConfig): string => {
      switch (provider.type) {
        case "oauth":
        case "oidc":
          return `${provider.id}: ${provider.clientId ?? "no client"}`
        case "email":
          return `${provider.id}: ${provider.from ?? "no sender"}`
        case "credentials":
          return `${provider.id}: ${typeof provider.authorize}`
        case "webauthn":
          return `${provider.id}: passkeys`
      }
    }
    const providers: Provider[] = [
      GitHub,
      Credentials({ credentials: { username: {} }, authorize: () => null }),
      { id: "x", name: "X", type: "oauth", issuer: "https://x.test", clientId: "x-id" },
      { id: "y", name: "Y", type: "oidc", issuer: "https://y.test", clientId: "y-id", client: { token_endpoint_auth_method: "none" } },
      { id: "mail", name: "Email", type: "email", sendVerificationRequest: () => {} },
    ]
    const described = providers.map((provider) => describeProvider(typeof provider === "function" ? provider() : provider))
    expect(described).toEqual(["github: no client", "credentials: function", "x: x-id", "y: y-id", "mail: no sender"])
  })
})
