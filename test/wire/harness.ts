/**
 * Side-by-side harness: the same requests go to authflow's `Auth` and to `@auth/core`'s `Auth`
 * (0.41.3), each with its own configuration object (Auth.js writes `basePath` and `logger` into the
 * one it gets) and its own cookie jar, and the answers are reduced to what the wire shows, with the
 * legitimately random parts (tokens, JWEs, expiry instants) replaced by their shape.
 */
import { expect } from "vitest"
import { Auth as authflowAuth, raw as authflowRaw, skipCSRFCheck as authflowSkip } from "../../src/index.js"
import * as authflowErrors from "../../src/errors.js"
import authflowCredentials from "../../src/providers/credentials.js"
import { Auth as authjsAuth, raw as authjsRaw, skipCSRFCheck as authjsSkip } from "@auth/core"
import * as authjsErrors from "@auth/core/errors"
import authjsCredentials from "@auth/core/providers/credentials"
import { decode as authjsDecode } from "@auth/core/jwt"
import { CookieJar, buildRequest, cookieNames, type RequestOptions } from "../helpers.js"
import type { AuthConfig } from "../../src/types.js"


export type SideName = "authflow" | "authjs"

/** One implementation: its entry point, credentials provider factory, symbols and error classes. */
export interface Side {
  name: SideName
  Auth: (request: Request, config: AuthConfig) => Promise<unknown>
  Credentials: typeof authflowCredentials
  raw: symbol
  skipCSRFCheck: symbol
  errors: typeof authflowErrors
}

export const authflow: Side = {
  name: "authflow",
  Auth: authflowAuth as Side["Auth"],
  Credentials: authflowCredentials,
  raw: authflowRaw,
  skipCSRFCheck: authflowSkip,
  errors: authflowErrors,
}

export const authjs: Side = {
  name: "authjs",
  Auth: authjsAuth as unknown as Side["Auth"],
  Credentials: authjsCredentials as unknown as typeof authflowCredentials,
  raw: authjsRaw,
  skipCSRFCheck: authjsSkip,
  errors: authjsErrors as unknown as typeof authflowErrors,
}

export const sides: readonly Side[] = [authflow, authjs]

export const SECRET = "wire-test-secret-wire-test-secret"
export const HTTPS = "https://app.test"
export const HTTP = "http://app.test"

/** What a request looks like before it is turned into a `Request` for one side. */
export interface RequestInit extends RequestOptions {
  method?: "GET" | "POST" | "PUT" | "DELETE" | "PATCH" | "HEAD" | "OPTIONS"
  headers?: Record<string, string>
  /** Send without the jar's cookies. */
  noJar?: boolean
}

/** A configuration built twice, once per side, and one browser (cookie jar) per side. */
export class Duo {
  readonly configs: Record<SideName, AuthConfig>
  readonly jars: Record<SideName, CookieJar> = { authflow: new CookieJar(), authjs: new CookieJar() }

  constructor(
    make: (side: Side) => AuthConfig,
    readonly origin: string = HTTPS,
    readonly basePath = "/auth",
  ) {
    this.configs = { authflow: make(authflow), authjs: make(authjs) }
  }

  url(path: string): string {
    return path.startsWith("http") ? path : `${this.origin}${this.basePath}${path}`
  }

  /** Sends one request to one side, as its browser; the jar keeps what the answer sets. */
  async sendTo(side: Side, path: string, init: RequestInit = {}): Promise<Response> {
    const jar = init.noJar ? undefined : this.jars[side.name]
    const response = (await side.Auth(buildRequest(this.url(path), init, jar), this.configs[side.name])) as Response
    this.jars[side.name].take(response)
    return response
  }

  /** Sends the same request to both sides (`init` may depend on the side, e.g. for its CSRF token). */
  async send(path: string, init: RequestInit | ((side: Side) => RequestInit) = {}): Promise<Record<SideName, Response>> {
    const initFor = typeof init === "function" ? init : () => init
    return {
      authflow: await this.sendTo(authflow, path, initFor(authflow)),
      authjs: await this.sendTo(authjs, path, initFor(authjs)),
    }
  }

  /** GET /csrf on both sides; each jar keeps its cookie. */
  async csrf(): Promise<Record<SideName, string>> {
    const { authflow: a, authjs: b } = await this.send("/csrf")
    return {
      authflow: ((await a.json()) as { csrfToken: string }).csrfToken,
      authjs: ((await b.json()) as { csrfToken: string }).csrfToken,
    }
  }

  /** POST a form with each side's own CSRF token added. */
  async post(path: string, form: Record<string, string> = {}, extra: Omit<RequestInit, "form"> = {}): Promise<Record<SideName, Response>> {
    const tokens = await this.csrf()
    return this.send(path, (side) => ({ ...extra, form: { csrfToken: tokens[side.name], ...form } }))
  }
}

/** One `Set-Cookie` header, parsed. */
export interface SetCookie {
  name: string
  value: string
  attributes: Record<string, string | true>
}

export function parseSetCookie(header: string): SetCookie {
  const [pair, ...rest] = header.split(";")
  const equals = pair!.indexOf("=")
  const attributes: Record<string, string | true> = {}
  for (const part of rest) {
    const [key, ...value] = part.trim().split("=")
    attributes[key!.toLowerCase()] = value.length ? value.join("=") : true
  }
  return { name: pair!.slice(0, equals).trim(), value: decodeURIComponent(pair!.slice(equals + 1)), attributes }
}

