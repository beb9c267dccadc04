/**
 * The drivers a configuration needs: one per provider for the sign-in machines (and a Password
 * provider's sign-up, resets, changes, links and codes; an email provider's code, with its `code`
 * option), one for the second factor when it is on, one for sign-out.
 *
 * @module
 */
import { credentialsDriver } from "./credentials.js"
import { passwordSignInDriver } from "./password-sign-in.js"
import { passwordSignUpDriver } from "./password-sign-up.js"
import { passwordVerifyCodeDriver } from "./password-verify-code.js"
import { passwordResetRequestDriver } from "./password-reset-request.js"
import { passwordResetDriver } from "./password-reset.js"
import { passwordResetCodeDriver } from "./password-reset-code.js"
import { passwordChangeDriver } from "./password-change.js"
import { passwordVerifyEmailDriver } from "./password-verify-email.js"
import { passwordChangeEmailDriver } from "./password-change-email.js"
import { passwordConfirmEmailDriver } from "./password-confirm-email.js"
import { oauthDriver } from "./oauth.js"
import { signOutDriver } from "./sign-out.js"
import { emailSignInDriver } from "./email-sign-in.js"
import { emailVerificationDriver } from "./email-verification.js"
import { emailCodeDriver } from "./email-code.js"
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
  // A Password provider's accounts are authflow's: the kit signs up, and keeps one of its own to sign in with, reset and change.
  const passwordAccounts = (provider: { type: string }) => provider.type === "credentials" && (provider as CredentialsConfig).passwordAccounts !== undefined
  const unused: { name: string; why: string }[] = []
  for (const provider of providers) {
    if (provider.type === "credentials" && !passwordAccounts(provider)) drivers.push(credentialsDriver(config, provider as CredentialsConfig, fixtures.credentials?.[provider.id]))
    if (passwordAccounts(provider)) {
      const password = provider as CredentialsConfig
      const settings = password.passwordAccounts!
      drivers.push(passwordSignInDriver(config, password), passwordSignUpDriver(config, password), passwordChangeDriver(config, password))
      if (settings.sendMail) {
        drivers.push(passwordResetRequestDriver(config, password), passwordChangeEmailDriver(config, password), passwordConfirmEmailDriver(config, password))
        if (settings.resetBy === "code") unused.push({ name: `password-reset ${provider.id}`, why: `providers.${provider.id}.resetBy is "code": forgot password mails a code, no link` })
        else drivers.push(passwordResetDriver(config, password))
        if ((settings.resetBy ?? "link") === "link") unused.push({ name: `password-reset-code ${provider.id}`, why: `providers.${provider.id}.resetBy is "link" (the default): forgot password mails a link, no code` })
        else drivers.push(passwordResetCodeDriver(config, password))
        if (settings.verification === "off") unused.push({ name: `password-verify-email ${provider.id}`, why: `providers.${provider.id}.verification is "off": sign-up mails no link that verifies an address` })
        else if (settings.verifyBy === "code") unused.push({ name: `password-verify-email ${provider.id}`, why: `providers.${provider.id}.verifyBy is "code": sign-up mails a code, no link` })
        else drivers.push(passwordVerifyEmailDriver(config, password))
        if (settings.verification === "off") unused.push({ name: `password-verify-code ${provider.id}`, why: `providers.${provider.id}.verification is "off": sign-up mails no code that verifies an address` })
        else if ((settings.verifyBy ?? "link") === "link") unused.push({ name: `password-verify-code ${provider.id}`, why: `providers.${provider.id}.verifyBy is "link" (the default): sign-up mails a link, no code` })
        else drivers.push(passwordVerifyCodeDriver(config, password))
      } else {
        const why = `providers.${provider.id} has no sendMail: no link or code is mailed, and the routes that follow one (forgot and reset password, verify and change the address) are not served`
        for (const name of ["password-reset-request", "password-reset", "password-reset-code", "password-verify-email", "password-verify-code", "password-change-email", "password-confirm-email"]) unused.push({ name: `${name} ${provider.id}`, why })
      }
    }
  }
  for (const provider of providers) {
    if (provider.type === "oauth" || provider.type === "oidc") drivers.push(oauthDriver(config, provider as OAuthProviderConfig))
  }
  for (const provider of providers) {
    if (provider.type !== "email") continue
    const email = provider as EmailConfig
    drivers.push(emailSignInDriver(config, email))
    if (email.code === "instead") unused.push({ name: `email-verification ${provider.id}`, why: `providers.${provider.id}.code is "instead": the email carries a code, and no link to follow` })
    else drivers.push(emailVerificationDriver(config, email))
    if (email.code) drivers.push(emailCodeDriver(config, email))
    else unused.push({ name: `email-code ${provider.id}`, why: `providers.${provider.id}.code is off (the default): the email carries a link, no code` })
  }
  for (const provider of providers) {
    if (provider.type === "webauthn") drivers.push(webAuthnDriver(config, provider as WebAuthnConfig))
  }
  const secondFactor = resolveSecondFactor(config.secondFactor) !== undefined
  if (secondFactor) drivers.push(secondFactorDriver(config, fixtures.credentials))
  drivers.push(signOutDriver(config))
  const kinds = new Set(providers.map((provider) => provider.type))
  if (!providers.some((provider) => provider.type === "credentials" && !passwordAccounts(provider))) unused.push({ name: "credentials-sign-in", why: "no credentials provider" })
  if (!kinds.has("oauth") && !kinds.has("oidc")) unused.push({ name: "oauth", why: "no OAuth or OpenID Connect provider" })
  if (!kinds.has("email")) {
    unused.push({ name: "email-sign-in", why: "no email provider" })
    unused.push({ name: "email-verification", why: "no email provider" })
    unused.push({ name: "email-code", why: "no email provider" })
  }
  if (!kinds.has("webauthn")) unused.push({ name: "webauthn", why: "no WebAuthn or Passkey provider" })
  if (!secondFactor) unused.push({ name: "second-factor", why: "secondFactor is off: no sign-in waits for a second factor" })
  return { drivers, unused }
}
