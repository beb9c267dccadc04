/**
 * Sign in with Discord, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The user object of `GET /users/@me`.
 *
 * @see https://discord.com/developers/docs/resources/user#user-object
 */
export interface DiscordProfile {
  /** A snowflake. */
  id: string
  username: string
  /** `"0"` for users on the new unique usernames. */
  discriminator: string
  global_name: string | null
  avatar: string | null
  bot?: boolean
  system?: boolean
  mfa_enabled?: boolean
  banner?: string | null
  accent_color?: number | null
  locale?: string
  verified?: boolean
  /** Present with the `email` scope. */
  email?: string | null
  flags?: number
  premium_type?: number
  public_flags?: number
  [claim: string]: unknown
}

/** The avatar URL of a Discord user: their own, or the default one Discord assigns. */
export function discordAvatarUrl(profile: Pick<DiscordProfile, "id" | "avatar" | "discriminator">): string {
  if (profile.avatar) {
    const format = profile.avatar.startsWith("a_") ? "gif" : "png"
    return `https://cdn.discordapp.com/avatars/${profile.id}/${profile.avatar}.${format}`
  }
  const index =
    profile.discriminator === "0" || !profile.discriminator
      ? Number((BigInt(profile.id) >> 22n) % 6n)
      : Number(profile.discriminator) % 5
  return `https://cdn.discordapp.com/embed/avatars/${index}.png`
}

/**
 * Discord. Requests `identify email`.
 *
 * @example
 * ```ts
 * import Discord from "authflow/providers/discord"
 *
 * // AUTH_DISCORD_ID and AUTH_DISCORD_SECRET are read from the environment
 * const config = { providers: [Discord] }
 * // or explicitly:
 * Discord({ clientId: process.env.AUTH_DISCORD_ID, clientSecret: process.env.AUTH_DISCORD_SECRET })
 * ```
 * @see https://discord.com/developers/docs/topics/oauth2
 */
export default function Discord(options: OAuthUserConfig<DiscordProfile> = {}): OAuthConfig<DiscordProfile> {
  return {
    id: "discord",
    name: "Discord",
    type: "oauth",
    authorization: { url: "https://discord.com/oauth2/authorize", params: { scope: "identify email" } },
    token: "https://discord.com/api/oauth2/token",
    userinfo: "https://discord.com/api/users/@me",
    profile(profile) {
      return {
        id: profile.id,
        name: profile.global_name ?? profile.username,
        email: profile.email ?? null,
        image: discordAvatarUrl(profile),
      }
    },
    style: { brandColor: "#5865f2", bg: "#5865f2", text: "#fff" },
    options,
  }
}
