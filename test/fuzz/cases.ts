/**
 * fast-check arbitraries of requests to the fuzzed apps:
 * - {@link anyCase}: anything a client can send: paths under and around `basePath` (encodings, dot
 *   segments, double slashes, case), methods, headers (Host, `X-Forwarded-*`, `Content-Type`, huge
 *   and repeated ones), cookies (chunked, oversized, missing chunks, `.0`…`.200`, malformed base64
 *   and JWE, sealed with another secret or salt, flow cookies of other providers) and bodies (JSON,
 *   form, multipart, text, empty, 1 MB, invalid UTF-8, `__proto__` and `constructor` keys);
 * - {@link nearlyValidCase}: a legitimate request of one of the apps with one part mutated.
 *
 * A case is plain data (so fast-check can print and shrink it); {@link toRequest} builds it.
 */
import fc from "fast-check"
import { basePath, cookieNames, origin, type AppName, type CookiePair, type FuzzApp, type FuzzWorld } from "./world.js"
import { cookieNames as engineCookies } from "../helpers.js"

export type BodySpec =
  | { kind: "form"; fields: [string, string][]; contentType?: string }
  | { kind: "json"; text: string; contentType?: string }
  | { kind: "multipart"; fields: [string, string][] }
  | { kind: "text"; text: string; contentType?: string }
  | { kind: "empty"; contentType?: string }
  | { kind: "huge"; contentType: string }
  | { kind: "invalid-utf8"; contentType: string }

export interface FuzzCase {
  app: AppName
  /** Which generator made it (`any`, or `nearly:<template>/<mutation>`). */
  label: string
  method: string
  url: string
  headers: [string, string][]
  cookies: CookiePair[]
  /** How the cookie pairs are joined (`; ` as browsers do, or stranger). */
  cookieSeparator: string
  body?: BodySpec
}

const actions = ["providers", "session", "csrf", "signin", "signout", "callback", "verify-request", "error", "webauthn-options"]

/** Callback URLs of every kind: on site, off site, spelled to fool a parser, not URLs at all. */
export const callbackUrls = [
  "/dashboard",
  `${origin}/ok`,
  "https://evil.example/",
  "//evil.example",
  "/\\evil.example",
  "\t//evil.example",
  "/..//evil.example",
  "https://app.test@evil.example/",
  "HTTPS://EVIL.EXAMPLE",
  "https:evil.example",
  "javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "ftp://app.test/",
  "dashboard",
  "http://[",
  "%",
  "%zz",
  "",
  " ",
  "http://app.test/",
  `${origin}/auth/error`,
  "/auth/signin?callbackUrl=https://evil.example",
]

const interesting = [
  ...callbackUrls,
  "__proto__",
  "constructor",
  "prototype",
  "undefined",
  "null",
  "0",
  "-1",
  "true",
  "[object Object]",
  "a".repeat(5000),
  "ada",
  "ada@example.test",
  "Ada@Example.Test",
  "grace@example.test",
  "not an email",
  "a@b",
  "x\r\nSet-Cookie: injected=1",
  "\u0000",
  "😀",
  "register",
  "authenticate",
  "access_denied",
  "Configuration",
  "%E0%A4%A",
]

const text = fc.oneof(fc.constantFrom(...interesting), fc.string({ maxLength: 40 }), fc.string({ unit: "binary", maxLength: 20 }))
/** Printable ASCII, safe in a header value. */
const headerText = fc.oneof(
  fc.constantFrom("app.test", "evil.example", "APP.TEST", "app.test:443", "localhost:3000", "127.0.0.1", "[::1]", "", "https", "http", "ftp", "1.2.3.4, 5.6.7.8"),
  fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789.-:/,;= ".split("")), maxLength: 30 }),
)
const contentTypes = [
  "application/x-www-form-urlencoded",
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "multipart/form-data",
  "multipart/form-data; boundary=nothing",
  "application/x-www-form-urlencoded; charset=latin1",
  "APPLICATION/JSON",
  "application/json, application/x-www-form-urlencoded",
  "",
]

