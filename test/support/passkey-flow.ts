/** Drives `Auth()` through WebAuthn ceremonies as a browser with a software authenticator would. */
import { CookieJar, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Passkey from "../../src/providers/passkey.js"
import type { AuthConfig } from "../../src/types.js"
import type { Adapter } from "../../src/adapters.js"
import { SoftCredential, type AuthenticationOptionsJSON, type Bend, type RegistrationOptionsJSON } from "../../src/testing/authenticator.js"

export function passkeyConfig(overrides: Partial<AuthConfig> = {}): AuthConfig & { adapter: Required<Adapter> } & ReturnType<typeof recordingLogger> {
  const recorder = recordingLogger()
  const config = {
    secret: "a-secret-long-enough-for-tests-0123456789",
    trustHost: true,
    adapter: MemoryAdapter(),
    providers: [Passkey()],
    experimental: { enableWebAuthn: true },
    logger: recorder.logger,
    ...overrides,
  }
  return Object.assign(config, { errors: recorder.errors, warnings: recorder.warnings, logger: recorder.logger }) as never
}

export async function getOptions(config: AuthConfig, jar: CookieJar, query: Record<string, string> = {}, providerId = "passkey") {
  const response = await send(config, jar, `/webauthn-options/${providerId}?${new URLSearchParams(query)}`)
  const text = await response.text()
  return { response, status: response.status, body: JSON.parse(text) as { action: "register" | "authenticate"; options: RegistrationOptionsJSON & AuthenticationOptionsJSON; error?: string }, bytes: text.length }
}

export async function postCallback(config: AuthConfig, jar: CookieJar, action: string, data: unknown, extra: Record<string, string> = {}, providerId = "passkey") {
  const csrfToken = await csrfTokenFor(config, jar)
  return send(config, jar, `/callback/${providerId}`, { form: { action, data: JSON.stringify(data), csrfToken, callbackUrl: `${origin}/dashboard`, ...extra } })
}

/** Registers a new passkey for `email`; returns the credential and the callback's response. */
export async function register(config: AuthConfig, jar: CookieJar, email: string, bend: Bend = {}, credential = new SoftCredential("app.test")) {
  const { body } = await getOptions(config, jar, { action: "register", email })
  if (body.action !== "register") throw new Error(`expected register options, got ${JSON.stringify(body)}`)
  const response = await postCallback(config, jar, "register", credential.register(body.options, origin, bend))
  return { credential, response, options: body.options }
}

/** Authenticates with `credential` (discoverable: no email). */
export async function authenticate(config: AuthConfig, jar: CookieJar, credential: SoftCredential, bend: Bend = {}, query: Record<string, string> = { action: "authenticate" }) {
  const { body } = await getOptions(config, jar, query)
  if (body.action !== "authenticate") throw new Error(`expected authenticate options, got ${JSON.stringify(body)}`)
  const response = await postCallback(config, jar, "authenticate", credential.authenticate(body.options, origin, bend))
  return { response, options: body.options }
}

export async function sessionOf(config: AuthConfig, jar: CookieJar) {
  return (await (await send(config, jar, "/session")).json()) as { user?: { email?: string; name?: string } } | null
}
