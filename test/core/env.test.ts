import { describe, expect, it, vi } from "vitest"
import {
  createActionURL as authjsCreateActionURL,
  isAuthAction as authjsIsAuthAction,
  setEnvDefaults as authjsSetEnvDefaults,
} from "@auth/core"
import { createActionURL, isAuthAction, setEnvDefaults, type EnvObject } from "../../src/core/env.js"
import type { AuthAction, AuthConfig, Provider, ProviderConfig } from "../../src/types.js"

type AuthjsConfig = Parameters<typeof authjsSetEnvDefaults>[1]

const actions: AuthAction[] = [
  "providers",
  "session",
  "csrf",
  "signin",
  "signout",
  "callback",
  "verify-request",
  "error",
  "webauthn-options",
]

function silentLogger() {
  return { warn: vi.fn(), error: vi.fn(), debug: vi.fn() }
}

/** Runs both implementations on fresh, identical configs and returns both results. */
function runBoth(env: EnvObject, make: () => AuthConfig, suppress = false) {
  const ours = make()
  ours.logger = silentLogger()
  setEnvDefaults(env, ours, suppress)
  const theirs = make()
  theirs.logger = silentLogger()
  authjsSetEnvDefaults(env, theirs as unknown as AuthjsConfig, suppress)
  return { ours, theirs }
}

/** The config without what only authflow fills in: the logger, and `origin` (from AUTH_URL; Auth.js has no such option). */
function comparable(config: AuthConfig) {
  const { logger: _logger, origin: _origin, ...rest } = config
  return rest
}

/** Email providers need a sender; these tests never send. */
const sendVerificationRequest = () => {}

function oauth(id: string, extra: Record<string, unknown> = {}): ProviderConfig {
  return { id, name: id, type: "oauth", ...extra }
}

describe("isAuthAction", () => {
  it.each(actions)("accepts %s", (action) => {
    expect(isAuthAction(action)).toBe(true)
    expect(authjsIsAuthAction(action)).toBe(true)
  })

  it.each(["", "register", "SIGNIN", "signin/", "/signin", "verify_request", "toString", "__proto__", "constructor"])(
    "rejects %j like Auth.js",
    (action) => {
      expect(isAuthAction(action)).toBe(false)
      expect(authjsIsAuthAction(action)).toBe(false)
    },
  )

  it("narrows the type", () => {
    const value: string = "csrf"
    if (isAuthAction(value)) {
      const action: AuthAction = value
      expect(action).toBe("csrf")
    } else {
      expect.unreachable()
    }
  })
})

describe("setEnvDefaults: basePath", () => {
  it("takes the pathname of AUTH_URL", () => {
    const config: AuthConfig = { providers: [] }
    setEnvDefaults({ AUTH_URL: "https://app.example/api/auth" }, config)
    expect(config.basePath).toBe("/api/auth")
  })

  it("gives '/' for an AUTH_URL without a path", () => {
    const config: AuthConfig = { providers: [] }
    setEnvDefaults({ AUTH_URL: "https://app.example" }, config)
    expect(config.basePath).toBe("/")
  })

  it("defaults to /auth without AUTH_URL", () => {
    const config: AuthConfig = { providers: [] }
    setEnvDefaults({}, config)
    expect(config.basePath).toBe("/auth")
  })

  it("swallows an unparsable AUTH_URL and falls back to /auth", () => {
    const config: AuthConfig = { providers: [] }
    expect(() => setEnvDefaults({ AUTH_URL: "not a url" }, config)).not.toThrow()
    expect(config.basePath).toBe("/auth")
  })

  it("keeps a configured basePath and warns that AUTH_URL is redundant", () => {
    const logger = silentLogger()
    const config: AuthConfig = { providers: [], basePath: "/custom", logger }
    setEnvDefaults({ AUTH_URL: "https://app.example/api/auth" }, config)
    expect(config.basePath).toBe("/custom")
    expect(logger.warn).toHaveBeenCalledTimes(1)
    expect(logger.warn).toHaveBeenCalledWith("env-url-basepath-redundant")
  })

  it("does not warn when the warning is suppressed", () => {
    const logger = silentLogger()
    const config: AuthConfig = { providers: [], basePath: "/custom", logger }
    setEnvDefaults({ AUTH_URL: "https://app.example/api/auth" }, config, true)
    expect(config.basePath).toBe("/custom")
    expect(logger.warn).not.toHaveBeenCalled()
  })

  it("does not warn without AUTH_URL", () => {
    const logger = silentLogger()
    const config: AuthConfig = { providers: [], basePath: "/custom", logger }
    setEnvDefaults({ NEXTAUTH_URL: "https://app.example/api/auth" }, config)
    expect(config.basePath).toBe("/custom")
    expect(logger.warn).not.toHaveBeenCalled()
  })

  it("does not need a logger to warn", () => {
    const config: AuthConfig = { providers: [], basePath: "/custom" }
    expect(() => setEnvDefaults({ AUTH_URL: "https://app.example/x" }, config)).not.toThrow()
    expect(config.logger).toBeUndefined()
  })

  it("treats an empty basePath as unset", () => {
    const logger = silentLogger()
    const config: AuthConfig = { providers: [], basePath: "", logger }
    setEnvDefaults({ AUTH_URL: "https://app.example/api/auth" }, config)
    expect(config.basePath).toBe("/api/auth")
    expect(logger.warn).not.toHaveBeenCalled()
  })
})

