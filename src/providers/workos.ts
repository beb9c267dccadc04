/**
 * Sign in through WorkOS SSO, a bridge to enterprise identity providers (SAML, OIDC, Google, ...).
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * A WorkOS SSO profile.
 *
 * @see https://workos.com/docs/reference/sso/profile
 */
export interface WorkOSProfile {
  object: "profile"
  id: string
  idp_id: string
  connection_id: string
  connection_type: string
  organization_id: string | null
  email: string
  first_name: string | null
  last_name: string | null
  role?: { slug: string }
  custom_attributes?: Record<string, unknown>
  raw_attributes?: { picture?: string; [attribute: string]: unknown }
  [claim: string]: unknown
}

/** Options of {@link WorkOS}. */
export type WorkOSUserConfig = OAuthUserConfig<WorkOSProfile> & {
  /** The WorkOS API base URL. Default `https://api.workos.com/`. */
  issuer?: string
  /** Sign in through this SSO connection (`conn_...`). */
  connection?: string
  /** Sign in through the organization's connection (`org_...`). */
  organization?: string
}

/** Older WorkOS token responses lack `token_type`; OAuth 2 requires it, and the token is a bearer token. */
async function conformWorkOSTokenResponse(response: Response): Promise<Response | undefined> {
  if (!response.ok) return undefined
  const body = (await response.clone().json().catch(() => undefined)) as Record<string, unknown> | undefined
  if (!body || typeof body.token_type === "string") return undefined
  const headers = new Headers(response.headers)
  headers.delete("content-length")
  return new Response(JSON.stringify({ ...body, token_type: "Bearer" }), { status: response.status, headers })
}

/**
 * WorkOS. WorkOS needs to know which connection to use: set `connection` or `organization` here,
 * or pass it per sign-in as an authorization parameter (`signIn("workos", {}, { connection })`).
 * The profile arrives with the token response; `/sso/profile` is read only when it does not. The
 * client secret (your WorkOS API key) goes in the token request body.
 *
 * @example
 * ```ts
 * import WorkOS from "authflow/providers/workos"
 *
 * // AUTH_WORKOS_ID (client id) and AUTH_WORKOS_SECRET (API key) are read from the environment
 * WorkOS({ clientId: process.env.AUTH_WORKOS_ID, clientSecret: process.env.AUTH_WORKOS_SECRET, connection: "conn_01E4ZCR3C56J083X43JQXF3JK5" })
 * ```
 * @see https://workos.com/docs/reference/sso/get-authorization-url
 */
export default function WorkOS(options: WorkOSUserConfig = {}): OAuthConfig<WorkOSProfile> {
  const base = (options.issuer ?? "https://api.workos.com/").replace(/\/*$/, "/")
  const params: Record<string, string> = {}
  if (options.connection) params.connection = options.connection
  if (options.organization) params.organization = options.organization
  return {
    id: "workos",
    name: "WorkOS",
    type: "oauth",
    authorization: { url: `${base}sso/authorize`, params },
    token: { url: `${base}sso/token`, conform: conformWorkOSTokenResponse },
    userinfo: {
      url: `${base}sso/profile`,
      async request({ tokens, fetch }) {
        if (tokens.profile && typeof tokens.profile === "object") return tokens.profile as WorkOSProfile
        const response = await fetch(`${base}sso/profile`, { headers: { Authorization: `Bearer ${tokens.access_token}` } })
        if (!response.ok) throw new Error(`WorkOS /sso/profile answered ${response.status}`)
        return (await response.json()) as WorkOSProfile
      },
    },
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      const name = [profile.first_name, profile.last_name].filter((part) => !!part).join(" ")
      return {
        id: profile.id,
        name: name || null,
        email: profile.email ?? null,
        image: typeof profile.raw_attributes?.picture === "string" ? profile.raw_attributes.picture : null,
      }
    },
    style: { brandColor: "#6363f1", bg: "#6363f1", text: "#fff" },
    options,
  }
}