export function setCookies(response: Response): SetCookie[] {
  return response.headers.getSetCookie().map(parseSetCookie)
}

export function cookieNamed(response: Response, name: string): SetCookie | undefined {
  return setCookies(response).find((cookie) => cookie.name === name)
}

const jwePattern = /^[\w-]+\.[\w-]*\.[\w-]+\.[\w-]+\.[\w-]+$/
const csrfCookiePattern = /^[0-9a-f]{64}\|[0-9a-f]{64}$/
const hex64 = /^[0-9a-f]{64}$/
const isoDate = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

/** The shape of a random value: kept as is when it is not random. */
export function shapeOf(value: string): string {
  if (value === "") return ""
  if (jwePattern.test(value)) return "<jwe>"
  if (csrfCookiePattern.test(value)) return "<csrf-token>|<sha256>"
  if (hex64.test(value)) return "<hex64>"
  if (isoDate.test(value)) return `<date ${minutesFromNow(Date.parse(value))} min>`
  return value
}

function minutesFromNow(instant: number): number {
  return Math.round((instant - Date.now()) / 60_000)
}

/** A chunk of a JWE is not a JWE: the session chunks are normalised by name. */
function cookieShape(cookie: SetCookie): Record<string, unknown> {
  const attributes: Record<string, unknown> = { ...cookie.attributes }
  if (typeof attributes.expires === "string") attributes.expires = `${minutesFromNow(Date.parse(attributes.expires))} min`
  const chunk = /session-token\.\d+$/.test(cookie.name)
  return { value: chunk && cookie.value ? "<chunk>" : shapeOf(cookie.value), attributes }
}

function normaliseJson(value: unknown): unknown {
  if (typeof value === "string") return shapeOf(value)
  if (Array.isArray(value)) return value.map(normaliseJson)
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, normaliseJson(item)]))
  }
  return value
}

/** What the wire shows of a response, with random parts replaced by their shape. */
export interface Wire {
  status: number
  location: string | null
  contentType: string | null
  cacheControl: string | null
  expires: string | null
  pragma: string | null
  cookies: Record<string, unknown>
  body: unknown
}

export async function wire(response: Response): Promise<Wire> {
  const contentType = response.headers.get("content-type")
  const text = await response.clone().text()
  let body: unknown = text
  if (contentType?.startsWith("application/json")) body = normaliseJson(JSON.parse(text))
  else if (contentType?.startsWith("text/html")) body = "<html>"
  const cookies: Record<string, unknown> = {}
  for (const cookie of setCookies(response)) {
    let key = cookie.name
    for (let n = 2; key in cookies; n++) key = `${cookie.name}#${n}`
    cookies[key] = cookieShape(cookie)
  }
  return {
    status: response.status,
    location: response.headers.get("location"),
    // authflow's HTML pages say `text/html; charset=utf-8`, Auth.js's `text/html` (pages.test.ts names it).
    contentType: contentType?.startsWith("text/html") ? "text/html" : contentType,
    cacheControl: response.headers.get("cache-control"),
    expires: response.headers.get("expires"),
    pragma: response.headers.get("pragma"),
    cookies,
    body,
  }
}

/** Both answers show the same on the wire (random parts compared by shape). */
export async function expectSameWire(responses: Record<SideName, Response>): Promise<Wire> {
  const [ours, theirs] = await Promise.all([wire(responses.authflow), wire(responses.authjs)])
  expect(ours).toEqual(theirs)
  return ours
}

/** A logger that records what each level receives, per side. */
export function recorder() {
  const errors: Error[] = []
  const warnings: string[] = []
  const debugs: string[] = []
  return {
    errors,
    warnings,
    debugs,
    logger: {
      error: (error: Error) => void errors.push(error),
      warn: (code: string) => void warnings.push(code),
      debug: (message: string) => void debugs.push(message),
    },
  }
}

/** `type` of each logged error (Auth.js and authflow both give AuthErrors a static `type`). */
export function typesOf(errors: readonly Error[]): string[] {
  return errors.map((error) => (error as { type?: string }).type ?? error.name)
}

type Authorize = (credentials: Record<string, unknown>, request: Request) => unknown

/** The default authorize: "ada" is user 1, anyone else is refused. */
const adaOnly: Authorize = (credentials) => (credentials.username === "ada" ? { id: "1", name: "Ada", email: "ada@example.test" } : null)

/** The same trusting credentials setup for `side`, built with that side's own provider factory. */
export function credentialsConfig(side: Side, extra: Partial<AuthConfig> = {}, authorize: Authorize = adaOnly): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    providers: [
      side.Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: authorize as never,
      }),
    ],
    ...extra,
  }
}

/** Decodes a session JWE with @auth/core's decoder (the reference), salt = the session cookie's name. */
export function decodeSession(token: string, secure = true, secret: string | string[] = SECRET) {
  return authjsDecode({ token, secret, salt: sessionCookieName(secure) })
}

export const sessionCookieName = (secure = true) => (secure ? cookieNames.https : cookieNames.http).sessionToken