describe("setEnvDefaults: secret", () => {
  const all = { AUTH_SECRET: "s0", AUTH_SECRET_1: "s1", AUTH_SECRET_2: "s2", AUTH_SECRET_3: "s3" }

  it("orders the newest secret first", () => {
    const config: AuthConfig = { providers: [] }
    setEnvDefaults(all, config)
    expect(config.secret).toEqual(["s3", "s2", "s1", "s0"])
  })

  it("keeps only the defined, non-empty secrets", () => {
    const config: AuthConfig = { providers: [] }
    setEnvDefaults({ AUTH_SECRET: "s0", AUTH_SECRET_2: "s2", AUTH_SECRET_3: "" }, config)
    expect(config.secret).toEqual(["s2", "s0"])
  })

  it("uses AUTH_SECRET_n even without AUTH_SECRET", () => {
    const config: AuthConfig = { providers: [] }
    setEnvDefaults({ AUTH_SECRET_1: "s1" }, config)
    expect(config.secret).toEqual(["s1"])
  })

  it("is an empty array when nothing is set", () => {
    const config: AuthConfig = { providers: [] }
    setEnvDefaults({}, config)
    expect(config.secret).toEqual([])
  })

  it("keeps a configured string secret", () => {
    const config: AuthConfig = { providers: [], secret: "mine" }
    setEnvDefaults(all, config)
    expect(config.secret).toBe("mine")
  })

  it("keeps a configured array of secrets", () => {
    const secret = ["a", "b"]
    const config: AuthConfig = { providers: [], secret }
    setEnvDefaults(all, config)
    expect(config.secret).toBe(secret)
  })

  it.each([[""], [[]]])("replaces an empty secret %j", (secret) => {
    const config: AuthConfig = { providers: [], secret }
    setEnvDefaults(all, config)
    expect(config.secret).toEqual(["s3", "s2", "s1", "s0"])
  })

  it("ignores NEXTAUTH_SECRET (core only reads AUTH_*)", () => {
    const config: AuthConfig = { providers: [] }
    setEnvDefaults({ NEXTAUTH_SECRET: "legacy" }, config)
    expect(config.secret).toEqual([])
  })
})

describe("setEnvDefaults: redirectProxyUrl", () => {
  it("reads AUTH_REDIRECT_PROXY_URL", () => {
    const config: AuthConfig = { providers: [] }
    setEnvDefaults({ AUTH_REDIRECT_PROXY_URL: "https://proxy.example/api/auth" }, config)
    expect(config.redirectProxyUrl).toBe("https://proxy.example/api/auth")
  })

  it("keeps a configured value", () => {
    const config: AuthConfig = { providers: [], redirectProxyUrl: "https://mine.example/auth" }
    setEnvDefaults({ AUTH_REDIRECT_PROXY_URL: "https://proxy.example/api/auth" }, config)
    expect(config.redirectProxyUrl).toBe("https://mine.example/auth")
  })

  it("stays unset without the variable", () => {
    const config: AuthConfig = { providers: [] }
    setEnvDefaults({}, config)
    expect(config.redirectProxyUrl).toBeUndefined()
  })
})

