/**
 * Sign in with GitLab (gitlab.com or a self-managed instance), an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /api/v4/user`.
 *
 * @see https://docs.gitlab.com/api/users/#get-the-current-user
 */
export interface GitLabProfile {
  id: number
  username: string
  name: string
  state: string
  avatar_url: string | null
  web_url: string
  email: string
  public_email?: string | null
  created_at?: string
  bio?: string
  location?: string | null
  two_factor_enabled?: boolean
  [claim: string]: unknown
}

/** Options of {@link GitLab}. */
export type GitLabUserConfig = OAuthUserConfig<GitLabProfile> & {
  /** A self-managed instance, e.g. `https://gitlab.example.com`. Default `https://gitlab.com`. */
  baseUrl?: string
}

/**
 * GitLab. Requests `read_user`. Point `baseUrl` at a self-managed instance; all three endpoints
 * follow it.
 *
 * @example
 * ```ts
 * import GitLab from "authflow/providers/gitlab"
 *
 * // AUTH_GITLAB_ID and AUTH_GITLAB_SECRET are read from the environment
 * const config = { providers: [GitLab] }
 * // or explicitly, for a self-managed instance:
 * GitLab({ clientId: process.env.AUTH_GITLAB_ID, clientSecret: process.env.AUTH_GITLAB_SECRET, baseUrl: "https://gitlab.example.com" })
 * ```
 * @see https://docs.gitlab.com/api/oauth2/#authorization-code-with-proof-key-for-code-exchange-pkce
 */
export default function GitLab(options: GitLabUserConfig = {}): OAuthConfig<GitLabProfile> {
  const baseUrl = (options.baseUrl ?? "https://gitlab.com").replace(/\/+$/, "")
  return {
    id: "gitlab",
    name: "GitLab",
    type: "oauth",
    authorization: { url: `${baseUrl}/oauth/authorize`, params: { scope: "read_user" } },
    token: `${baseUrl}/oauth/token`,
    userinfo: `${baseUrl}/api/v4/user`,
    profile(profile) {
      return {
        id: String(profile.sub ?? profile.id),
        name: profile.name ?? profile.username,
        email: profile.email ?? null,
        image: profile.avatar_url ?? null,
      }
    },
    style: { brandColor: "#fc6d26", bg: "#fc6d26", text: "#fff" },
    options,
  }
}
