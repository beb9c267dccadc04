/**
 * Sign in with Microsoft Entra ID (formerly Azure AD), an OpenID Connect provider.
 *
 * @module
 */
import { customFetch } from "../core/symbols.js"
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"

/**
 * The claims of an Entra ID v2.0 ID token.
 *
 * @see https://learn.microsoft.com/en-us/entra/identity-platform/id-token-claims-reference
 */
export interface MicrosoftEntraIDProfile {
  iss: string
  aud: string
  sub: string
  iat: number
  exp: number
  nbf?: number
  nonce?: string
  /** The user's object id, stable across applications of the tenant. */
  oid: string
  /** The tenant the user signed in to. */
  tid: string
  name?: string
  email?: string
  preferred_username?: string
  login_hint?: string
  roles?: string[]
  ver?: "2.0"
  [claim: string]: unknown
}

/** Sizes Microsoft Graph serves profile photos in. */
export type ProfilePhotoSize = 48 | 64 | 96 | 120 | 240 | 360 | 432 | 504 | 648

/** Options of {@link MicrosoftEntraID}. */
export type MicrosoftEntraIDUserConfig = OAuthUserConfig<MicrosoftEntraIDProfile> & {
  /**
   * Edge of the square profile photo read from Microsoft Graph into `user.image` (a data URL).
   * Default 48.
   */
  profilePhotoSize?: ProfilePhotoSize
}

/** The `/common` endpoint: work, school and personal Microsoft accounts of any tenant. */
export const defaultEntraIssuer = "https://login.microsoftonline.com/common/v2.0"

function base64(bytes: Uint8Array): string {
  let binary = ""
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

/**
 * Microsoft Entra ID. The issuer is `options.issuer`, else `AUTH_MICROSOFT_ENTRA_ID_ISSUER`, else
 * the multi-tenant `https://login.microsoftonline.com/common/v2.0`; pin one tenant with
 * `https://login.microsoftonline.com/<tenant id>/v2.0`. Requests `openid profile email User.Read`,
 * and reads the user's photo from Microsoft Graph (through the provider's `customFetch` when set)
 * into `user.image` as a data URL, or `null` when there is none.
 *
 * @example
 * ```ts
 * import MicrosoftEntraID from "authflow/providers/microsoft-entra-id"
 *
 * // AUTH_MICROSOFT_ENTRA_ID_ID, AUTH_MICROSOFT_ENTRA_ID_SECRET, AUTH_MICROSOFT_ENTRA_ID_ISSUER
 * const config = { providers: [MicrosoftEntraID] }
 * // or explicitly, for a single tenant:
 * MicrosoftEntraID({
 *   clientId: process.env.AUTH_MICROSOFT_ENTRA_ID_ID,
 *   clientSecret: process.env.AUTH_MICROSOFT_ENTRA_ID_SECRET,
 *   issuer: `https://login.microsoftonline.com/${process.env.TENANT_ID}/v2.0`,
 * })
 * ```
 * @see https://learn.microsoft.com/en-us/entra/identity-platform/v2-protocols-oidc
 */
export default function MicrosoftEntraID(options: MicrosoftEntraIDUserConfig = {}): OIDCConfig<MicrosoftEntraIDProfile> {
  const photoSize = options.profilePhotoSize ?? 48
  const envIssuer = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
    ?.AUTH_MICROSOFT_ENTRA_ID_ISSUER
  return {
    id: "microsoft-entra-id",
    name: "Microsoft Entra ID",
    type: "oidc",
    issuer: options.issuer ?? (envIssuer || defaultEntraIssuer),
    authorization: { params: { scope: "openid profile email User.Read" } },
    async profile(profile, tokens) {
      let image: string | null = null
      try {
        const fetchPhoto = options[customFetch] ?? globalThis.fetch
        const response = await fetchPhoto(`https://graph.microsoft.com/v1.0/me/photos/${photoSize}x${photoSize}/$value`, {
          headers: { Authorization: `Bearer ${tokens.access_token}` },
        })
        if (response.ok) {
          const type = response.headers.get("content-type")?.split(";")[0]?.trim() || "image/jpeg"
          image = `data:${type};base64,${base64(new Uint8Array(await response.arrayBuffer()))}`
        }
      } catch {
        // No photo (or Graph unreachable): the sign-in goes on without an image.
      }
      return { id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image }
    },
    style: { brandColor: "#0072c6", bg: "#0072c6", text: "#fff" },
    options,
  }
}
