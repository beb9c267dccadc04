/**
 * The shape of OAuth 2 and OpenID Connect providers: built-in factories return it, and a plain
 * object written by the user is a provider too.
 *
 * @example
 * ```ts
 * const provider: OIDCConfig = { id: "corp", name: "Corp SSO", type: "oidc", issuer: "https://sso.corp.example", clientId, clientSecret }
 * ```
 * @module
 */
import { customFetch } from "../core/symbols.js"
import type { Account, Awaitable, CommonProviderOptions, Profile, ProviderStyle, User } from "../base-types.js"

/** The token endpoint's answer, as oauth4webapi validated it (`token_type` lowercased). */
export interface TokenSet {
  access_token?: string
  token_type?: Lowercase<string>
  expires_in?: number
  expires_at?: number
  id_token?: string
  refresh_token?: string
  scope?: string
  [parameter: string]: unknown
}

/** An endpoint: a URL, and query parameters to add to it. */
export interface EndpointConfig {
  url?: string
  params?: Record<string, unknown>
}

/** The token endpoint, with an optional fix-up of a non-conforming response. */
export interface TokenEndpointConfig extends EndpointConfig {
  /** Rewrite the token response before it is validated (for providers that stray from RFC 6749). */
  conform?: (response: Response) => Awaitable<Response | undefined>
  /** Signing key for `private_key_jwt` client authentication. */
  clientPrivateKey?: CryptoKey | { key: CryptoKey; kid?: string }
}

/** The userinfo endpoint, or a custom request that returns the profile. */
export interface UserinfoEndpointConfig<P = Profile> extends EndpointConfig {
  /** Fetch the profile yourself (GitHub's primary email, for instance). Use `context.fetch`. */
  request?: (context: { tokens: TokenSet; provider: OAuthProviderConfig<P>; fetch: typeof fetch }) => Awaitable<P>
}

/** How the client authenticates at the token endpoint. */
export type TokenEndpointAuthMethod = "client_secret_basic" | "client_secret_post" | "client_secret_jwt" | "private_key_jwt" | "none"

/** Fields common to `oauth` and `oidc` providers. */
export interface OAuthProviderConfig<P = Profile> extends CommonProviderOptions {
  type: "oauth" | "oidc"
  /** The issuer: with it alone, discovery finds the endpoints (RFC 8414 / OpenID Connect Discovery). */
  issuer?: string
  /**
   * Where the discovery document is, for a server that does not serve it at
   * `<issuer>/.well-known/openid-configuration` (Asgardeo, OneLogin). The document must then name
   * as its issuer the URL before `/.well-known/openid-configuration`.
   *
   * @default `<issuer>/.well-known/openid-configuration`
   * @example
   * ```ts
   * OneLogin({ issuer: "https://corp.onelogin.com", wellKnown: "https://corp.onelogin.com/oidc/2/.well-known/openid-configuration" })
   * ```
   * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderConfig
   */
  wellKnown?: string
  authorization?: string | EndpointConfig
  token?: string | TokenEndpointConfig
  userinfo?: string | UserinfoEndpointConfig<P>
  clientId?: string
  clientSecret?: string
  client?: {
    token_endpoint_auth_method?: TokenEndpointAuthMethod
    id_token_signed_response_alg?: string
    [metadata: string]: unknown
  }
  /**
   * Checks on the flow. authflow always uses PKCE (S256) and `state`, and a `nonce` for OIDC; the
   * list is kept for compatibility with Auth.js provider definitions and can only add checks.
   */
  checks?: ("pkce" | "state" | "nonce" | "none")[]
  /** Map the provider's profile to the user. Default: `sub ?? id`, `name`, `email`, `picture`. */
  profile?: (profile: P, tokens: TokenSet) => Awaitable<User & { id?: string }>
  /** Which token fields are stored with the account. Default: access/id/refresh tokens, expiry, scope, type. */
  account?: (tokens: TokenSet) => Partial<Account> | undefined | void
  /**
   * Refresh this provider's access token on the session read before it expires (it must give a
   * refresh token and an expiry). Overrides the configuration's `refresh`.
   * @default the configuration's `refresh` (off unless set)
   */
  refresh?: boolean
  /** OIDC: `false` reads the profile from userinfo instead of the ID token's claims. */
  idToken?: boolean
  redirectProxyUrl?: string
  /**
   * **Dangerous**: sign in an existing user whose email matches, without proof that the two
   * accounts belong to the same person. Only for providers that verify email addresses.
   */
  allowDangerousEmailAccountLinking?: boolean
  /**
   * **Dangerous**: allow plain `http:` endpoints on hosts other than loopback. Anything on the
   * network path can then read and change the tokens.
   */
  dangerouslyAllowInsecureHttp?: boolean
  /**
   * OIDC: sign-out also ends the user's session at the provider (RP-initiated logout): after the
   * local session ends, the browser goes to the provider's `end_session_endpoint` with
   * `id_token_hint` (JWT sessions keep the ID token for it; database sessions read it from the
   * user's account at the provider, with an adapter that has `listAccountsByUserId`), `client_id` and
   * `post_logout_redirect_uri` (the sign-out's callback URL, which must be registered at the
   * provider). A provider without an end-session endpoint, or an unreachable one, gives a local
   * sign-out only, logged as a warning.
   *
   * @default false
   * @example
   * ```ts
   * Keycloak({ issuer, endSessionAtProvider: true })
   * ```
   * @see https://openid.net/specs/openid-connect-rpinitiated-1_0.html
   */
  endSessionAtProvider?: boolean
  /**
   * OIDC: accept the provider's back-channel logout tokens at POST
   * `{basePath}/backchannel-logout/<provider id>` (register that URL at the provider as the
   * client's `backchannel_logout_uri`). A valid logout token ends the user's sessions signed in
   * before it: database sessions are deleted when read, JWT sessions end on their next read, through
   * the `revocationStore`.
   *
   * @default false
   * @example
   * ```ts
   * Keycloak({ issuer, backchannelLogout: true })
   * ```
   * @see https://openid.net/specs/openid-connect-backchannel-1_0.html
   */
  backchannelLogout?: boolean
  /** Replace `fetch` for this provider's endpoints. */
  [customFetch]?: typeof fetch
  style?: ProviderStyle
}

