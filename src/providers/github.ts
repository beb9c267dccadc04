/**
 * Sign in with GitHub (or GitHub Enterprise Server), an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig, UserinfoEndpointConfig } from "./oauth.js"

/** One address from `GET /user/emails`. */
export interface GitHubEmail {
  email: string
  primary: boolean
  verified: boolean
  visibility: "public" | "private" | null
}

/**
 * The authenticated user as `GET /user` returns it. `email` is the public email, or `null`; the
 * provider then fills it in with the primary address from `GET /user/emails`.
 *
 * @see https://docs.github.com/en/rest/users/users#get-the-authenticated-user
 */
export interface GitHubProfile {
  id: number
  login: string
  node_id: string
  name: string | null
  email: string | null
  avatar_url: string
  html_url: string
  type: string
  site_admin: boolean
  company: string | null
  blog: string | null
  location: string | null
  bio: string | null
  twitter_username?: string | null
  public_repos: number
  followers: number
  following: number
  created_at: string
  updated_at: string
  [claim: string]: unknown
}

/** Options of {@link GitHub}: the usual OAuth options, plus the base URL of a GitHub Enterprise Server. */
export type GitHubUserConfig = OAuthUserConfig<GitHubProfile> & {
  /** GitHub Enterprise Server, e.g. `{ baseUrl: "https://github.example.com" }`. Default: github.com. */
  enterprise?: { baseUrl?: string }
}

function urlOf(endpoint: string | UserinfoEndpointConfig<GitHubProfile> | undefined): string | undefined {
  if (typeof endpoint === "string") return endpoint
  return endpoint?.url === undefined ? undefined : String(endpoint.url)
}

/**
 * GitHub. Requests `read:user user:email`; when the profile's email is private, the primary address
 * is read from `/user/emails`. The account id is the numeric user id as a string, as in Auth.js, so
 * existing accounts keep matching.
 *
 * @example
 * ```ts
 * import GitHub from "authflow/providers/github"
 *
 * // AUTH_GITHUB_ID and AUTH_GITHUB_SECRET are read from the environment
 * const config = { providers: [GitHub] }
 * // or explicitly, for GitHub Enterprise Server:
 * GitHub({ clientId: process.env.AUTH_GITHUB_ID, clientSecret: process.env.AUTH_GITHUB_SECRET, enterprise: { baseUrl: "https://github.example.com" } })
 * ```
 * @see https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps
 */
export default function GitHub(options: GitHubUserConfig = {}): OAuthConfig<GitHubProfile> {
  const enterpriseBase = options.enterprise?.baseUrl?.replace(/\/+$/, "")
  const baseUrl = enterpriseBase ?? "https://github.com"
  const apiBaseUrl = enterpriseBase ? `${enterpriseBase}/api/v3` : "https://api.github.com"
  return {
    id: "github",
    name: "GitHub",
    type: "oauth",
    // GitHub adds `iss` to its redirect; the engine compares it to this.
    issuer: `${baseUrl}/login/oauth`,
    authorization: { url: `${baseUrl}/login/oauth/authorize`, params: { scope: "read:user user:email" } },
    token: `${baseUrl}/login/oauth/access_token`,
    userinfo: {
      url: `${apiBaseUrl}/user`,
      async request({ tokens, provider, fetch }) {
        const headers = { Authorization: `Bearer ${tokens.access_token}`, Accept: "application/vnd.github+json", "User-Agent": "authflow" }
        const response = await fetch(urlOf(provider.userinfo) ?? `${apiBaseUrl}/user`, { headers })
        if (!response.ok) throw new Error(`GitHub /user answered ${response.status}`)
        const profile = (await response.json()) as GitHubProfile
        if (!profile.email) {
          // A private email is absent from /user; /user/emails lists it (needs the user:email scope).
          const emails = await fetch(`${apiBaseUrl}/user/emails`, { headers })
          if (emails.ok) {
            const list = (await emails.json()) as GitHubEmail[]
            const chosen = list.find((e) => e.primary) ?? list.find((e) => e.verified) ?? list[0]
            if (chosen) profile.email = chosen.email
          }
        }
        return profile
      },
    },
    profile(profile) {
      return {
        id: String(profile.id),
        name: profile.name ?? profile.login,
        email: profile.email,
        image: profile.avatar_url,
      }
    },
    style: { brandColor: "#24292f", bg: "#24292f", text: "#fff" },
    options,
  }
}