describe("setEnvDefaults: trustHost", () => {
  // [env, expected, same as Auth.js?]
  const cases: [EnvObject, boolean, boolean][] = [
    [{}, true, true],
    [{ NODE_ENV: "development" }, true, true],
    [{ NODE_ENV: "test" }, true, true],
    [{ NODE_ENV: "production" }, false, true],
    [{ NODE_ENV: "production", AUTH_URL: "https://app.example" }, true, true],
    [{ NODE_ENV: "production", AUTH_URL: "" }, false, true],
    [{ NODE_ENV: "production", AUTH_TRUST_HOST: "true" }, true, true],
    [{ NODE_ENV: "production", AUTH_TRUST_HOST: "1" }, true, true],
    [{ NODE_ENV: "production", AUTH_TRUST_HOST: "yes" }, true, true],
    [{ NODE_ENV: "production", VERCEL: "1" }, true, true],
    [{ NODE_ENV: "production", CF_PAGES: "1" }, true, true],
    [{ NODE_ENV: "production", VERCEL: "" }, false, true],
    [{ NODE_ENV: "production", AUTH_URL: "https://app.example", AUTH_TRUST_HOST: "true" }, true, true],
    // AUTH_URL is the first variable looked at, so it decides before AUTH_TRUST_HOST.
    [{ NODE_ENV: "production", AUTH_URL: "https://app.example", AUTH_TRUST_HOST: "false" }, true, true],
    // The fixed quirk: Auth.js trusts the host for each of these.
    [{ NODE_ENV: "production", AUTH_TRUST_HOST: "false" }, false, false],
    [{ NODE_ENV: "production", AUTH_TRUST_HOST: "FALSE" }, false, false],
    [{ NODE_ENV: "production", AUTH_TRUST_HOST: " False " }, false, false],
    [{ NODE_ENV: "production", AUTH_TRUST_HOST: "0" }, false, false],
    [{ NODE_ENV: "production", AUTH_TRUST_HOST: "no" }, false, false],
    [{ NODE_ENV: "production", AUTH_TRUST_HOST: "Off" }, false, false],
    [{ AUTH_TRUST_HOST: "false" }, false, false],
    [{ AUTH_TRUST_HOST: "false", VERCEL: "1" }, false, false],
    // An empty AUTH_TRUST_HOST is false in both (a defined empty string).
    [{ NODE_ENV: "development", AUTH_TRUST_HOST: "" }, false, true],
  ]

  it.each(cases)("%j gives %s", (env, expected, sameAsAuthjs) => {
    const { ours, theirs } = runBoth(env, () => ({ providers: [] }))
    expect(ours.trustHost).toBe(expected)
    if (sameAsAuthjs) expect(ours.trustHost).toBe(theirs.trustHost)
    else expect(theirs.trustHost).toBe(!expected)
  })

  it.each([true, false])("keeps a configured trustHost: %s", (trustHost) => {
    const config: AuthConfig = { providers: [], trustHost }
    setEnvDefaults({ AUTH_TRUST_HOST: String(!trustHost), NODE_ENV: trustHost ? "production" : "development" }, config)
    expect(config.trustHost).toBe(trustHost)
  })
})