/** An OAuth 2 provider. */
export interface OAuthConfig<P = Profile> extends OAuthProviderConfig<P> {
  type: "oauth"
}

/** An OpenID Connect provider. */
export interface OIDCConfig<P = Profile> extends OAuthProviderConfig<P> {
  type: "oidc"
}

/** What a user passes to a built-in provider factory: anything to override, plus the usual credentials. */
export type OAuthUserConfig<P = Profile> = Partial<Omit<OAuthProviderConfig<P>, "type">> & Record<string, unknown>

/** The standard OpenID Connect claims a profile may carry. */
export interface StandardClaims {
  sub?: string | null
  id?: string | number | null
  name?: string | null
  nickname?: string | null
  preferred_username?: string | null
  email?: string | null
  picture?: unknown
}

/**
 * The user the standard OpenID Connect claims describe: `sub` (or `id`), the first of `name`,
 * `nickname`, `preferred_username`, and `email` and `picture`; claims the profile lacks are left
 * out. The default `profile()` of every provider that does not map its own.
 *
 * @example
 * ```ts
 * standardClaimsProfile({ sub: "248289761001", preferred_username: "jane", email: "jane@example.com" })
 * // { id: "248289761001", name: "jane", email: "jane@example.com" }
 * ```
 * @see https://openid.net/specs/openid-connect-core-1_0.html#StandardClaims
 */
export function standardClaimsProfile(profile: StandardClaims): User & { id?: string } {
  const user: User & { id?: string } = {}
  const id = profile.sub ?? profile.id
  if (id !== undefined && id !== null) user.id = String(id)
  const name = profile.name ?? profile.nickname ?? profile.preferred_username
  if (name !== undefined) user.name = name
  if (profile.email !== undefined) user.email = profile.email
  if (profile.picture !== undefined) user.image = profile.picture as string | null
  return user
}

/**
 * The URL of an endpoint given either way Auth.js configurations give it: a string, or an object
 * with `url`. Custom userinfo requests use it so a `userinfo` URL the user overrides is honoured.
 *
 * @example
 * ```ts
 * endpointUrl("https://api.example.com/me") // "https://api.example.com/me"
 * endpointUrl({ url: "https://api.example.com/me", params: { fields: "id" } }) // "https://api.example.com/me"
 * endpointUrl({ params: { scope: "read" } }) // undefined
 * ```
 */
export function endpointUrl(endpoint: string | EndpointConfig | undefined): string | undefined {
  if (typeof endpoint === "string") return endpoint
  return endpoint?.url === undefined ? undefined : String(endpoint.url)
}

/**
 * A token-response fix-up for providers whose successful answer has no `token_type` (Instagram,
 * VK, WeChat): it adds `token_type: "bearer"`, which oauth4webapi requires. Other answers, and
 * error answers, are left alone.
 *
 * @example
 * ```ts
 * const token: TokenEndpointConfig = { url: "https://oauth.vk.com/access_token", conform: withTokenType }
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1
 */
export async function withTokenType(response: Response): Promise<Response | undefined> {
  if (!response.ok) return undefined
  const body = (await response.clone().json().catch(() => undefined)) as Record<string, unknown> | undefined
  if (!body || typeof body !== "object" || Array.isArray(body) || typeof body.token_type === "string") return undefined
  const headers = new Headers(response.headers)
  headers.delete("content-length")
  return new Response(JSON.stringify({ ...body, token_type: "bearer" }), { status: response.status, headers })
}