const prefixes = ["/auth", "/AUTH", "/Auth", "/auth/", "//auth", "/api/auth", "", "/auth/..", "/auth/%2e%2e", "/auth%2F", "/auth/./", "/%61uth", "/auth/../auth", "/x/../auth"]
const actionSegments = [...actions, "SESSION", "Session", "sign in", "%73ession", "callback%2Fop", "session%00", "..", ".", "%2e", "session.json", "session;x=1"]
const providerSegments = ["op", "github", "credentials", "email", "passkey", "unknown", "OP", "%6fp", "undefined", "..", "%2e%2e", "a%2Fb", "op%00", "%E0%A4%A", "%", "__proto__", "constructor", "x".repeat(3000)]

const pathArb = fc
  .record({
    prefix: fc.constantFrom(...prefixes),
    action: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...actionSegments) }, { weight: 1, arbitrary: fc.webSegment() }),
    provider: fc.option(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...providerSegments) }, { weight: 1, arbitrary: fc.webSegment() }), { nil: undefined }),
    tail: fc.constantFrom("", "", "", "/", "//", "/extra", "/./", "/.."),
  })
  .map(({ prefix, action, provider, tail }) => `${prefix.endsWith("/") ? prefix : `${prefix}/`}${action}${provider === undefined ? "" : `/${provider}`}${tail}`)

const queryKeys = ["callbackUrl", "error", "token", "email", "code", "state", "iss", "action", "csrfToken", "__proto__", "constructor", "__proto__[polluted]", "callbackUrl"]
const queryArb = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...queryKeys), fc.string({ maxLength: 8 })), text), { maxLength: 4 })

function withQuery(path: string, query: [string, string][]): string {
  if (!query.length) return path
  return `${path}${path.includes("?") ? "&" : "?"}${new URLSearchParams(query)}`
}

const hostArb = fc.constantFrom("https://app.test", "https://app.test", "https://app.test", "http://app.test", "https://APP.TEST", "https://evil.example", "https://app.test:8443", "http://localhost:3000", "https://xn--pple-43d.test")

const headerArb = fc.oneof(
  fc.tuple(fc.constantFrom("Host", "X-Forwarded-Host", "X-Forwarded-Proto", "X-Forwarded-For", "X-Forwarded-Port", "Origin", "Referer", "Forwarded"), headerText),
  fc.tuple(fc.constant("Content-Type"), fc.constantFrom(...contentTypes)),
  fc.tuple(fc.constantFrom("X-Auth-Return-Redirect", "Accept", "User-Agent"), fc.constantFrom("1", "true", "application/json", "*/*", "")),
  fc.tuple(fc.constantFrom("X-Huge", "Cookie2", "Authorization"), fc.integer({ min: 8_000, max: 64_000 }).map((n) => "h".repeat(n))),
)
/** Headers, some repeated many times. */
const headersArb = fc
  .array(fc.tuple(headerArb, fc.constantFrom(1, 1, 1, 2, 50)), { maxLength: 5 })
  .map((entries) => entries.flatMap(([header, times]) => Array.from({ length: times }, () => header as [string, string])))

const jwePart = fc.base64String({ maxLength: 40 }).map((s) => s.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""))
const malformedValues = fc.oneof(
  fc.constantFrom("%%%", "eyJ", "....", "a.b.c.d.e", "e30", "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0....", "%E0%A4%A", "\"quoted\"", "=", ""),
  fc.tuple(jwePart, jwePart, jwePart, jwePart, jwePart).map((parts) => parts.join(".")),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
)

/** Splits `value` into `<name>.0`… chunks, as the session store writes cookies over 4 KB. */
function chunked(name: string, value: string, pieces: number, drop: number | undefined): CookiePair[] {
  const size = Math.ceil(value.length / pieces)
  const chunks: CookiePair[] = []
  for (let i = 0; i < pieces; i++) chunks.push([`${name}.${i}`, value.slice(i * size, (i + 1) * size)])
  return drop === undefined ? chunks : chunks.filter((_, i) => i !== drop % pieces)
}

