/**
 * The properties every response of the fuzzed apps must keep, checked on one case at a time:
 * - `no-unhandled`: `Auth()` neither throws nor leaves an unhandled rejection or exception behind;
 * - `no-5xx`: no 5xx answer, except for a configuration error (none is configured here);
 * - `no-session-without-credentials`: a session is issued or shown only to a request that carries
 *   valid credentials (the app's session cookie, the password, an email link token, an authorization code);
 * - `location-on-site`: every `Location` and JSON `{url}` stays on the app's origin (or goes to a
 *   configured provider's authorization endpoint);
 * - `no-store`: GET /session and GET /csrf answer with the no-cache headers Auth.js sends;
 * - `no-secret-in-logs`: no secret, token, code or password in any log line (`debug: true`);
 * - `no-prototype-pollution`: `Object.prototype` is untouched.
 */
import { toRequest, type FuzzCase } from "./cases.js"
import { basePath, cookieNames, origin, type FuzzApp, type FuzzWorld } from "./world.js"
import { Auth } from "../../src/index.js"

export const propertyNames = [
  "no-unhandled",
  "no-5xx",
  "no-session-without-credentials",
  "location-on-site",
  "no-store",
  "no-secret-in-logs",
  "no-prototype-pollution",
] as const
export type PropertyName = (typeof propertyNames)[number]

/** Per property: how many cases it was checked on, and the violations it found. */
export type Tally = Record<PropertyName, { checked: number; violations: number; examples: string[] }>

export function newTally(): Tally {
  return Object.fromEntries(propertyNames.map((name) => [name, { checked: 0, violations: 0, examples: [] }])) as unknown as Tally
}

export interface CaseResult {
  /** Properties checked on this case (a property that does not apply, like `no-store` on a redirect, is not). */
  checked: PropertyName[]
  violations: { property: PropertyName; detail: string }[]
  status?: number
}

/** Unhandled rejections and exceptions seen since {@link watchProcess} started. */
const strays: string[] = []
let watching = false

/** Starts counting unhandled rejections and uncaught exceptions (once per process). */
export function watchProcess(): void {
  if (watching) return
  watching = true
  process.on("unhandledRejection", (reason) => void strays.push(`unhandledRejection: ${String(reason)}`))
  process.on("uncaughtException", (error) => void strays.push(`uncaughtException: ${String(error)}`))
}

const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort().join(",")

function prototypeTouched(): string | undefined {
  const names = Object.getOwnPropertyNames(Object.prototype).sort().join(",")
  if (names !== prototypeNames) return `Object.prototype has ${names}`
  const probe = {} as Record<string, unknown>
  if (probe.polluted !== undefined) return "({}).polluted is set"
  return undefined
}

/**
 * The values a cookie in a `Cookie` header may stand for: the cookie itself, every `.0`, `.1`… chunk
 * joined in order, and every run of chunks from `.0` up to a gap or shorter (the session is read from
 * the first of these that decrypts, so a chunk added after a valid run does not hide it).
 */
function cookieValues(cookies: readonly (readonly [string, string])[], name: string): string[] {
  const values = cookies.filter(([n]) => n === name).map(([, v]) => v)
  const chunks = cookies.filter(([n]) => n.startsWith(`${name}.`) && /^\d+$/.test(n.slice(name.length + 1)))
  if (chunks.length) {
    const sorted = [...chunks].sort((a, b) => Number(a[0].slice(name.length + 1)) - Number(b[0].slice(name.length + 1)))
    values.push(sorted.map(([, v]) => v).join(""))
    let run = ""
    for (let i = 0; ; i++) {
      const chunk = chunks.find(([n]) => n === `${name}.${i}`)?.[1]
      if (!chunk) break
      values.push((run += chunk))
    }
  }
  return values.map((v) => {
    try {
      return decodeURIComponent(v)
    } catch {
      return v
    }
  })
}

/** Whether the request carries something that may legitimately make a session. */
function carriesCredentials(app: FuzzApp, c: FuzzCase): boolean {
  const sessions = cookieValues(c.cookies, cookieNames.session)
  if (sessions.some((value) => app.credentials.has(value))) return true
  let raw = c.url
  try {
    raw += decodeURIComponent(c.url)
  } catch {
    // An undecodable URL is searched as it is.
  }
  if (c.body && "fields" in c.body) raw += JSON.stringify(c.body.fields)
  if (c.body && "text" in c.body) raw += c.body.text
  return [...app.credentials].some((credential) => raw.includes(credential))
}

function offSite(location: string, world: FuzzWorld): string | undefined {
  let url: URL
  try {
    url = new URL(location, origin)
  } catch {
    return `unparseable ${location}`
  }
  return world.allowedOrigins.has(url.origin) ? undefined : url.origin
}