describe("setEnvDefaults: provider credentials", () => {
  it("fills clientId, clientSecret and issuer of an oauth provider object", () => {
    const config: AuthConfig = { providers: [oauth("github")] }
    setEnvDefaults(
      { AUTH_GITHUB_ID: "id", AUTH_GITHUB_SECRET: "secret", AUTH_GITHUB_ISSUER: "https://issuer.example", AUTH_GITHUB_KEY: "k" },
      config,
    )
    expect(config.providers[0]).toEqual({
      ...oauth("github"),
      clientId: "id",
      clientSecret: "secret",
      issuer: "https://issuer.example",
    })
    expect(config.providers[0]).not.toHaveProperty("apiKey")
  })

  it("fills an oidc provider object", () => {
    const provider: ProviderConfig = { id: "keycloak", name: "Keycloak", type: "oidc" }
    const config: AuthConfig = { providers: [provider] }
    setEnvDefaults({ AUTH_KEYCLOAK_ID: "id", AUTH_KEYCLOAK_SECRET: "secret" }, config)
    expect(config.providers[0]).toEqual({ ...provider, clientId: "id", clientSecret: "secret" })
    expect(config.providers[0]).not.toHaveProperty("issuer")
  })

  it("keeps values the provider already has", () => {
    const provider = oauth("github", { clientId: "mine", issuer: "https://mine.example" })
    const config: AuthConfig = { providers: [provider] }
    setEnvDefaults(
      { AUTH_GITHUB_ID: "env", AUTH_GITHUB_SECRET: "secret", AUTH_GITHUB_ISSUER: "https://env.example" },
      config,
    )
    expect(config.providers[0]).toMatchObject({ clientId: "mine", clientSecret: "secret", issuer: "https://mine.example" })
  })

  it("maps dashes in the id to underscores", () => {
    const config: AuthConfig = { providers: [oauth("microsoft-entra-id")] }
    setEnvDefaults(
      {
        AUTH_MICROSOFT_ENTRA_ID_ID: "entra-id",
        AUTH_MICROSOFT_ENTRA_ID_SECRET: "entra-secret",
        AUTH_MICROSOFT_ENTRA_ID_ISSUER: "https://login.microsoftonline.com/tenant/v2.0",
      },
      config,
    )
    expect(config.providers[0]).toMatchObject({
      clientId: "entra-id",
      clientSecret: "entra-secret",
      issuer: "https://login.microsoftonline.com/tenant/v2.0",
    })
  })

  it("gives an email provider its apiKey only", () => {
    const provider: ProviderConfig = { id: "resend", name: "Resend", type: "email", sendVerificationRequest }
    const config: AuthConfig = { providers: [provider] }
    setEnvDefaults({ AUTH_RESEND_KEY: "re_123", AUTH_RESEND_ID: "x", AUTH_RESEND_SECRET: "y" }, config)
    expect(config.providers[0]).toEqual({ ...provider, apiKey: "re_123" })
  })

  it("leaves credentials providers alone", () => {
    const provider: ProviderConfig = {
      id: "credentials",
      name: "Credentials",
      type: "credentials",
      credentials: {},
      authorize: () => null,
    }
    const config: AuthConfig = { providers: [provider] }
    setEnvDefaults({ AUTH_CREDENTIALS_ID: "x", AUTH_CREDENTIALS_KEY: "y" }, config)
    expect(config.providers[0]).toBe(provider)
  })

  it("sets an empty-string variable, since it is defined", () => {
    const config: AuthConfig = { providers: [oauth("github")] }
    setEnvDefaults({ AUTH_GITHUB_ID: "" }, config)
    expect(config.providers[0]).toHaveProperty("clientId", "")
  })

  it("does not mutate the user's provider objects", () => {
    const provider = oauth("github")
    const snapshot = { ...provider }
    const providers: Provider[] = [provider]
    const config: AuthConfig = { providers }
    setEnvDefaults({ AUTH_GITHUB_ID: "id", AUTH_GITHUB_SECRET: "secret" }, config)
    expect(provider).toEqual(snapshot)
    expect(provider).not.toHaveProperty("clientId")
    expect(config.providers[0]).not.toBe(provider)
    expect(providers[0]).toBe(provider)
  })

  it("keeps the same object when nothing changes", () => {
    const provider = oauth("github")
    const config: AuthConfig = { providers: [provider] }
    setEnvDefaults({ AUTH_GOOGLE_ID: "id" }, config)
    expect(config.providers[0]).toBe(provider)
  })

  it("calls a function provider with the defined variables and replaces it with the result", () => {
    const calls: unknown[] = []
    const factory = (options: Record<string, unknown> = {}): ProviderConfig => {
      calls.push(options)
      return { id: "microsoft-entra-id", name: "Entra", type: "oidc", options }
    }
    const config: AuthConfig = { providers: [factory] }
    setEnvDefaults(
      { AUTH_MICROSOFT_ENTRA_ID_ID: "id", AUTH_MICROSOFT_ENTRA_ID_SECRET: "secret", AUTH_MICROSOFT_ENTRA_ID_KEY: "k" },
      config,
    )
    expect(typeof config.providers[0]).toBe("object")
    expect(calls.at(-1)).toEqual({ clientId: "id", clientSecret: "secret", apiKey: "k" })
    expect(Object.keys(calls.at(-1) as object)).not.toContain("issuer")
    expect(config.providers[0]).toEqual({
      id: "microsoft-entra-id",
      name: "Entra",
      type: "oidc",
      options: { clientId: "id", clientSecret: "secret", apiKey: "k" },
      clientId: "id",
      clientSecret: "secret",
    })
  })

  it("fills the result of a factory that ignores its options", () => {
    const factory = (): ProviderConfig => ({ id: "github", name: "GitHub", type: "oauth" })
    const config: AuthConfig = { providers: [factory] }
    setEnvDefaults({ AUTH_GITHUB_ID: "id" }, config)
    expect(config.providers[0]).toEqual({ id: "github", name: "GitHub", type: "oauth", clientId: "id" })
  })

  it("replaces a function provider even without variables, calling it once", () => {
    const factory = vi.fn((): ProviderConfig => ({ id: "github", name: "GitHub", type: "oauth" }))
    const config: AuthConfig = { providers: [factory] }
    setEnvDefaults({}, config)
    expect(config.providers[0]).toEqual({ id: "github", name: "GitHub", type: "oauth" })
    expect(factory).toHaveBeenCalledTimes(1)
  })

  it("does not change a shared object returned by a factory", () => {
    const shared: ProviderConfig = { id: "github", name: "GitHub", type: "oauth" }
    const config: AuthConfig = { providers: [() => shared] }
    setEnvDefaults({ AUTH_GITHUB_ID: "id" }, config)
    expect(shared).not.toHaveProperty("clientId")
    expect(config.providers[0]).toHaveProperty("clientId", "id")
  })

  it("keeps the order of several providers", () => {
    const config: AuthConfig = {
      providers: [oauth("github"), { id: "resend", name: "Resend", type: "email", sendVerificationRequest }, () => oauth("google")],
    }
    setEnvDefaults({ AUTH_GITHUB_ID: "gh", AUTH_RESEND_KEY: "re", AUTH_GOOGLE_SECRET: "gs" }, config)
    expect(config.providers.map((p) => (p as ProviderConfig).id)).toEqual(["github", "resend", "google"])
    expect(config.providers[0]).toHaveProperty("clientId", "gh")
    expect(config.providers[1]).toHaveProperty("apiKey", "re")
    expect(config.providers[2]).toHaveProperty("clientSecret", "gs")
  })
})