function cookieArb(app: FuzzApp, world: FuzzWorld): fc.Arbitrary<CookiePair[]> {
  const other = world.apps[app.name === "jwt" ? "database" : "jwt"]
  const names = Object.values(cookieNames)
  const sessionLike = fc.constantFrom(cookieNames.session, engineCookies.http.sessionToken, engineCookies.https.sessionToken)
  const one: fc.Arbitrary<CookiePair[]> = fc.oneof(
    fc.constant<CookiePair[]>([[cookieNames.session, app.legit.session]]),
    fc.constant<CookiePair[]>([[cookieNames.csrf, app.legit.csrfCookie]]),
    fc.constantFrom(...Object.values(app.legit.flows).map((flow) => flow.cookies)),
    fc.constantFrom(...Object.values(other.legit.flows).map((flow) => flow.cookies)),
    fc.tuple(fc.constantFrom(...names), fc.constantFrom(...app.foreign.sessions, ...app.foreign.flows, ...app.foreign.csrfCookies)).map((pair) => [pair as CookiePair]),
    fc.tuple(fc.constant(cookieNames.callbackUrl), fc.constantFrom(...callbackUrls).map(encodeURIComponent)).map((pair) => [pair as CookiePair]),
    fc.tuple(fc.constantFrom(...names), malformedValues).map((pair) => [pair as CookiePair]),
    fc.tuple(sessionLike, fc.integer({ min: 2, max: 6 }), fc.option(fc.nat(), { nil: undefined })).map(([name, pieces, drop]) => chunked(name, app.legit.session, pieces, drop)),
    fc.tuple(fc.constantFrom(cookieNames.session, cookieNames.flow), fc.constantFrom(...app.foreign.sessions)).map(([name, value]) => chunked(name, value, 3, undefined)),
    // `.0` … `.200`: many chunks of nothing in particular.
    fc.tuple(fc.constantFrom(cookieNames.session, cookieNames.flow), fc.integer({ min: 20, max: 201 })).map(([name, count]) => Array.from({ length: count }, (_, i) => [`${name}.${i}`, "abc"] as CookiePair)),
    fc.tuple(fc.constantFrom(cookieNames.session, `${cookieNames.session}.0`, cookieNames.csrf), fc.integer({ min: 4_100, max: 20_000 })).map(([name, n]) => [[name, "A".repeat(n)] as CookiePair]),
    fc.tuple(fc.constantFrom("__proto__", "constructor", "toString", "hasOwnProperty", "prototype"), text.map(encodeURIComponent)).map((pair) => [pair as CookiePair]),
  )
  return fc.array(one, { maxLength: 4 }).map((groups) => groups.flat())
}

function formFieldsArb(app: FuzzApp): fc.Arbitrary<[string, string][]> {
  const keys = ["csrfToken", "callbackUrl", "username", "password", "email", "action", "data", "__proto__", "constructor", "__proto__[polluted]", "constructor[prototype][polluted]", "redirect", "json"]
  const value = fc.oneof({ weight: 5, arbitrary: text }, { weight: 1, arbitrary: fc.constant(app.legit.csrfToken) })
  return fc.array(fc.tuple(fc.constantFrom(...keys), value), { maxLength: 6 })
}

const pollutingJson = [
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"data":{"__proto__":{"polluted":"yes"}},"csrfToken":"x"}',
  '{"callbackUrl":{"__proto__":{"polluted":"yes"}}}',
  '{"csrfToken":["a","b"],"callbackUrl":["https://evil.example"]}',
  '{"csrfToken":{"toString":1}}',
  "[]",
  "null",
  "1",
  '"string"',
  "{",
  "",
]

function bodyArb(app: FuzzApp): fc.Arbitrary<BodySpec | undefined> {
  const contentType = fc.constantFrom(...contentTypes)
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant("form" as const), fields: formFieldsArb(app) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("form" as const), fields: formFieldsArb(app), contentType }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("json" as const), text: fc.oneof(fc.constantFrom(...pollutingJson), fc.json({ maxDepth: 3 })) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("json" as const), text: fc.constantFrom(...pollutingJson), contentType }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("multipart" as const), fields: formFieldsArb(app) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("text" as const), text, contentType: fc.option(contentType, { nil: undefined }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("empty" as const), contentType: fc.option(contentType, { nil: undefined }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom("huge" as const, "invalid-utf8" as const), contentType }) },
  )
}

