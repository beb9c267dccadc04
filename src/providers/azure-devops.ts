/**
 * Sign in with Azure DevOps Services, an OAuth 2 provider with Azure DevOps' own assertion-based code
 * exchange. Microsoft no longer registers new Azure DevOps OAuth apps: new configurations should use
 * Microsoft Entra ID.
 *
 * @module
 */
import { customFetch } from "../core/symbols.js"
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /_apis/profile/profiles/me?details=true&coreAttributes=Avatar` (abridged).
 *
 * @see https://learn.microsoft.com/en-us/rest/api/azure/devops/profile/profiles/get
 */
export interface AzureDevOpsProfile {
  id: string
  displayName: string
  publicAlias: string
  emailAddress: string
  coreRevision?: number
  timeStamp?: string
  revision?: number
  coreAttributes?: { Avatar?: { value?: { value?: string; contentType?: string } } }
  [claim: string]: unknown
}

/** Options of {@link AzureDevOps}. */
export type AzureDevOpsUserConfig = OAuthUserConfig<AzureDevOpsProfile> & {
  /**
   * The scopes the app was registered with, space-separated.
   * @default "vso.profile"
   */
  scope?: string
}

const tokenUrl = "https://app.vssps.visualstudio.com/oauth2/token"

/**
 * Azure DevOps. The authorization request asks for `response_type=Assertion`, and the code is
 * exchanged as a JWT-bearer assertion with the client secret as `client_assertion`: the provider
 * rewrites the token request (and a refresh) into that form. The image is the avatar of the
 * profile, as a data URL.
 *
 * @deprecated Microsoft no longer registers Azure DevOps OAuth apps; use Microsoft Entra ID.
 * @example
 * ```ts
 * import AzureDevOps from "authflow/providers/azure-devops"
 *
 * // AUTH_AZURE_DEVOPS_ID and AUTH_AZURE_DEVOPS_SECRET are read from the environment
 * const config = { providers: [AzureDevOps] }
 * // or explicitly:
 * AzureDevOps({ clientId: process.env.AUTH_AZURE_DEVOPS_ID, clientSecret: process.env.AUTH_AZURE_DEVOPS_SECRET, scope: "vso.profile vso.code" })
 * ```
 * @see https://learn.microsoft.com/en-us/azure/devops/integrate/get-started/authentication/oauth
 */
export default function AzureDevOps(options: AzureDevOpsUserConfig = {}): OAuthConfig<AzureDevOpsProfile> {
  const { [customFetch]: userFetch, ...rest } = options
  const devopsFetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const send = userFetch ?? globalThis.fetch
    const url = input instanceof Request ? input.url : String(input)
    if (url.startsWith(tokenUrl) && init?.body instanceof URLSearchParams) {
      const form = init.body
      const refresh = form.get("grant_type") === "refresh_token"
      const body = new URLSearchParams({
        client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
        client_assertion: form.get("client_secret") ?? "",
        grant_type: refresh ? "refresh_token" : "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion: (refresh ? form.get("refresh_token") : form.get("code")) ?? "",
        redirect_uri: form.get("redirect_uri") ?? "",
      })
      return send(input, { ...init, body })
    }
    return send(input, init)
  }) as typeof fetch
  return {
    id: "azure-devops",
    name: "Azure DevOps",
    type: "oauth",
    authorization: {
      url: "https://app.vssps.visualstudio.com/oauth2/authorize",
      params: { response_type: "Assertion", scope: options.scope ?? "vso.profile" },
    },
    token: tokenUrl,
    userinfo: "https://app.vssps.visualstudio.com/_apis/profile/profiles/me?details=true&coreAttributes=Avatar&api-version=6.0",
    // The secret travels as the assertion; the rewrite above reads it from the form.
    client: { token_endpoint_auth_method: "client_secret_post" },
    [customFetch]: devopsFetch,
    profile(profile) {
      const avatar = profile.coreAttributes?.Avatar?.value
      return {
        id: profile.id,
        name: profile.displayName ?? null,
        email: profile.emailAddress ?? null,
        image: avatar?.value ? `data:${avatar.contentType || "image/jpeg"};base64,${avatar.value}` : null,
      }
    },
    style: { brandColor: "#0078d4", bg: "#0078d4", text: "#fff" },
    // The user's customFetch is wrapped above; left in the options, the merge would unwrap it.
    options: userFetch ? rest : options,
  }
}
