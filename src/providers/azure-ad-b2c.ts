/**
 * Sign in with Azure AD B2C (Microsoft Entra External ID's predecessor), an OpenID Connect provider.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"

/**
 * The claims of an Azure AD B2C ID token; the user flow chooses which are present. `emails` is
 * the list of the user's addresses.
 *
 * @see https://learn.microsoft.com/en-us/azure/active-directory-b2c/tokens-overview#claims
 */
export interface AzureADB2CProfile {
  sub: string
  oid?: string
  tid?: string
  name?: string
  given_name?: string
  family_name?: string
  preferred_username?: string
  emails?: string[]
  idp?: string
  tfp?: string
  nonce?: string
  auth_time?: number
  [claim: string]: unknown
}

/**
 * Azure AD B2C. Give the issuer of your tenant's user flow (`AUTH_AZURE_AD_B2C_ISSUER`, e.g.
 * `https://<tenant>.b2clogin.com/<tenant-id>/v2.0/`, with the policy in the discovery URL as your
 * user flow requires).
 *
 * @example
 * ```ts
 * import AzureADB2C from "authflow/providers/azure-ad-b2c"
 *
 * // AUTH_AZURE_AD_B2C_ID, AUTH_AZURE_AD_B2C_SECRET and AUTH_AZURE_AD_B2C_ISSUER are read from the environment
 * const config = { providers: [AzureADB2C] }
 * // or explicitly:
 * AzureADB2C({ clientId: process.env.AUTH_AZURE_AD_B2C_ID, clientSecret: process.env.AUTH_AZURE_AD_B2C_SECRET, issuer: process.env.AUTH_AZURE_AD_B2C_ISSUER })
 * ```
 * @see https://learn.microsoft.com/en-us/azure/active-directory-b2c/openid-connect
 */
export default function AzureADB2C(options: OAuthUserConfig<AzureADB2CProfile> = {}): OIDCConfig<AzureADB2CProfile> {
  return {
    id: "azure-ad-b2c",
    name: "Azure AD B2C",
    type: "oidc",
    ...(options.issuer ? { issuer: options.issuer } : {}),
    profile(profile) {
      return { id: profile.sub, name: profile.name ?? profile.preferred_username ?? null, email: profile.emails?.[0] ?? null, image: null }
    },
    style: { brandColor: "#0072c6", bg: "#0072c6", text: "#fff" },
    options,
  }
}
