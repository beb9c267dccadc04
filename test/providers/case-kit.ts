/**
 * The shape of a provider test case and the builders that fill in the stand-in for the common
 * cases: an OIDC provider found by discovery, and an OAuth 2 provider with explicit endpoints.
 */
import type { TokenEndpointAuthMethod } from "../../src/providers/oauth.js"
import type { ProviderFactory, Route, StandIn, StandInOptions } from "./harness.js"

export interface ExpectedUser {
  name: string | null
  email: string | null
  /** Absent when the provider's profile has no picture claim. */
  image?: string | null
}

export interface ProviderCase {
  id: string
  name: string
  type: "oauth" | "oidc"
  factory: ProviderFactory
  /** Options besides client credentials and customFetch. */
  providerOptions?: Record<string, unknown>
  standIn: StandInOptions
  /** What `profile()` receives: the userinfo answer, or the ID token's claims. */
  profile: Record<string, unknown>
  user: ExpectedUser
  accountId: string
  authMethod: TokenEndpointAuthMethod
  /** Expected `scope` of the authorization request; `null` means none or empty, `undefined` not checked. */
  scope?: string | null
  /** Other authorization parameters the provider must send. */
  params?: Record<string, string>
  responseMode?: "form_post"
  callbackParams?: Record<string, string>
  /** Fields the provider's own userinfo request adds before `profile()` sees the profile. */
  added?: Record<string, unknown>
  /** Expected `account.scope` when the token response's scope is rewritten. */
  accountScope?: string
  /** The module of the Auth.js provider, when it differs from the id (`ory-hydra` for `hydra`). */
  authjsModule?: string
  /** The `issuer` the provider is configured with, when discovery happens elsewhere (`wellKnown`). */
  configIssuer?: string
  /** The authorization request's `response_type`. Default `code`. */
  responseType?: string
}

export const json = (body: unknown): Response => Response.json(body)
export const bearerRoute = (body: unknown): Route => (request: Request, standIn: StandIn) =>
  standIn.checkBearer(request, new URL(request.url).pathname) ?? json(body)

export const photoBytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46])
export const entraTenant = "9188040d-6c67-4c5b-b112-36a304b66dad"

/** An OIDC case: the stand-in serves discovery at `issuer` and the profile as ID token claims. */
export function oidc(
  base: Omit<ProviderCase, "type" | "standIn" | "authMethod"> & {
    issuer: string
    authMethod?: TokenEndpointAuthMethod
    standIn?: Partial<StandInOptions>
  },
): ProviderCase {
  const { issuer, standIn, ...rest } = base
  return {
    type: "oidc",
    authMethod: "client_secret_basic",
    scope: "openid profile email",
    ...rest,
    standIn: {
      issuer,
      idTokenClaims: base.profile,
      userinfo: base.profile,
      authMethod: base.authMethod ?? "client_secret_basic",
      ...standIn,
    },
  }
}

/** An OAuth case: explicit endpoints, the profile served at userinfo. */
export function oauth(
  base: Omit<ProviderCase, "type" | "standIn" | "authMethod"> & {
    authorization: string
    token: string
    userinfo: string
    authMethod?: TokenEndpointAuthMethod
    standIn?: Partial<StandInOptions>
  },
): ProviderCase {
  const { authorization, token, userinfo, standIn, ...rest } = base
  return {
    type: "oauth",
    authMethod: "client_secret_basic",
    ...rest,
    standIn: {
      authorizationEndpoint: authorization,
      tokenEndpoint: token,
      userinfoEndpoint: userinfo,
      userinfo: base.profile,
      authMethod: base.authMethod ?? "client_secret_basic",
      ...standIn,
    },
  }
}