describe("setEnvDefaults matches @auth/core outside the fixed quirk", () => {
  const env: EnvObject = {
    AUTH_URL: "https://app.example/api/auth",
    AUTH_SECRET: "s0",
    AUTH_SECRET_2: "s2",
    AUTH_REDIRECT_PROXY_URL: "https://proxy.example/api/auth",
    AUTH_GITHUB_ID: "gh-id",
    AUTH_GITHUB_SECRET: "gh-secret",
    AUTH_MICROSOFT_ENTRA_ID_ID: "entra-id",
    AUTH_MICROSOFT_ENTRA_ID_ISSUER: "https://login.microsoftonline.com/t/v2.0",
    AUTH_RESEND_KEY: "re_1",
    NODE_ENV: "production",
  }
  const authorize = () => null
  const scenarios: [string, EnvObject, () => AuthConfig][] = [
    ["empty config", env, () => ({ providers: [] })],
    ["no env", {}, () => ({ providers: [] })],
    ["basePath set", env, () => ({ providers: [], basePath: "/custom" })],
    ["secret set", env, () => ({ providers: [], secret: ["x"], trustHost: false })],
    ["bad AUTH_URL", { AUTH_URL: "::" }, () => ({ providers: [] })],
    [
      "providers",
      env,
      () => ({
        providers: [
          oauth("github"),
          oauth("microsoft-entra-id", { clientSecret: "own" }),
          { id: "resend", name: "Resend", type: "email", sendVerificationRequest },
          () => ({ id: "github", name: "GitHub", type: "oauth" }),
          (options: Record<string, unknown> = {}) => ({ id: "resend", name: "Resend", type: "email", sendVerificationRequest, options }),
          { id: "credentials", name: "Credentials", type: "credentials", credentials: {}, authorize },
        ],
      }),
    ],
  ]

  it.each(scenarios)("%s", (_name, scenarioEnv, make) => {
    const { ours, theirs } = runBoth(scenarioEnv, make)
    expect(comparable(ours)).toEqual(comparable(theirs))
  })

  it.each([false, true])("warns like Auth.js (suppressed: %s)", (suppress) => {
    const { ours, theirs } = runBoth(env, () => ({ providers: [], basePath: "/custom" }), suppress)
    expect((ours.logger?.warn as ReturnType<typeof vi.fn>).mock.calls).toEqual(
      (theirs.logger?.warn as ReturnType<typeof vi.fn>).mock.calls,
    )
  })
})