const methodArb = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom("GET", "POST") },
  { weight: 1, arbitrary: fc.constantFrom("PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "get", "post", "PoSt", "PROPFIND") },
)

/**
 * Any request a client could send to either app.
 *
 * @example
 * ```ts
 * fc.assert(fc.asyncProperty(anyCase(world), (c) => runCase(world, c)), { seed: 42 })
 * ```
 */
export function anyCase(world: FuzzWorld): fc.Arbitrary<FuzzCase> {
  const perApp = (app: FuzzApp) =>
    fc
      .record({
        method: methodArb,
        host: hostArb,
        path: pathArb,
        query: queryArb,
        headers: headersArb,
        cookies: cookieArb(app, world),
        cookieSeparator: fc.constantFrom("; ", "; ", ";", ";;", ", "),
        body: bodyArb(app),
      })
      .map(({ method, host, path, query, headers, cookies, cookieSeparator, body }): FuzzCase => ({
        app: app.name,
        label: "any",
        method,
        url: `${host}${withQuery(path, query)}`,
        headers,
        cookies,
        cookieSeparator,
        ...(body && { body }),
      }))
  return fc.oneof(perApp(world.apps.jwt), perApp(world.apps.database))
}

/** The legitimate requests of an app: each is what a browser of a signed-in (or signing-in) user sends. */
function templates(app: FuzzApp): Record<string, FuzzCase> {
  const base = { app: app.name, headers: [] as [string, string][], cookieSeparator: "; " }
  const session: CookiePair = [cookieNames.session, app.legit.session]
  const csrf: CookiePair = [cookieNames.csrf, app.legit.csrfCookie]
  const form = (fields: [string, string][]): BodySpec => ({ kind: "form", fields })
  const url = (path: string) => `${origin}${basePath}${path}`
  const all: Record<string, FuzzCase> = {
    session: { ...base, label: "session", method: "GET", url: url("/session"), cookies: [session, csrf] },
    "session-update": { ...base, label: "session-update", method: "POST", url: url("/session"), cookies: [session, csrf], body: { kind: "json", text: JSON.stringify({ csrfToken: app.legit.csrfToken, data: { name: "Ada B" } }) } },
    csrf: { ...base, label: "csrf", method: "GET", url: url("/csrf"), cookies: [csrf] },
    providers: { ...base, label: "providers", method: "GET", url: url("/providers"), cookies: [] },
    "signin-page": { ...base, label: "signin-page", method: "GET", url: url("/signin?callbackUrl=%2Fdashboard"), cookies: [csrf] },
    "signout-page": { ...base, label: "signout-page", method: "GET", url: url("/signout"), cookies: [session, csrf] },
    "error-page": { ...base, label: "error-page", method: "GET", url: url("/error?error=Verification"), cookies: [] },
    credentials: {
      ...base,
      label: "credentials",
      method: "POST",
      url: url("/callback/credentials"),
      cookies: [csrf],
      body: form([["csrfToken", app.legit.csrfToken], ["username", app.legit.username], ["password", app.legit.password], ["callbackUrl", `${origin}/dashboard`]]),
    },
    signout: { ...base, label: "signout", method: "POST", url: url("/signout"), cookies: [session, csrf], body: form([["csrfToken", app.legit.csrfToken], ["callbackUrl", "/bye"]]) },
  }
  for (const id of app.oauthProviders) {
    all[`signin-${id}`] = { ...base, label: `signin-${id}`, method: "POST", url: url(`/signin/${id}`), cookies: [csrf], body: form([["csrfToken", app.legit.csrfToken], ["callbackUrl", "/after"]]) }
    const flow = app.legit.flows[id]!
    all[`callback-${id}`] = { ...base, label: `callback-${id}`, method: "GET", url: url(`/callback/${id}?${flow.callbackQuery}`), cookies: [...flow.cookies, csrf] }
  }
  if (app.legit.emailLink) {
    const { token, email } = app.legit.emailLink
    all["signin-email"] = { ...base, label: "signin-email", method: "POST", url: url("/signin/email"), cookies: [csrf], body: form([["csrfToken", app.legit.csrfToken], ["email", "grace@example.test"]]) }
    all["callback-email"] = { ...base, label: "callback-email", method: "GET", url: url(`/callback/email?${new URLSearchParams({ callbackUrl: `${origin}/mail`, token, email })}`), cookies: [csrf] }
    all["webauthn-options"] = { ...base, label: "webauthn-options", method: "GET", url: url("/webauthn-options/passkey?action=register&email=grace%40example.test"), cookies: [csrf] }
    all["webauthn-callback"] = {
      ...base,
      label: "webauthn-callback",
      method: "POST",
      url: url("/callback/passkey"),
      cookies: [csrf],
      body: form([["csrfToken", app.legit.csrfToken], ["action", "authenticate"], ["data", JSON.stringify({ id: "AAAA", rawId: "AAAA", type: "public-key", response: {} })]]),
    }
  }
  return all
}

const otherHosts = ["https://evil.example", "http://app.test", "https://APP.TEST", "https://app.test:8443", "http://localhost:3000"]

type Mutation = (c: FuzzCase, value: string, index: number) => FuzzCase

/** One part of a request changed: its path, method, a header, a cookie, a body field or the query. */
const mutations: Record<string, Mutation> = {
  none: (c) => c,
  "path-case": (c) => ({ ...c, url: c.url.replace("/auth/", "/AUTH/") }),
  "path-trailing-slash": (c) => ({ ...c, url: c.url.replace(/(\?|$)/, "/$1") }),
  "path-double-slash": (c) => ({ ...c, url: c.url.replace("/auth/", "/auth//") }),
  "path-dot-segment": (c) => ({ ...c, url: c.url.replace("/auth/", "/auth/x/../") }),
  "path-encoded": (c) => ({ ...c, url: c.url.replace(/\/auth\/(\w)/, (_, first: string) => `/auth/%${first.charCodeAt(0).toString(16)}`) }),
  method: (c, _, index) => ({ ...c, method: ["GET", "POST", "PUT", "HEAD", "get"][index % 5]! }),
  host: (c, _, index) => ({ ...c, url: c.url.replace(origin, otherHosts[index % otherHosts.length]!) }),
  header: (c, value, index) => ({ ...c, headers: [...c.headers, [["X-Forwarded-Host", "Host", "X-Forwarded-Proto", "X-Auth-Return-Redirect", "Content-Type"][index % 5]!, value.replace(/[^\x20-\x7e]/g, "")]] }),
  "cookie-drop": (c, _, index) => ({ ...c, cookies: c.cookies.filter((__, i) => i !== index % Math.max(c.cookies.length, 1)) }),
  "cookie-value": (c, value, index) => ({ ...c, cookies: c.cookies.map((pair, i) => (i === index % Math.max(c.cookies.length, 1) ? [pair[0], encodeURIComponent(value)] : pair)) }),
  "cookie-truncate": (c, _, index) => ({ ...c, cookies: c.cookies.map((pair, i) => (i === index % Math.max(c.cookies.length, 1) ? [pair[0], pair[1].slice(0, Math.floor(pair[1].length / 2))] : pair)) }),
  "cookie-flip": (c, _, index) => ({
    ...c,
    cookies: c.cookies.map((pair, i) => {
      if (i !== index % Math.max(c.cookies.length, 1) || !pair[1].length) return pair
      const at = (index * 7) % pair[1].length
      const flipped = pair[1][at] === "A" ? "B" : "A"
      return [pair[0], pair[1].slice(0, at) + flipped + pair[1].slice(at + 1)]
    }),
  }),
  "cookie-duplicate": (c) => ({ ...c, cookies: [...c.cookies, ...c.cookies.map(([name]) => [name, "dup"] as CookiePair)] }),
  "body-drop-field": (c, _, index) => {
    const body = c.body
    if (body?.kind !== "form") return { ...c, body: { kind: "empty" } }
    return { ...c, body: { ...body, fields: body.fields.filter((__, i) => i !== index % Math.max(body.fields.length, 1)) } }
  },
  "body-field-value": (c, value, index) => {
    const body = c.body
    if (body?.kind !== "form" || !body.fields.length) return { ...c, body: { kind: "text", text: value } }
    return { ...c, body: { ...body, fields: body.fields.map(([k, v], i) => [k, i === index % body.fields.length ? value : v] as [string, string]) } }
  },
  "body-proto": (c) => (c.body?.kind === "form" ? { ...c, body: { ...c.body, fields: [...c.body.fields, ["__proto__[polluted]", "yes"], ["constructor[prototype][polluted]", "yes"]] } } : { ...c, body: { kind: "json", text: pollutingJson[0]! } }),
  "body-as-json": (c) => (c.body?.kind === "form" ? { ...c, body: { kind: "json", text: JSON.stringify(Object.fromEntries(c.body.fields)) } } : c),
  "body-as-multipart": (c) => (c.body?.kind === "form" ? { ...c, body: { kind: "multipart", fields: c.body.fields } } : c),
  "body-content-type": (c, _, index) => (c.body?.kind === "form" ? { ...c, body: { ...c.body, contentType: contentTypes[index % contentTypes.length]! } } : c),
  "query-callback-url": (c, _, index) => ({ ...c, url: `${c.url}${c.url.includes("?") ? "&" : "?"}callbackUrl=${encodeURIComponent(callbackUrls[index % callbackUrls.length]!)}` }),
  "body-callback-url": (c, _, index) => {
    const target = callbackUrls[index % callbackUrls.length]!
    const body = c.body
    if (body?.kind === "form") return { ...c, body: { ...body, fields: [...body.fields.filter(([k]) => k !== "callbackUrl"), ["callbackUrl", target]] } }
    return { ...c, url: `${c.url}${c.url.includes("?") ? "&" : "?"}callbackUrl=${encodeURIComponent(target)}` }
  },
  "cookie-callback-url": (c, _, index) => ({
    ...c,
    cookies: [...c.cookies.filter(([name]) => name !== cookieNames.callbackUrl), [cookieNames.callbackUrl, encodeURIComponent(callbackUrls[index % callbackUrls.length]!)]],
  }),
  "query-param": (c, value, index) => ({ ...c, url: `${c.url}${c.url.includes("?") ? "&" : "?"}${queryKeys[index % queryKeys.length]}=${encodeURIComponent(value)}` }),
  "foreign-session": (c, _, index) => {
    const foreign = [cookieNames.session, "x"] as CookiePair
    return { ...c, cookies: [...c.cookies.filter(([name]) => name !== cookieNames.session), [foreign[0], `@foreign:${index}`]] }
  },
}

/**
 * A legitimate request of one of the apps with one part mutated (or none).
 *
 * @example
 * ```ts
 * fc.sample(nearlyValidCase(world), 3)
 * ```
 */
export function nearlyValidCase(world: FuzzWorld): fc.Arbitrary<FuzzCase> {
  const perApp = (app: FuzzApp) => {
    const all = templates(app)
    return fc.record({ template: fc.constantFrom(...Object.keys(all)), mutation: fc.constantFrom(...Object.keys(mutations)), value: text, index: fc.nat(1000) }).map(({ template, mutation, value, index }) => {
      let mutated = mutations[mutation]!(all[template]!, value, index)
      // A foreign session is chosen here, where the app's foreign material is at hand.
      mutated = { ...mutated, cookies: mutated.cookies.map(([name, v]) => (v.startsWith("@foreign:") ? [name, app.foreign.sessions[Number(v.slice(9)) % app.foreign.sessions.length]!] : [name, v])) }
      return { ...mutated, label: `nearly:${template}/${mutation}` }
    })
  }
  return fc.oneof(perApp(world.apps.jwt), perApp(world.apps.database))
}

const oneMegabyte = 1024 * 1024

/** The web `Request` a case describes (GET and HEAD requests carry no body, as fetch requires). */
export function toRequest(c: FuzzCase): Request {
  const headers = new Headers()
  for (const [name, value] of c.headers) headers.append(name, value)
  if (c.cookies.length) headers.set("cookie", c.cookies.map(([name, value]) => `${name}=${value}`).join(c.cookieSeparator))
  const upper = c.method.toUpperCase()
  let body: BodyInit | undefined
  const spec = upper === "GET" || upper === "HEAD" ? undefined : c.body
  if (spec) {
    const type = "contentType" in spec ? spec.contentType : undefined
    switch (spec.kind) {
      case "form":
        body = new URLSearchParams(spec.fields).toString()
        headers.set("content-type", type ?? "application/x-www-form-urlencoded")
        break
      case "json":
        body = spec.text
        headers.set("content-type", type ?? "application/json")
        break
      case "multipart": {
        const form = new FormData()
        for (const [key, value] of spec.fields) form.append(key, value)
        body = form
        headers.delete("content-type")
        break
      }
      case "text":
        body = spec.text
        if (type !== undefined) headers.set("content-type", type)
        break
      case "empty":
        body = ""
        if (type !== undefined) headers.set("content-type", type)
        break
      case "huge":
        body = `csrfToken=${"x".repeat(oneMegabyte)}`
        headers.set("content-type", spec.contentType)
        break
      case "invalid-utf8":
        body = new Uint8Array([0x63, 0x73, 0x72, 0x66, 0x3d, 0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x90, 0x28, 0xbc])
        headers.set("content-type", spec.contentType)
        break
    }
  }
  return new Request(c.url, { method: c.method, headers, ...(body !== undefined && { body }) })
}
