/**
 * Provider definitions without the engine: the shape each factory returns, its endpoints once the
 * user's options are merged, `profile()` on realistic provider answers (and the same account id as
 * Auth.js's provider, so existing accounts keep matching), and the custom userinfo requests and
 * token-response fix-ups, run against the stand-in server.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { customFetch } from "../../src/index.js"
import type { EndpointConfig, OAuthProviderConfig, TokenEndpointConfig, TokenSet, UserinfoEndpointConfig } from "../../src/providers/oauth.js"
import Apple from "../../src/providers/apple.js"
import Discord, { discordAvatarUrl } from "../../src/providers/discord.js"
import FusionAuth from "../../src/providers/fusionauth.js"
import GitHub from "../../src/providers/github.js"
import GitLab from "../../src/providers/gitlab.js"
import MicrosoftEntraID, { defaultEntraIssuer } from "../../src/providers/microsoft-entra-id.js"
import Notion from "../../src/providers/notion.js"
import OIDC from "../../src/providers/oidc.js"
import Twitch from "../../src/providers/twitch.js"
import WorkOS from "../../src/providers/workos.js"
import Bitbucket from "../../src/providers/bitbucket.js"
import Dropbox from "../../src/providers/dropbox.js"
import Asgardeo from "../../src/providers/asgardeo.js"
import AzureAD from "../../src/providers/azure-ad.js"
import AzureDevOps from "../../src/providers/azure-devops.js"
import Descope from "../../src/providers/descope.js"
import OneLogin from "../../src/providers/onelogin.js"
import Threads from "../../src/providers/threads.js"
import TikTok from "../../src/providers/tiktok.js"
import WeChat from "../../src/providers/wechat.js"
import { cases, entraTenant, rawProfile, type ProviderCase } from "./cases.js"
import { StandIn, resolved, urlKey } from "./harness.js"

const urlOf = (endpoint: string | EndpointConfig | undefined): string | undefined =>
  typeof endpoint === "string" ? endpoint : endpoint?.url
const paramsOf = (endpoint: string | EndpointConfig | undefined): Record<string, unknown> =>
  typeof endpoint === "string" ? Object.fromEntries(new URL(endpoint).searchParams) : (endpoint?.params ?? {})

/** Runs a provider's custom userinfo request against a stand-in, as the engine would. */
async function requestUserinfo(provider: OAuthProviderConfig<any>, standIn: StandIn, tokens: TokenSet = {}) {
  const userinfo = provider.userinfo as UserinfoEndpointConfig<any>
  expect(typeof userinfo.request).toBe("function")
  return userinfo.request!({ tokens: { access_token: standIn.accessToken, token_type: "bearer", ...tokens }, provider, fetch: standIn.fetch as typeof fetch })
}

function providerFor(c: ProviderCase, standIn?: StandIn) {
  return c.factory({ clientId: "client-id", clientSecret: "client-secret", ...c.providerOptions, ...(standIn ? { [customFetch]: standIn.fetch } : {}) })
}