/**
 * Sends one case to its app and checks every property that applies to the answer.
 *
 * @example
 * ```ts
 * const result = await runCase(world, fc.sample(anyCase(world), 1)[0]!)
 * expect(result.violations).toEqual([])
 * ```
 */
export async function runCase(world: FuzzWorld, c: FuzzCase): Promise<CaseResult> {
  const app = world.apps[c.app]
  const result: CaseResult = { checked: [], violations: [] }
  const fail = (property: PropertyName, detail: string) => void result.violations.push({ property, detail })
  const logFrom = app.log.length
  const straysFrom = strays.length

  let response: Response | undefined
  let body = ""
  result.checked.push("no-unhandled")
  try {
    response = await Auth(toRequest(c), app.config)
    body = await response.text()
  } catch (error) {
    fail("no-unhandled", `Auth() threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`)
  }
  // Give a stray rejection the turn of the event loop it needs to be reported.
  await new Promise((resolve) => setImmediate(resolve))
  if (strays.length > straysFrom) fail("no-unhandled", strays.slice(straysFrom).join("; "))

  if (response) {
    result.status = response.status
    result.checked.push("no-5xx")
    if (response.status >= 500) fail("no-5xx", `${response.status} ${body.slice(0, 200)}`)

    const pathname = new URL(c.url).pathname
    const json = (() => {
      try {
        return JSON.parse(body) as unknown
      } catch {
        return undefined
      }
    })()

    result.checked.push("no-session-without-credentials")
    const issued = response.headers
      .getSetCookie()
      .filter((header) => header.startsWith(`${cookieNames.session}=`) || header.startsWith(`${cookieNames.session}.`))
      .some((header) => !/^[^=]+=;/.test(header) && !/max-age=0/i.test(header))
    const shown = pathname === `${basePath}/session` && json !== null && typeof json === "object" && "user" in (json as object)
    if ((issued || shown) && !carriesCredentials(app, c)) fail("no-session-without-credentials", issued ? "a session cookie was set" : `GET /session showed ${body.slice(0, 120)}`)

    const location = response.headers.get("location")
    const url = json !== null && typeof json === "object" && typeof (json as { url?: unknown }).url === "string" ? (json as { url: string }).url : undefined
    if (location !== null || url !== undefined) {
      result.checked.push("location-on-site")
      for (const target of [location, url]) {
        if (target === null || target === undefined) continue
        const where = offSite(target, world)
        if (where) fail("location-on-site", `${target} leaves the site (${where})`)
      }
    }

    const method = c.method.toUpperCase()
    if (method === "GET" && response.status === 200 && (pathname === `${basePath}/session` || pathname === `${basePath}/csrf`)) {
      result.checked.push("no-store")
      const cacheControl = response.headers.get("cache-control") ?? ""
      if (!/no-store/.test(cacheControl) || !/private/.test(cacheControl) || response.headers.get("expires") !== "0" || response.headers.get("pragma") !== "no-cache") {
        fail("no-store", `Cache-Control: ${cacheControl}, Expires: ${response.headers.get("expires")}, Pragma: ${response.headers.get("pragma")}`)
      }
    }
  }

  result.checked.push("no-secret-in-logs")
  for (const line of app.log.slice(logFrom)) {
    for (const secret of world.secrets) {
      if (line.includes(secret)) fail("no-secret-in-logs", `a log line holds ${secret.slice(0, 6)}…: ${line.slice(0, 300)}`)
    }
  }
  // Only this case's lines are kept: the log would otherwise grow for the whole run.
  app.log.length = 0

  result.checked.push("no-prototype-pollution")
  const touched = prototypeTouched()
  if (touched) {
    fail("no-prototype-pollution", touched)
    delete (Object.prototype as Record<string, unknown>).polluted
  }
  return result
}

/** Adds one case's result to the tally; keeps up to three examples per property. */
export function record(tally: Tally, c: FuzzCase, result: CaseResult): void {
  for (const property of result.checked) tally[property].checked++
  for (const { property, detail } of result.violations) {
    tally[property].violations++
    if (tally[property].examples.length < 3) tally[property].examples.push(`${c.label} ${c.method} ${c.url.slice(0, 200)} → ${detail}`)
  }
}

/** The tally as a table, one line per property. */
export function formatTally(tally: Tally, cases: number, milliseconds: number): string {
  const lines = [`${cases} cases in ${(milliseconds / 1000).toFixed(1)} s`]
  for (const name of propertyNames) {
    const { checked, violations, examples } = tally[name]
    lines.push(`  ${name.padEnd(32)} checked ${String(checked).padStart(7)}  violations ${violations}`)
    for (const example of examples) lines.push(`      e.g. ${example}`)
  }
  return lines.join("\n")
}
