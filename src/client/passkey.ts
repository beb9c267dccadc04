/**
 * Passkey sign-in and registration from the browser, shaped like `signIn` of `next-auth/webauthn`.
 *
 * Its own entry (`authflow/client/passkey`), as `next-auth/webauthn` is, so that only apps that
 * import it need the optional peer `@simplewebauthn/browser`; that module is loaded with `import()`
 * when a ceremony runs, in a chunk of its own.
 *
 * @module
 */
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser"
import { announceSessionChange } from "./broadcast.js"
import { authUrl } from "./config.js"
import { requestJson, send } from "./fetch.js"
import { currentHref, navigate } from "./navigate.js"
import { secondFactorMethods } from "./second-factor-methods.js"
import { getCsrfToken, getProviders } from "./session.js"
import { errorOf, signIn as signInWithoutPasskey } from "./sign-in.js"
import type { SignInAuthorizationParams, SignInOptions, SignInResponse } from "./types.js"

/** The two WebAuthn ceremonies. */
export type PasskeyAction = "register" | "authenticate"

/** Options of a passkey sign-in; other keys are posted like those of `signIn`. */
export interface PasskeySignInOptions extends SignInOptions {
  /** Force a ceremony; default: the server decides (a known email authenticates, an unknown one registers). */
  action?: PasskeyAction
  /** The email to register or to authenticate with. */
  email?: string
  /** Browser autofill (conditional mediation) instead of a modal prompt; authentication only. */
  conditional?: boolean
}

/**
 * What `GET /webauthn-options/<provider>` answers: the ceremony the server chose, and its options
 * in the JSON form `@simplewebauthn/browser` takes.
 *
 * @example
 * ```ts
 * const answer: WebAuthnOptionsResponse = await (await fetch("/auth/webauthn-options/passkey?action=register")).json()
 * if (answer.action === "register") await startRegistration({ optionsJSON: answer.options })
 * ```
 */
export type WebAuthnOptionsResponse =
  | { action: "register"; options: PublicKeyCredentialCreationOptionsJSON }
  | { action: "authenticate"; options: PublicKeyCredentialRequestOptionsJSON }

/**
 * Like `signIn`, with WebAuthn providers run in the browser: fetches the ceremony options from
 * `<basePath>/webauthn-options/<provider>`, runs `startRegistration` or `startAuthentication`, and
 * posts `{ action, data, csrfToken, callbackUrl }` to `<basePath>/callback/<provider>`. Any other
 * provider goes to {@link signIn} unchanged.
 *
 * @param provider - The WebAuthn provider's id, e.g. `"passkey"` or `"webauthn"`.
 * @param options - `action`, `email`, `redirect`, `redirectTo`/`callbackUrl`, `conditional`.
 *
 * @example
 * ```ts
 * import { signIn } from "authflow/client/passkey"
 *
 * await signIn("passkey", { action: "register", email: "ada@example.com" })
 * const result = await signIn("passkey", { redirect: false })
 * if (!result?.ok) showError(result?.error)
 * ```
 * @see https://www.w3.org/TR/webauthn-3/#sctn-rp-operations
 */
export async function signIn(
  provider?: string,
  options: PasskeySignInOptions = {},
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse | undefined> {
  const providers = await getProviders()
  const found = provider === undefined ? undefined : providers?.[provider]
  if (!found || found.type !== "webauthn") return signInWithoutPasskey(provider, options, authorizationParams)

  const { redirect = true, redirectTo, callbackUrl, action, email, conditional, ...fields } = options
  const target = String(redirectTo ?? callbackUrl ?? currentHref())
  const path = encodeURIComponent(found.id)
  const query = new URLSearchParams()
  if (action) query.set("action", action)
  if (email) query.set("email", email)
  const ceremony = await requestJson<WebAuthnOptionsResponse>(`webauthn-options/${path}`, { query: query.toString() })

  const browser = await loadBrowser()
  const response =
    ceremony.action === "register"
      ? await browser.startRegistration({ optionsJSON: ceremony.options })
      : await browser.startAuthentication({ optionsJSON: ceremony.options, useBrowserAutofill: conditional === true })

  const csrfToken = (await getCsrfToken()) ?? ""
  const form: Record<string, string> = { action: ceremony.action, data: JSON.stringify(response), csrfToken, callbackUrl: target }
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) form[key] = String(value)
  const { status, ok, data } = await send<{ url?: string }>(`callback/${path}`, { form })
  const url = typeof data?.url === "string" ? data.url : undefined
  const error = errorOf(url)
  const succeeded = ok && url !== undefined && !error.error
  // A passkey without user verification is one factor: such a sign-in may still wait for a second.
  if (succeeded && !secondFactorMethods(url)) announceSessionChange("signin")
  if (redirect) {
    navigate(url ?? authUrl("error"))
    return undefined
  }
  return { ...error, error: url === undefined && !error.error ? "Configuration" : error.error, status, ok: succeeded, url: error.error ? null : (url ?? null) }
}

async function loadBrowser() {
  return import("@simplewebauthn/browser")
}

