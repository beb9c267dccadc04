/**
 * How a stand-in OAuth 2 / OpenID Connect provider is set up, how it misbehaves, and how its
 * redirect back to the app can differ from a correct one.
 *
 * @module
 */

/** How a stand-in provider misbehaves, if at all. Faults may change between requests. */
export interface StandInFaults {
  /** `down`: discovery answers 500; `no-authorization-endpoint` / `no-end-session-endpoint`: the document lacks it. */
  discovery?: "down" | "no-authorization-endpoint" | "no-end-session-endpoint"
  /**
   * `invalid_grant`: the token endpoint refuses the code; `unreachable`: the connection fails;
   * `no-id-token`: an OpenID Provider answers without its ID token; `no-access-token`: the answer
   * lacks the access token.
   */
  token?: "invalid_grant" | "unreachable" | "no-id-token" | "no-access-token"
  /** The ID token is signed by another key, or names another issuer, audience or nonce, or has expired. */
  idToken?: "bad-signature" | "wrong-issuer" | "wrong-audience" | "expired" | "wrong-nonce"
  /** The profile cannot be had: userinfo answers 500 (and the ID token carries no email, so userinfo is asked). */
  profile?: "unavailable"
}

/** How the provider's redirect back to the app differs from a correct one. */
export interface RedirectBackOptions {
  /** Send `error=<error>` instead of a code (the user refused, say `access_denied`). */
  error?: string
  /** Send this `state` instead of the one the app sent. */
  state?: string
  /** `omit`: no `iss` parameter; a string: this `iss` instead of the provider's issuer. */
  iss?: "omit" | string
  /** The user who consents, when not the stand-in's own (see `StandInProvider.authorize`). */
  subject?: string
  /** Send an `id_token` along with the code: a hybrid-flow answer, which the engine refuses. @default false */
  hybrid?: boolean
}

/** Options of `StandInProvider`. */
export interface StandInOptions {
  /** The provider id; the issuer is `https://<id>.stand-in.test`. */
  id: string
  type: "oauth" | "oidc"
  clientId: string
  /** Checked at the token endpoint unless the client authenticates with `none`. */
  clientSecret?: string
  /** `client_secret_basic` (default), `client_secret_post`, `client_secret_jwt`, `private_key_jwt` (the assertion's `iss` is checked, not its signature) or `none`. */
  tokenEndpointAuthMethod?: string
  /** The user's claims, returned by userinfo and, for OIDC, in the ID token. `sub` is always the stand-in's subject. */
  claims: Record<string, unknown>
  /**
   * `false`: the ID token carries the claims but `email`, so the engine asks userinfo for the
   * profile, as OpenID Providers that keep the address out of their ID tokens do.
   *
   * @default true
   */
  emailInIdToken?: boolean
  /** Issue a refresh token with each access token, as a provider granting offline access does. */
  refreshToken?: boolean
  faults?: StandInFaults
}
