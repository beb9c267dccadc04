/**
 * The OpenID Provider of the OAuth model and security tests: authflow/testing's stand-in
 * (src/testing/stand-in.ts) as provider `op`, whose user is Ada Lovelace. Its ID tokens carry no
 * email, so every sign-in reads the profile from userinfo too.
 */
import { StandInProvider } from "../../src/testing/stand-in.js"
import type { StandInFaults } from "../../src/testing/stand-in/options.js"
import type { OIDCConfig } from "../../src/providers/oauth.js"
import type { Provider } from "../../src/types.js"

export const clientId = "model-client"
export const clientSecret = "model-client-secret"

/** A new stand-in OpenID Provider, misbehaving as `faults` say (they may change between requests), issuing refresh tokens when `refreshToken` is set. */
export function standInOP(faults: StandInFaults = {}, refreshToken = false): StandInProvider {
  return new StandInProvider({ id: "op", type: "oidc", clientId, clientSecret, claims: { name: "Ada Lovelace", email: "Ada@Example.test" }, emailInIdToken: false, faults, refreshToken })
}

/** Provider `op`, pointed at the stand-in, with `options` of the test's own. */
export function opProvider(op: StandInProvider, options: Partial<OIDCConfig> = {}): Provider {
  const provider: OIDCConfig = op.install({ id: "op", name: "Stand-in OP", type: "oidc", clientId, clientSecret, ...options })
  return provider as unknown as Provider
}
