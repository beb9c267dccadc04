/**
 * What a provider is once it passed the configuration checks, shared by the checks of every kind
 * (`assert.ts` and `checks/<kind>.ts`) without one importing the other.
 *
 * @module
 */
import type { CredentialsConfig } from "../../types.js"
import type { OAuthConfig, OIDCConfig } from "../../providers/oauth.js"
import type { EmailConfig } from "../../providers/email-config.js"
import type { WebAuthnConfig } from "../../providers/webauthn-config.js"

/**
 * An OAuth or OIDC provider that passed the configuration checks: it has a client id. No client
 * secret is implied (public clients have none).
 *
 * @example
 * ```ts
 * const client: o.Client = { client_id: provider.clientId } // a string, no `?? ""`
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CheckedOAuthConfig = (OAuthConfig<any> | OIDCConfig<any>) & { clientId: string }

/**
 * A provider that passed the configuration checks: a credentials provider (with `authorize`), an
 * OAuth/OIDC provider with a `clientId`, an email provider, or a WebAuthn provider (with
 * `experimental.enableWebAuthn` and an adapter that stores authenticators). Narrow it on `type`.
 *
 * @example
 * ```ts
 * if (provider.type === "oauth" || provider.type === "oidc") provider.clientId // string
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CheckedProviderConfig = CredentialsConfig<any> | CheckedOAuthConfig | EmailConfig | WebAuthnConfig
