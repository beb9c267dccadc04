/**
 * Sign in with Azure Active Directory, the former name of Microsoft Entra ID, an OpenID Connect
 * provider: kept for configurations whose accounts are linked under the `azure-ad` id.
 *
 * @module
 */
import MicrosoftEntraID, { defaultEntraIssuer, type MicrosoftEntraIDProfile, type MicrosoftEntraIDUserConfig } from "./microsoft-entra-id.js"
import type { OIDCConfig } from "./oauth.js"

/** The claims of an Azure AD (Microsoft Entra ID) v2.0 ID token. */
export type AzureADProfile = MicrosoftEntraIDProfile

/** Options of {@link AzureAD}: those of Microsoft Entra ID, plus a tenant to build the issuer from. */
export type AzureADUserConfig = MicrosoftEntraIDUserConfig & {
  /**
   * The tenant (an id, a domain, `common`, `organizations` or `consumers`) whose v2.0 issuer is used
   * when neither `issuer` nor `AUTH_AZURE_AD_ISSUER` is given.
   * @default "common"
   */
  tenantId?: string
}

/**
 * Azure AD: Microsoft Entra ID under the id Auth.js used before the rename, so accounts linked as
 * `azure-ad` keep matching; new configurations should use `authflow/providers/microsoft-entra-id`.
 * The issuer is `options.issuer`, else `AUTH_AZURE_AD_ISSUER`, else the v2.0 issuer of `tenantId`,
 * else the multi-tenant `common`. Everything else (scopes, the Graph photo) is Entra ID's.
 *
 * @example
 * ```ts
 * import AzureAD from "authflow/providers/azure-ad"
 *
 * // AUTH_AZURE_AD_ID, AUTH_AZURE_AD_SECRET and AUTH_AZURE_AD_ISSUER are read from the environment
 * const config = { providers: [AzureAD] }
 * // or explicitly:
 * AzureAD({ clientId: process.env.AUTH_AZURE_AD_ID, clientSecret: process.env.AUTH_AZURE_AD_SECRET, tenantId: "contoso.onmicrosoft.com" })
 * ```
 * @see https://learn.microsoft.com/en-us/entra/identity-platform/v2-protocols-oidc
 */
export default function AzureAD(options: AzureADUserConfig = {}): OIDCConfig<AzureADProfile> {
  const envIssuer = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.AUTH_AZURE_AD_ISSUER
  const tenantIssuer = options.tenantId ? `https://login.microsoftonline.com/${options.tenantId}/v2.0` : undefined
  const issuer = options.issuer ?? (envIssuer || tenantIssuer || defaultEntraIssuer)
  return { ...MicrosoftEntraID({ ...options, issuer }), id: "azure-ad", name: "Azure Active Directory", options }
}
