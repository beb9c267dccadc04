/**
 * The session read of `locals.auth()` and the `signIn`/`signOut` form actions: each runs `Auth()`
 * in raw mode on a request built from the event, and writes the cookies through `event.cookies`.
 *
 * @module
 */
import { redirect, type RequestEvent } from "@sveltejs/kit"
import { Auth } from "../../auth.js"
import { createActionURL, type EnvObject } from "../../core/env.js"
import { AuthError } from "../../core/errors.js"
import { resolveProviders } from "../../core/providers.js"
import { raw } from "../../core/symbols.js"
import type { AuthAction, AuthConfig, Cookie, ResponseInternal, Session } from "../../types.js"
import type { AuthActionData, SvelteKitAuthConfig } from "./types.js"
import { withClientAddress } from "../../core/rate-limit/peer.js"

/**
 * The client's address as the adapter knows it, for the rate limiter; some adapters cannot tell and throw.
 *
 * @example
 * ```ts
 * Auth(withClientAddress(event.request, clientAddressOf(event)), config)
 * ```
 */
export function clientAddressOf(event: RequestEvent): string | undefined {
  try {
    return event.getClientAddress()
  } catch {
    return undefined
  }
}

const rawConfigs = new WeakMap<SvelteKitAuthConfig, AuthConfig & { raw: typeof raw }>()

function rawConfig(config: SvelteKitAuthConfig): AuthConfig & { raw: typeof raw } {
  let derived = rawConfigs.get(config)
  if (!derived) rawConfigs.set(config, (derived = { ...config, raw }))
  return derived
}

/**
 * The absolute URL of an action. With `AUTH_URL` (or `NEXTAUTH_URL`) it starts from that URL, as
 * in the core's `createActionURL`; otherwise from `event.url`, whose origin SvelteKit (or its
 * adapter: `ORIGIN`, `PROTOCOL_HEADER`, `HOST_HEADER` of adapter-node) already worked out.
 */
export function actionUrl(action: AuthAction, event: RequestEvent, config: SvelteKitAuthConfig, env: EnvObject): URL {
  if (env.AUTH_URL || env.NEXTAUTH_URL) return createActionURL(action, event.url.protocol, event.request.headers, env, config)
  return new URL(`${config.basePath}/${action}`, event.url.origin)
}

/** Writes cookies set by `Auth()`; `path` defaults to `/`. */
export function writeCookies(event: RequestEvent, list: Cookie[] | undefined): void {
  for (const { name, value, options } of list ?? []) event.cookies.set(name, value, { path: "/", ...options })
}

/**
 * `locals.auth()`: `GET <basePath>/session` through `Auth()` with only the cookie header. Refreshed
 * cookies are written to the response. `null` for an empty session, the session for 200, and an
 * `Error` with the body's `message` otherwise.
 */
export async function readSession(event: RequestEvent, config: SvelteKitAuthConfig, env: EnvObject): Promise<Session | null> {
  const cookie = event.request.headers.get("cookie")
  const request = new Request(actionUrl("session", event, config, env), { headers: cookie ? { cookie } : {} })
  const result: ResponseInternal | Response = await Auth(request, rawConfig(config))
  let status: number
  let body: unknown
  if (result instanceof Response) {
    status = result.status
    body = await result.json().catch(() => null)
  } else {
    status = result.status ?? 200
    body = result.body
    writeCookies(event, result.cookies)
  }
  if (!body || (typeof body === "object" && Object.keys(body).length === 0)) return null
  if (status === 200) return body as Session
  const message = typeof body === "object" && "message" in body ? String(body.message) : `authflow answered HTTP ${status}`
  throw new Error(message)
}

/** The form's string fields; files have no place here. */
function formFields(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const [key, value] of form) if (typeof value === "string") fields[key] = value
  return fields
}

/** The incoming headers, ready for an internal form POST. */
function internalHeaders(event: RequestEvent): Headers {
  const headers = new Headers(event.request.headers)
  // The body is a new one, and a raw-mode call must not ask for a `{ url }` answer (it would
  // swallow the AuthErrors the caller should see).
  headers.delete("content-length")
  headers.delete("x-auth-return-redirect")
  headers.set("content-type", "application/x-www-form-urlencoded")
  return headers
}

async function postRaw(event: RequestEvent, url: URL, body: URLSearchParams, config: SvelteKitAuthConfig, action: string): Promise<string | undefined> {
  const request = new Request(url, { method: "POST", headers: internalHeaders(event), body: body.toString() })
  const result: ResponseInternal | Response = await Auth(withClientAddress(request, clientAddressOf(event)), rawConfig(config))
  // A configuration error (or a request Auth() cannot parse) is a plain Response even in raw mode.
  if (result instanceof Response) throw new AuthError(`${action} failed: authflow answered HTTP ${result.status} (see the server logs)`)
  writeCookies(event, result.cookies)
  return result.redirect
}

function finish(url: string, shouldRedirect: boolean): AuthActionData {
  if (shouldRedirect) redirect(302, url)
  return { url }
}

const authorizationParamsPrefix = "authorizationParams-"

/**
 * The `signIn` form action. Without a known `providerId` it redirects to the sign-in page (with
 * `callbackUrl`); for a credentials provider it posts the form to `<basePath>/callback/<id>`,
 * otherwise to `<basePath>/signin/<id>` with the `authorizationParams-<key>` fields as query.
 * Throws the `AuthError` of a refused sign-in (`CredentialsSignin`…).
 */
export async function signInAction(event: RequestEvent, config: SvelteKitAuthConfig, env: EnvObject): Promise<AuthActionData> {
  const { providerId, redirect: redirectField, redirectTo, ...rest } = formFields(await event.request.formData())
  const fields: Record<string, string> = {}
  const authorizationParams: Record<string, string> = {}
  for (const [key, value] of Object.entries(rest)) {
    if (key.startsWith(authorizationParamsPrefix)) authorizationParams[key.slice(authorizationParamsPrefix.length)] = value
    else fields[key] = value
  }
  const shouldRedirect = redirectField !== "false"
  const callbackUrl = redirectTo || event.request.headers.get("referer") || "/"
  const provider = providerId ? resolveProviders(config.providers, "").find((p) => p.id === providerId) : undefined
  if (!provider) {
    const url = actionUrl("signin", event, config, env)
    url.searchParams.set("callbackUrl", callbackUrl)
    return finish(url.href, shouldRedirect)
  }
  const url = actionUrl(provider.type === "credentials" ? "callback" : "signin", event, config, env)
  url.pathname = `${url.pathname}/${encodeURIComponent(provider.id)}`
  url.search = new URLSearchParams(authorizationParams).toString()
  const target = await postRaw(event, url, new URLSearchParams({ ...fields, callbackUrl }), config, "signIn")
  return finish(target ?? callbackUrl, shouldRedirect)
}

/** The `signOut` form action: posts `callbackUrl` to `<basePath>/signout` and redirects. */
export async function signOutAction(event: RequestEvent, config: SvelteKitAuthConfig, env: EnvObject): Promise<AuthActionData> {
  const { redirect: redirectField, redirectTo } = formFields(await event.request.formData())
  const callbackUrl = redirectTo || event.request.headers.get("referer") || "/"
  const target = await postRaw(event, actionUrl("signout", event, config, env), new URLSearchParams({ callbackUrl }), config, "signOut")
  return finish(target ?? callbackUrl, redirectField !== "false")
}