describe("createActionURL", () => {
  const host = new Headers({ host: "app.example" })

  function both(
    action: AuthAction,
    protocol: string | undefined,
    headers: Headers,
    env: EnvObject,
    basePath: string | undefined,
  ) {
    const ourLogger = silentLogger()
    const theirLogger = silentLogger()
    const ours = createActionURL(action, protocol, headers, env, { basePath, logger: ourLogger })
    const theirs = authjsCreateActionURL(action as Parameters<typeof authjsCreateActionURL>[0], protocol as string, headers, env, { basePath, logger: theirLogger })
    return { ours, theirs, ourWarnings: ourLogger.warn.mock.calls, theirWarnings: theirLogger.warn.mock.calls }
  }

  // [name, action, protocol, headers, env, basePath, expected href, warns?]
  const cases: [string, AuthAction, string | undefined, Headers, EnvObject, string | undefined, string, boolean][] = [
    ["host header", "signin", "https", host, {}, "/auth", "https://app.example/auth/signin", false],
    ["protocol with colon", "signin", "http:", host, {}, "/auth", "http://app.example/auth/signin", false],
    ["protocol without colon", "signout", "http", host, {}, "/auth", "http://app.example/auth/signout", false],
    ["no protocol", "session", undefined, host, {}, "/auth", "https://app.example/auth/session", false],
    ["host with port", "csrf", "http", new Headers({ host: "localhost:3000" }), {}, "/api/auth", "http://localhost:3000/api/auth/csrf", false],
    [
      "forwarded host and proto",
      "callback",
      "http",
      new Headers({ host: "internal:8080", "x-forwarded-host": "app.example", "x-forwarded-proto": "https" }),
      {},
      "/auth",
      "https://app.example/auth/callback",
      false,
    ],
    [
      "forwarded proto with colon",
      "signin",
      "https",
      new Headers({ host: "app.example", "x-forwarded-proto": "http:" }),
      {},
      "/auth",
      "http://app.example/auth/signin",
      false,
    ],
    ["basePath slashes trimmed", "signin", "https", host, {}, "/api/auth/", "https://app.example/api/auth/signin", false],
    ["basePath without leading slash", "signin", "https", host, {}, "api/auth", "https://app.example/api/auth/signin", false],
    ["no basePath", "providers", "https", host, {}, undefined, "https://app.example/providers", false],
    ["AUTH_URL root", "signin", "http", host, { AUTH_URL: "https://env.example" }, "/auth", "https://env.example/auth/signin", false],
    [
      "AUTH_URL path equal to basePath",
      "signin",
      "http",
      host,
      { AUTH_URL: "https://env.example/api/auth" },
      "/api/auth",
      "https://env.example/api/auth/signin",
      false,
    ],
    [
      "AUTH_URL path differs from basePath",
      "signin",
      "http",
      host,
      { AUTH_URL: "https://env.example/other" },
      "/api/auth",
      "https://env.example/api/auth/signin",
      true,
    ],
    [
      "AUTH_URL with trailing slash differs",
      "signin",
      "http",
      host,
      { AUTH_URL: "https://env.example/api/auth/" },
      "/api/auth",
      "https://env.example/api/auth/signin",
      true,
    ],
    [
      "AUTH_URL path without basePath is kept",
      "error",
      "http",
      host,
      { AUTH_URL: "https://env.example/api/auth" },
      undefined,
      "https://env.example/api/auth/error",
      false,
    ],
    [
      "NEXTAUTH_URL fallback",
      "verify-request",
      "http",
      host,
      { NEXTAUTH_URL: "https://legacy.example/api/auth" },
      "/api/auth",
      "https://legacy.example/api/auth/verify-request",
      false,
    ],
    [
      "AUTH_URL wins over NEXTAUTH_URL",
      "signin",
      "http",
      host,
      { AUTH_URL: "https://env.example", NEXTAUTH_URL: "https://legacy.example" },
      "/auth",
      "https://env.example/auth/signin",
      false,
    ],
    [
      "env URL ignores forwarded headers",
      "signin",
      "http",
      new Headers({ host: "a.example", "x-forwarded-host": "b.example" }),
      { AUTH_URL: "http://env.example:8080" },
      "/auth",
      "http://env.example:8080/auth/signin",
      false,
    ],
    [
      "empty AUTH_URL falls through to headers",
      "signin",
      "https",
      host,
      { AUTH_URL: "" },
      "/auth",
      "https://app.example/auth/signin",
      false,
    ],
    [
      "webauthn-options",
      "webauthn-options",
      "https",
      host,
      {},
      "/auth",
      "https://app.example/auth/webauthn-options",
      false,
    ],
  ]

  it.each(cases)("%s", (_name, action, protocol, headers, env, basePath, expected, warns) => {
    const { ours, theirs, ourWarnings, theirWarnings } = both(action, protocol, headers, env, basePath)
    expect(ours).toBeInstanceOf(URL)
    expect(ours.href).toBe(expected)
    expect(ours.href).toBe(theirs.href)
    expect(ourWarnings).toEqual(warns ? [["env-url-basepath-mismatch"]] : [])
    expect(ourWarnings).toEqual(theirWarnings)
  })

  describe("fixed quirks", () => {
    it("treats basePath '/' as no base path (Auth.js gives a double slash)", () => {
      const ours = createActionURL("signin", "https", host, {}, { basePath: "/" })
      expect(ours.href).toBe("https://app.example/signin")
      const theirs = authjsCreateActionURL("signin", "https", host, {}, { basePath: "/", logger: silentLogger() })
      expect(theirs.href).toBe("https://app.example//signin")
    })

    it("keeps the env path with basePath '/' and no double slash", () => {
      const logger = silentLogger()
      const ours = createActionURL("signin", "https", host, { AUTH_URL: "https://env.example/api/auth" }, { basePath: "/", logger })
      expect(ours.href).toBe("https://env.example/api/auth/signin")
      expect(logger.warn).not.toHaveBeenCalled()
    })

    it("drops the query and fragment of the env URL", () => {
      const ours = createActionURL("signin", "https", host, { AUTH_URL: "https://env.example/?a=1#x" }, { basePath: "/auth" })
      expect(ours.href).toBe("https://env.example/auth/signin")
    })

    it("throws without an env URL and without a host (Auth.js gives https://null)", () => {
      expect(() => createActionURL("signin", "https", new Headers(), {}, { basePath: "/auth" })).toThrow(TypeError)
      const theirs = authjsCreateActionURL("signin", "https", new Headers(), {}, { basePath: "/auth", logger: silentLogger() })
      expect(theirs.host).toBe("null")
    })
  })

  it("throws on an unparsable env URL, like Auth.js", () => {
    expect(() => createActionURL("signin", "https", host, { AUTH_URL: "not a url" }, {})).toThrow(TypeError)
    expect(() => authjsCreateActionURL("signin", "https", host, { AUTH_URL: "not a url" }, { logger: silentLogger() })).toThrow(
      TypeError,
    )
  })

  it("works without a config or logger", () => {
    expect(createActionURL("signin", "https", host, {}).href).toBe("https://app.example/signin")
    expect(
      createActionURL("signin", "https", host, { AUTH_URL: "https://env.example/x" }, { basePath: "/auth" }).href,
    ).toBe("https://env.example/auth/signin")
  })
})

describe("setEnvDefaults: origin", () => {
  it("takes the public origin from AUTH_URL, keeps an explicit one, ignores an unparsable URL", () => {
    const fromEnv: AuthConfig = { providers: [] }
    setEnvDefaults({ AUTH_URL: "https://app.example/api/auth" }, fromEnv)
    expect(fromEnv.origin).toBe("https://app.example")
    const explicit: AuthConfig = { providers: [], origin: "https://other.example" }
    setEnvDefaults({ AUTH_URL: "https://app.example/api/auth" }, explicit)
    expect(explicit.origin).toBe("https://other.example")
    const broken: AuthConfig = { providers: [] }
    setEnvDefaults({ AUTH_URL: "not a url" }, broken)
    expect(broken.origin).toBeUndefined()
  })
})
