/** Providers and pages shared by the rendering and browser tests of the built-in pages. */
import type { PageProvider, RenderedPage } from "../../src/pages/index.js"
import { renderErrorPage, renderSignInPage, renderSignOutPage, renderVerifyRequestPage } from "../../src/pages/index.js"
import type { Theme } from "../../src/types.js"

export const ORIGIN = "https://app.example"
export const BASE = `${ORIGIN}/auth`
export const CSRF = "csrf-token-123"

export const github: PageProvider = {
  id: "github",
  name: "GitHub",
  type: "oauth",
  signinUrl: `${BASE}/signin/github`,
  callbackUrl: `${BASE}/callback/github`,
  style: { bg: "#24292f", text: "#ffffff" },
}

export const google: PageProvider = {
  id: "google",
  name: "Google",
  type: "oidc",
  signinUrl: `${BASE}/signin/google`,
  callbackUrl: `${BASE}/callback/google`,
}

export const email: PageProvider = {
  id: "nodemailer",
  name: "Email",
  type: "email",
  signinUrl: `${BASE}/signin/nodemailer`,
  callbackUrl: `${BASE}/callback/nodemailer`,
}

export const credentials: PageProvider = {
  id: "credentials",
  name: "Credentials",
  type: "credentials",
  signinUrl: `${BASE}/signin/credentials`,
  callbackUrl: `${BASE}/callback/credentials`,
  credentials: {
    username: { label: "Username", placeholder: "jsmith", autocomplete: "username" },
    password: { label: "Password", type: "password" },
  },
}

export const allProviders = [github, google, email, credentials]

/** Each page the browser test loads, by screenshot name. */
export function pages(theme: Theme = {}): Record<string, RenderedPage> {
  return {
    signin: renderSignInPage({ providers: allProviders, csrfToken: CSRF, callbackUrl: `${ORIGIN}/dashboard`, theme }),
    "signin-error": renderSignInPage({
      providers: allProviders,
      csrfToken: CSRF,
      error: "OAuthAccountNotLinked",
      theme,
    }),
    signout: renderSignOutPage({ url: `${BASE}/signout`, csrfToken: CSRF, theme }),
    "error-configuration": renderErrorPage({ error: "Configuration", url: `${BASE}/error?error=Configuration`, signinUrl: `${BASE}/signin`, host: ORIGIN, theme }),
    "error-accessdenied": renderErrorPage({ error: "AccessDenied", url: `${BASE}/error?error=AccessDenied`, signinUrl: `${BASE}/signin`, host: ORIGIN, theme }),
    "error-verification": renderErrorPage({ error: "Verification", url: `${BASE}/error?error=Verification`, signinUrl: `${BASE}/signin`, host: ORIGIN, theme }),
    "error-default": renderErrorPage({ url: `${BASE}/error`, signinUrl: `${BASE}/signin`, host: ORIGIN, theme }),
    "verify-request": renderVerifyRequestPage({ url: ORIGIN, theme }),
  }
}