describe.each(cases)("$id", (c) => {
  it("is a factory returning its definition, with the user's options object under `options`", () => {
    const options = { clientId: "id", clientSecret: "secret", ...c.providerOptions }
    const provider = c.factory(options)
    expect(provider).toMatchObject({ id: c.id, name: c.name, type: c.type })
    expect(provider.options).toBe(options)
    // Called with nothing (as `providers: [Factory]` does), it still works.
    expect(c.factory()).toMatchObject({ id: c.id, type: c.type })
    expect(typeof provider.profile).toBe("function")
  })

  it("has a style and no remote logo", () => {
    const { style } = c.factory()
    expect(style).toBeDefined()
    expect(style!.logo).toBeUndefined()
    expect(style!.brandColor).toMatch(/^#[0-9a-f]{3,6}$/i)
    expect(style!.bg).toMatch(/^#[0-9a-f]{3,6}$/i)
    expect(style!.text).toMatch(/^#[0-9a-f]{3,6}$/i)
  })

  it("defines its endpoints", () => {
    const provider = resolved(providerFor(c))
    if (c.type === "oauth") {
      expect(urlOf(provider.authorization)).toBe(c.standIn.authorizationEndpoint)
      expect(urlOf(provider.token)).toBe(c.standIn.tokenEndpoint)
      expect(urlKey(urlOf(provider.userinfo)!)).toBe(c.standIn.userinfoEndpoint)
    } else {
      expect(provider.issuer).toBe(c.configIssuer ?? c.standIn.issuer)
      expect(urlOf(provider.authorization)).toBeUndefined()
    }
    const params = paramsOf(provider.authorization)
    // OIDC providers without a scope of their own get the engine's `openid profile email`.
    if (c.scope) expect(params.scope ?? (c.type === "oidc" ? "openid profile email" : undefined)).toBe(c.scope)
    if (c.scope === null) expect(params.scope ?? "").toBe("")
    for (const [name, value] of Object.entries(c.params ?? {})) expect(params[name]).toBe(value)
    expect(provider.client?.token_endpoint_auth_method ?? "client_secret_basic").toBe(c.authMethod)
  })

  it("maps the provider's profile to the user", async () => {
    const standIn = new StandIn(c.standIn)
    const provider = providerFor(c, standIn)
    const user = await provider.profile!(structuredClone(rawProfile(c)) as never, { access_token: standIn.accessToken, token_type: "bearer" })
    expect(user).toEqual({ id: c.accountId, ...c.user })
    expect(standIn.failures).toEqual([])
  })

  it("gives the same account id as the Auth.js provider", async () => {
    const raw = structuredClone(rawProfile(c))
    let expected: unknown
    if (c.id === "oidc") {
      expected = raw.sub
    } else {
      // Auth.js's Entra profile() fetches a photo from Graph; keep it off the network.
      vi.stubGlobal("fetch", async () => new Response(null, { status: 404 }))
      const { default: authjsFactory } = (await import(`@auth/core/providers/${c.authjsModule ?? c.id}`)) as { default: (o: object) => any }
      const authjs = authjsFactory({ clientId: "id", clientSecret: "secret" })
      expected = authjs.profile ? (await authjs.profile(raw, { access_token: "at" })).id : (raw.sub ?? raw.id)
    }
    const ours = await providerFor(c, new StandIn(c.standIn)).profile!(structuredClone(rawProfile(c)) as never, { access_token: "at" })
    // Auth.js stores `profile.id.toString()` as the account id.
    expect(ours.id).toBe(String(expected))
  })
})

afterEach(() => {
  vi.unstubAllGlobals()
  vi.unstubAllEnvs()
})

describe("GitHub", () => {
  const standInOptions = () => ({ ...cases.find((c) => c.id === "github")!.standIn })

  it("reads the primary email from /user/emails when the profile has none", async () => {
    const standIn = new StandIn(standInOptions())
    const provider = resolved(GitHub({ [customFetch]: standIn.fetch }))
    const profile = await requestUserinfo(provider, standIn)
    expect(profile.email).toBe("octocat@github.com")
    expect(standIn.requests.map((r) => `${r.method} ${r.url}`)).toEqual(["GET https://api.github.com/user", "GET https://api.github.com/user/emails"])
    for (const request of standIn.requests) {
      expect(request.headers["user-agent"]).toBeTruthy()
      expect(request.headers.authorization).toBe(`Bearer ${standIn.accessToken}`)
    }
    expect(standIn.failures).toEqual([])
  })

  it("keeps a public email without asking /user/emails", async () => {
    const standIn = new StandIn({ ...standInOptions(), userinfo: { id: 1, login: "pub", name: null, email: "pub@example.com", avatar_url: "https://a/1" } })
    const profile = await requestUserinfo(resolved(GitHub()), standIn)
    expect(profile.email).toBe("pub@example.com")
    expect(standIn.requests.map((r) => r.url)).toEqual(["https://api.github.com/user"])
    expect(await GitHub().profile!(profile, {})).toEqual({ id: "1", name: "pub", email: "pub@example.com", image: "https://a/1" })
  })

  it("goes on without an email when /user/emails is refused", async () => {
    const standIn = new StandIn({
      ...standInOptions(),
      routes: { "GET https://api.github.com/user/emails": () => Response.json({ message: "Forbidden" }, { status: 403 }) },
    })
    const profile = await requestUserinfo(resolved(GitHub()), standIn)
    expect(profile.email).toBeNull()
  })

  it("uses a userinfo URL the user overrides", async () => {
    const standIn = new StandIn({ ...standInOptions(), userinfoEndpoint: "https://proxy.test/github/user" })
    const provider = resolved(GitHub({ userinfo: { url: "https://proxy.test/github/user" } }))
    expect((await requestUserinfo(provider, standIn)).login).toBe("octocat")
    expect(standIn.requests[0]!.url).toBe("https://proxy.test/github/user")
  })

  it("lets an env-style override replace the scope and keep the authorization URL", () => {
    const provider = resolved(GitHub({ clientId: "id", clientSecret: "secret", authorization: { params: { scope: "read:user" } } }))
    expect(provider.authorization).toEqual({ url: "https://github.com/login/oauth/authorize", params: { scope: "read:user" } })
    expect(provider.clientId).toBe("id")
  })

  it("follows a GitHub Enterprise Server base URL", async () => {
    const provider = resolved(GitHub({ enterprise: { baseUrl: "https://github.example.com/" } }))
    expect(provider.issuer).toBe("https://github.example.com/login/oauth")
    expect(urlOf(provider.authorization)).toBe("https://github.example.com/login/oauth/authorize")
    expect(provider.token).toBe("https://github.example.com/login/oauth/access_token")
    expect(urlOf(provider.userinfo)).toBe("https://github.example.com/api/v3/user")
    const standIn = new StandIn({
      userinfoEndpoint: "https://github.example.com/api/v3/user",
      userinfo: { id: 7, login: "ghe", name: "GHE", email: null, avatar_url: "https://github.example.com/a/7" },
      routes: { "GET https://github.example.com/api/v3/user/emails": () => Response.json([{ email: "ghe@example.com", primary: true, verified: true }]) },
    })
    expect((await requestUserinfo(provider, standIn)).email).toBe("ghe@example.com")
  })
})

describe("GitLab", () => {
  it("defaults to gitlab.com", () => {
    const provider = GitLab()
    expect(urlOf(provider.authorization)).toBe("https://gitlab.com/oauth/authorize")
    expect(provider.token).toBe("https://gitlab.com/oauth/token")
    expect(provider.userinfo).toBe("https://gitlab.com/api/v4/user")
  })

  it("puts every endpoint on a self-managed baseUrl, with or without a trailing slash", () => {
    for (const baseUrl of ["https://git.corp.test", "https://git.corp.test/"]) {
      const provider = GitLab({ baseUrl })
      expect(urlOf(provider.authorization)).toBe("https://git.corp.test/oauth/authorize")
      expect(provider.token).toBe("https://git.corp.test/oauth/token")
      expect(provider.userinfo).toBe("https://git.corp.test/api/v4/user")
    }
  })
})

describe("Microsoft Entra ID", () => {
  it("defaults to the multi-tenant /common issuer", () => {
    vi.stubEnv("AUTH_MICROSOFT_ENTRA_ID_ISSUER", undefined as unknown as string)
    expect(MicrosoftEntraID().issuer).toBe("https://login.microsoftonline.com/common/v2.0")
    expect(defaultEntraIssuer).toBe("https://login.microsoftonline.com/common/v2.0")
  })

  it("takes the issuer from the options, else from AUTH_MICROSOFT_ENTRA_ID_ISSUER", () => {
    vi.stubEnv("AUTH_MICROSOFT_ENTRA_ID_ISSUER", "https://login.microsoftonline.com/env-tenant/v2.0")
    expect(MicrosoftEntraID().issuer).toBe("https://login.microsoftonline.com/env-tenant/v2.0")
    const tenant = `https://login.microsoftonline.com/${entraTenant}/v2.0`
    expect(resolved(MicrosoftEntraID({ issuer: tenant })).issuer).toBe(tenant)
  })

  it("reads the photo in the requested size, through customFetch", async () => {
    const standIn = new StandIn({
      routes: {
        "GET https://graph.microsoft.com/v1.0/me/photos/96x96/$value": (request, s) =>
          s.checkBearer(request, "photo") ?? new Response(new Uint8Array([1, 2, 3]), { headers: { "content-type": "image/png" } }),
      },
    })
    const provider = MicrosoftEntraID({ profilePhotoSize: 96, [customFetch]: standIn.fetch })
    const user = await provider.profile!({ sub: "s", oid: "o", tid: "t", name: "N", email: "n@x.test" } as never, { access_token: standIn.accessToken })
    expect(user).toEqual({ id: "s", name: "N", email: "n@x.test", image: "data:image/png;base64,AQID" })
    expect(standIn.failures).toEqual([])
  })

  it("signs in without an image when there is no photo or Graph fails", async () => {
    const missing = new StandIn({ routes: { "GET https://graph.microsoft.com/v1.0/me/photos/48x48/$value": () => new Response(null, { status: 404 }) } })
    const noPhoto = await MicrosoftEntraID({ [customFetch]: missing.fetch }).profile!({ sub: "s" } as never, { access_token: "at" })
    expect(noPhoto).toEqual({ id: "s", name: null, email: null, image: null })
    const broken = MicrosoftEntraID({ [customFetch]: async () => Promise.reject(new TypeError("fetch failed")) })
    expect((await broken.profile!({ sub: "s" } as never, { access_token: "at" })).image).toBeNull()
  })
})

describe("Apple", () => {
  it("asks for a form_post answer with name and email, and authenticates in the body", () => {
    const provider = Apple()
    expect(provider.authorization).toEqual({ params: { scope: "name email", response_mode: "form_post" } })
    expect(provider.client).toEqual({ token_endpoint_auth_method: "client_secret_post" })
  })

  it("falls back to the email for the name after the first sign-in", async () => {
    const user = await Apple().profile!({ sub: "001", email: "a@privaterelay.appleid.com" } as never, {})
    expect(user).toEqual({ id: "001", name: "a@privaterelay.appleid.com", email: "a@privaterelay.appleid.com", image: null })
  })
})

describe("Discord", () => {
  it("computes the default avatar for new and legacy usernames", () => {
    expect(discordAvatarUrl({ id: "80351110224678912", avatar: null, discriminator: "0" })).toBe(
      `https://cdn.discordapp.com/embed/avatars/${Number((80351110224678912n >> 22n) % 6n)}.png`,
    )
    expect(discordAvatarUrl({ id: "1", avatar: null, discriminator: "1337" })).toBe("https://cdn.discordapp.com/embed/avatars/2.png")
    expect(discordAvatarUrl({ id: "1", avatar: "a_abc", discriminator: "0" })).toBe("https://cdn.discordapp.com/avatars/1/a_abc.gif")
  })

  it("falls back to the username without a global name", async () => {
    const user = await Discord().profile!({ id: "1", username: "legacy", discriminator: "1337", global_name: null, avatar: null } as never, {})
    expect(user.name).toBe("legacy")
    expect(user.email).toBeNull()
  })
})

describe("custom userinfo requests", () => {
  it("Notion reads the installing user from /v1/users/me with the API version header", async () => {
    const standIn = new StandIn(cases.find((c) => c.id === "notion")!.standIn)
    const profile = await requestUserinfo(resolved(Notion()), standIn)
    expect(profile.id).toBe("e79a0b74-3aba-4149-9f74-0bb5791a6ee6")
    expect(standIn.failures).toEqual([])
  })

  it("Notion falls back to the token response's owner", async () => {
    const standIn = new StandIn({ routes: { "GET https://api.notion.com/v1/users/me": () => new Response(null, { status: 500 }) } })
    const owner = { type: "user", user: { object: "user", id: "u-1", type: "person", name: "N", avatar_url: null, person: {} } }
    expect((await requestUserinfo(resolved(Notion()), standIn, { owner })).id).toBe("u-1")
  })

  it("Dropbox POSTs to get_current_account without a body", async () => {
    const standIn = new StandIn({ ...cases.find((c) => c.id === "dropbox")!.standIn })
    const profile = await requestUserinfo(resolved(Dropbox()), standIn)
    expect(profile.account_id).toBe("dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc")
    expect(standIn.requests).toMatchObject([{ method: "POST", body: "" }])
    expect(standIn.failures).toEqual([])
  })

  it("Bitbucket adds the primary confirmed email", async () => {
    const standIn = new StandIn(cases.find((c) => c.id === "bitbucket")!.standIn)
    expect((await requestUserinfo(resolved(Bitbucket()), standIn)).email).toBe("tutorials@example.com")
    expect(standIn.failures).toEqual([])
  })

  it("WorkOS uses the profile of the token response, else GETs /sso/profile", async () => {
    const c = cases.find((x) => x.id === "workos")!
    const inline = new StandIn({})
    expect((await requestUserinfo(resolved(WorkOS()), inline, { profile: c.profile })).id).toBe(c.accountId)
    expect(inline.requests).toEqual([])
    const remote = new StandIn({ userinfoEndpoint: "https://api.workos.com/sso/profile", userinfo: c.profile })
    expect((await requestUserinfo(resolved(WorkOS()), remote)).id).toBe(c.accountId)
    expect(remote.requests.map((r) => r.url)).toEqual(["https://api.workos.com/sso/profile"])
  })

  it("WorkOS follows a custom issuer and sends the organization", () => {
    const provider = WorkOS({ issuer: "https://auth.corp.test", organization: "org_1" })
    expect(provider.authorization).toEqual({ url: "https://auth.corp.test/sso/authorize", params: { organization: "org_1" } })
    expect(urlOf(provider.token as TokenEndpointConfig)).toBe("https://auth.corp.test/sso/token")
  })
})

describe("token response fix-ups", () => {
  const conformOf = (provider: OAuthProviderConfig<any>) => (provider.token as TokenEndpointConfig).conform!

  it("Twitch joins an array scope and leaves other answers alone", async () => {
    const conform = conformOf(Twitch())
    const fixed = await conform(Response.json({ access_token: "a", token_type: "bearer", scope: ["openid", "user:read:email"] }))
    expect(await fixed!.json()).toEqual({ access_token: "a", token_type: "bearer", scope: "openid user:read:email" })
    expect(await conform(Response.json({ access_token: "a", token_type: "bearer", scope: "openid" }))).toBeUndefined()
    expect(await conform(Response.json({ status: 400, message: "Invalid authorization code" }, { status: 400 }))).toBeUndefined()
  })

  it("FusionAuth drops WWW-Authenticate from a successful answer only", async () => {
    const conform = conformOf(FusionAuth({ issuer: "https://fa.test" }))
    const fixed = await conform(Response.json({ access_token: "a" }, { headers: { "www-authenticate": "Bearer" } }))
    expect(fixed!.headers.has("www-authenticate")).toBe(false)
    expect(await fixed!.json()).toEqual({ access_token: "a" })
    expect(await conform(new Response(null, { status: 401, headers: { "www-authenticate": "Basic" } }))).toBeUndefined()
  })

  it("FusionAuth derives token and userinfo from the issuer and sends the tenant", () => {
    const provider = FusionAuth({ issuer: "https://fa.test/", tenantId: "t-1" })
    expect(urlOf(provider.token as TokenEndpointConfig)).toBe("https://fa.test/oauth2/token")
    expect(provider.userinfo).toBe("https://fa.test/oauth2/userinfo")
    expect(provider.authorization).toEqual({ params: { scope: "openid offline_access email profile", tenantId: "t-1" } })
  })

  it("WorkOS adds a missing token_type", async () => {
    const conform = conformOf(WorkOS())
    const fixed = await conform(Response.json({ access_token: "a", profile: { id: "p" } }))
    expect(await fixed!.json()).toEqual({ access_token: "a", profile: { id: "p" }, token_type: "Bearer" })
    expect(await conform(Response.json({ access_token: "a", token_type: "Bearer" }))).toBeUndefined()
  })
})

describe("OIDC (generic)", () => {
  it("is `oidc` / OpenID Connect, renamed by the options", () => {
    const provider = resolved(OIDC({ id: "corp", name: "Corp SSO", issuer: "https://sso.corp.test" }))
    expect(provider).toMatchObject({ id: "corp", name: "Corp SSO", type: "oidc", issuer: "https://sso.corp.test" })
    expect(OIDC().issuer).toBeUndefined()
  })
})

describe("Auth.js option shapes", () => {
  it("an endpoint given as a URL string replaces the provider's object, its query the parameters", async () => {
    const provider = resolved(GitLab({ authorization: "https://gitlab.example.com/oauth/authorize?scope=read_user+api" }))
    expect(provider.authorization).toBe("https://gitlab.example.com/oauth/authorize?scope=read_user+api")
    const { resolveEndpoint } = await import("../../src/core/oauth/endpoints.js")
    expect(resolveEndpoint(provider.authorization).params).toEqual({ scope: "read_user api" })
  })

  it("an object without url over a provider's URL string keeps the URL", () => {
    const conform = async () => undefined
    const github = resolved(GitHub({ token: { conform }, authorization: { params: { prompt: "consent" } } }))
    expect(github.token).toEqual({ url: "https://github.com/login/oauth/access_token", conform })
    expect(github.authorization).toEqual({ url: "https://github.com/login/oauth/authorize", params: { scope: "read:user user:email", prompt: "consent" } })
    expect(resolved(GitLab({ userinfo: { params: { fields: "id" } } })).userinfo).toEqual({ url: "https://gitlab.com/api/v4/user", params: { fields: "id" } })
  })

  it("a URL's query and the object's params are both sent, params winning", async () => {
    const { resolveEndpoint } = await import("../../src/core/oauth/endpoints.js")
    expect(resolveEndpoint({ url: "https://x.test/authorize?scope=a&prompt=none", params: { prompt: "login" } }).params).toEqual({ scope: "a", prompt: "login" })
  })
})

describe("added providers", () => {
  it("Descope builds its issuer from the project id when none is given", () => {
    expect(Descope({ clientId: "P2abc" }).issuer).toBe("https://api.descope.com/P2abc")
    expect(Descope({ clientId: "P2abc", issuer: "https://auth.example.com/P2abc" }).issuer).toBe("https://auth.example.com/P2abc")
    expect(Descope().issuer).toBeUndefined()
  })

  it("Asgardeo and OneLogin point wellKnown at where their discovery documents are", () => {
    expect(Asgardeo({ issuer: "https://api.asgardeo.io/t/acme/" })).toMatchObject({ issuer: "https://api.asgardeo.io/t/acme", wellKnown: "https://api.asgardeo.io/t/acme/oauth2/token/.well-known/openid-configuration" })
    expect(OneLogin({ issuer: "https://acme.onelogin.com" }).wellKnown).toBe("https://acme.onelogin.com/oidc/2/.well-known/openid-configuration")
  })

  it("Azure AD takes the issuer from the options, else AUTH_AZURE_AD_ISSUER, else the tenant, else common", () => {
    vi.stubEnv("AUTH_AZURE_AD_ISSUER", "")
    expect(AzureAD().issuer).toBe("https://login.microsoftonline.com/common/v2.0")
    expect(AzureAD({ tenantId: "contoso.onmicrosoft.com" }).issuer).toBe("https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0")
    vi.stubEnv("AUTH_AZURE_AD_ISSUER", "https://login.microsoftonline.com/env/v2.0")
    expect(AzureAD({ tenantId: "ignored" }).issuer).toBe("https://login.microsoftonline.com/env/v2.0")
    expect(AzureAD({ issuer: "https://login.microsoftonline.com/mine/v2.0" }).issuer).toBe("https://login.microsoftonline.com/mine/v2.0")
    expect(AzureAD()).toMatchObject({ id: "azure-ad", name: "Azure Active Directory", type: "oidc" })
  })

  it("Threads reads the flat answer of /me as well as the `data` shape", async () => {
    const user = await Threads().profile!({ id: "1", username: "t", threads_profile_picture_url: "https://t.test/p.jpg" } as never, {})
    expect(user).toEqual({ id: "1", name: "t", email: null, image: "https://t.test/p.jpg" })
  })

  it("TikTok, WeChat and Azure DevOps wrap the user's customFetch instead of being unwrapped by the merge", async () => {
    const seen: string[] = []
    const userFetch = (async (input: string | URL | Request) => {
      seen.push(String(input))
      return Response.json({})
    }) as typeof fetch
    for (const factory of [TikTok, WeChat, AzureDevOps]) {
      const provider = resolved(factory({ clientId: "id", [customFetch]: userFetch }))
      expect(provider[customFetch]).not.toBe(userFetch)
      await provider[customFetch]!("https://elsewhere.test/x")
    }
    expect(seen).toEqual(["https://elsewhere.test/x", "https://elsewhere.test/x", "https://elsewhere.test/x"])
  })

  it("withTokenType adds bearer to a successful answer without token_type, and leaves the others", async () => {
    const { withTokenType } = await import("../../src/providers/oauth.js")
    expect(await (await withTokenType(Response.json({ access_token: "a" })))!.json()).toEqual({ access_token: "a", token_type: "bearer" })
    expect(await withTokenType(Response.json({ access_token: "a", token_type: "Bearer" }))).toBeUndefined()
    expect(await withTokenType(Response.json({ error: "invalid_grant" }, { status: 400 }))).toBeUndefined()
  })
})
