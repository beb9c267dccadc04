/**
 * The drivers a configuration needs: one per provider for the sign-in machines, one for the
 * second factor when it is on, one for sign-out.
 *
 * @module
 */
import { credentialsDriver } from "./credentials.js"
import { oauthDriver } from "./oauth.js"
import { signOutDriver } from "./sign-out.js"
import { emailSignInDriver } from "./email-sign-in.js"
import { emailVerificationDriver } from "./email-verification.js"
import { webAuthnDriver } from "./webauthn.js"
import { secondFactorDriver } from "./second-factor.js"
import { resolveSecondFactor } from "../../core/second-factor-options.js"
import type { WebAuthnConfig } from "../../providers/webauthn-config.js"
import { configuredProviders } from "../world.js"
import type { MachineDriver } from "./driver.js"
import type { AuthflowFixtures } from "../fixtures.js"
import type { OAuthProviderConfig } from "../../providers/oauth.js"
import type { EmailConfig } from "../../providers/email-config.js"
import type { AuthConfig, CredentialsConfig } from "../../types.js"

/**
 * The drivers for every machine `config` uses, and the machines it does not use, with why.
 *
 * @example
 * ```ts
 * const { drivers, unused } = driversFor(config, fixtures)
 * drivers.map((driver) => driver.target) // ["oauth github", "credentials-sign-in credentials", "sign-out"]
 * ```
 */
export function driversFor(config: AuthConfig, fixtures: AuthflowFixtures): { drivers: MachineDriver[]; unused: { name: string; why: string }[] } {
  const drivers: MachineDriver[] = []
  const providers = configuredProviders(config)
  for (const provider of providers) {
    if (provider.type === "credentials") drivers.push(credentialsDriver(config, provider as CredentialsConfig, fixtures.credentials?.[provider.id]))
  }
  for (const provider of providers) {
    if (provider.type === "oauth" || provider.type === "oidc") drivers.push(oauthDriver(config, provider as OAuthProviderConfig))
  }
  for (const provider of providers) {
    if (provider.type === "email") drivers.push(emailSignInDriver(config, provider as EmailConfig), emailVerificationDriver(config, provider as EmailConfig))
  }
  for (const provider of providers) {
    if (provider.type === "webauthn") drivers.push(webAuthnDriver(config, provider as WebAuthnConfig))
  }
  const secondFactor = resolveSecondFactor(config.secondFactor) !== undefined
  if (secondFactor) drivers.push(secondFactorDriver(config, fixtures.credentials))
  drivers.push(signOutDriver(config))
  const unused: { name: string; why: string }[] = []
  const kinds = new Set(providers.map((provider) => provider.type))
  if (!kinds.has("credentials")) unused.push({ name: "credentials-sign-in", why: "no credentials provider" })
  if (!kinds.has("oauth") && !kinds.has("oidc")) unused.push({ name: "oauth", why: "no OAuth or OpenID Connect provider" })
  if (!kinds.has("email")) {
    unused.push({ name: "email-sign-in", why: "no email provider" })
    unused.push({ name: "email-verification", why: "no email provider" })
  }
  if (!kinds.has("webauthn")) unused.push({ name: "webauthn", why: "no WebAuthn or Passkey provider" })
  if (!secondFactor) unused.push({ name: "second-factor", why: "secondFactor is off: no sign-in waits for a second factor" })
  return { drivers, unused }
}
