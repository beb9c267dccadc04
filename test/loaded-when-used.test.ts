/**
 * Flows load when used: a credentials-only app answering `/session` loads neither the OAuth client
 * (oauth4webapi), nor the WebAuthn code, nor the pages or their JSX runtime, nor the token refresh, nor the
 * second-factor options, nor the replay and refresh stores the entry exports, nor the database
 * session read (a JWT session's app never needs it), nor the configuration checks of other provider
 * kinds (OAuth/OIDC, email, WebAuthn, Password) and of second factors, which an app with an OIDC
 * provider does load (its own kind's only). Each case runs `Auth()` in a fresh Node process whose
 * module loader writes down every module it loads; the assertions read that list.
 * The sign-in page is the counter-check: rendering it loads the pages and their JSX runtime, so the
 * list would show them had `/session` loaded them (and still no WebAuthn code: no WebAuthn provider is
 * shown, and no Preact, which the pages no longer use). The pages a credentials-only app answers
 * (sign-in, sign-out, error, verify-request) load none of the Password provider's, second factors' or
 * emailed code's pages, nor the sign-in page's OAuth buttons and email form, and of the English only the core's; an app
 * with a Password provider loads its pages when one is first asked for. A credentials sign-in and
 * sign-out write and clear its JWT session without the database session's writes and the sign-out's
 * steps beyond the cookie, which an app with an adapter loads.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { encode } from "../src/jwt.js"

const root = new URL("..", import.meta.url).pathname
const scratch = mkdtempSync(join(tmpdir(), "authflow-loaded-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const secret = "loaded-when-used-secret-0123456789abcdef"
const cookieName = "__Secure-authjs.session-token"

/** Modules a credentials-only session read must not load, by what they are. */
const notForSession: Record<string, RegExp> = {
  "the OAuth client (oauth4webapi)": /\/node_modules\/oauth4webapi\//,
  "the WebAuthn code": /\/src\/(core\/webauthn\/|actions\/webauthn|machines\/webauthn|providers\/(webauthn|passkey)|pages\/webauthn)|\/node_modules\/@simplewebauthn\//,
  "the pages": /\/src\/pages\//,
  "the pages' JSX runtime": /\/src\/pages\/jsx\.ts$/,
  "the refresh of provider tokens": /\/src\/actions\/(session-refresh|token-refresh)\.ts$|\/src\/core\/refresh-result\.ts$/,
  "the second-factor options": /\/src\/core\/second-factor-options\.ts$/,
  "the replay and refresh stores": /\/src\/core\/(replay|refresh)-store\.ts$/,
  "the database session read": /\/src\/actions\/session-database\.ts$/,
  "the configuration checks of other provider kinds and second factors": /\/src\/core\/checks\/(oauth|email|webauthn|password|second-factor)\.ts$/,
}

/** Page modules the sign-in, sign-out, error and verify-request pages of a credentials-only app must not load. */
const notForCredentialsPages: Record<string, RegExp> = {
  "the Password provider's pages": /\/src\/(actions\/password\/|pages\/(sign-up|password|change-email)\.tsx$)/,
  "the second-factor pages and their styles": /\/src\/(actions\/second-factor\/|pages\/(second-factor|factors)\.tsx$|pages\/factor-styles\.ts$)/,
  "the emailed code's page": /\/src\/(actions\/(code-page|email-code-cookies)\.ts|pages\/email-code\.tsx)$/,
  "the OAuth buttons and the email form": /\/src\/pages\/signin-oauth-email\.tsx$/,
}

// Records the URL of every module loaded after it is registered (tsx's hooks run underneath).
writeFileSync(
  join(scratch, "record.mjs"),
  `import { register } from "node:module"
register("data:text/javascript," + encodeURIComponent(${JSON.stringify(`import { appendFileSync } from "node:fs"
export async function load(url, context, next) {
  appendFileSync(process.env.LOADED_MODULES, url + "\\n")
  return next(url, context)
}`)}))
`,
)

/**
 * An app with `providers` (source text) and what else its config holds, importing what they name:
 * answers each request given, in order, and prints the answers.
 */
const app = (providers: string, { imports = "", config = "" } = {}) => `import { Auth } from ${JSON.stringify(join(root, "src/index.ts"))}
import Credentials from ${JSON.stringify(join(root, "src/providers/credentials.ts"))}
${imports}
const config = {
  secret: ${JSON.stringify(secret)},
  trustHost: true,${config}
  providers: ${providers},
}
const answers = []
// A request with a form is a POST that carries the cookies set so far and the last CSRF token.
const jar = new Map()
let csrfToken = ""
for (const { path, cookie, form } of JSON.parse(process.env.REQUESTS!) as { path: string; cookie?: string; form?: Record<string, string> }[]) {
  const sent = cookie ?? (form ? [...jar].map(([name, value]) => name + "=" + value).join("; ") : "")
  const headers = { ...(sent && { cookie: sent }), ...(form && { "content-type": "application/x-www-form-urlencoded" }) }
  const init = form ? { method: "POST", headers, body: new URLSearchParams({ ...form, csrfToken }) } : { headers }
  const response = await Auth(new Request("https://app.test/auth" + path, init), config)
  const cookies = response.headers.getSetCookie().map((set) => set.slice(0, set.indexOf(";")))
  for (const pair of cookies) jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1))
  const body = await response.text()
  if (path === "/csrf") csrfToken = JSON.parse(body).csrfToken
  answers.push({ status: response.status, body, location: response.headers.get("location"), cookies: cookies.map((pair) => pair.slice(0, pair.indexOf("="))) })
}
process.stdout.write(JSON.stringify(answers))
`
// A credentials-only app.
writeFileSync(join(scratch, "app.mts"), app(`[Credentials({ credentials: { username: {} }, authorize: (credentials: Record<string, unknown>) => ({ id: "1", name: String(credentials.username) }) })]`))
// An app with an OIDC provider written Auth.js-style, a plain object without a factory, beside the credentials.
writeFileSync(
  join(scratch, "app-oidc.mts"),
  app(`[{ id: "corp", name: "Corp", type: "oidc", issuer: "https://idp.test", clientId: "corp-client" }, Credentials({ authorize: () => null })]`),
)
// A credentials app with an adapter, so database sessions, whose user is in the adapter.
writeFileSync(
  join(scratch, "app-database.mts"),
  app(`[Credentials({ credentials: { username: {} }, authorize: () => ada })]`, {
    imports: `import { MemoryAdapter } from ${JSON.stringify(join(root, "src/adapters/memory.ts"))}
const adapter = MemoryAdapter()
const ada = await adapter.createUser!({ id: "", name: "Ada", email: "ada@example.test", emailVerified: null })`,
    config: "\n  adapter,",
  }),
)
// An app with a Password provider, and the adapter it needs.
writeFileSync(
  join(scratch, "app-password.mts"),
  app(`[Password({ sendMail: async () => {} })]`, {
    imports: `import Password from ${JSON.stringify(join(root, "src/providers/password.ts"))}
import { MemoryAdapter } from ${JSON.stringify(join(root, "src/adapters/memory.ts"))}`,
    config: "\n  adapter: MemoryAdapter(),",
  }),
)

/** Runs the app in a fresh process on `requests`: its answers, and every module it loaded. */
function run(name: string, requests: { path: string; cookie?: string; form?: Record<string, string> }[], appFile = "app.mts"): { answers: { status: number; body: string; location: string | null; cookies: string[] }[]; loaded: string[] } {
  const log = join(scratch, `${name}.log`)
  writeFileSync(log, "")
  const out = execFileSync(process.execPath, ["--import", "tsx", "--import", join(scratch, "record.mjs"), join(scratch, appFile)], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, REQUESTS: JSON.stringify(requests), LOADED_MODULES: log },
  })
  return { answers: JSON.parse(out) as { status: number; body: string; location: string | null; cookies: string[] }[], loaded: readFileSync(log, "utf8").split("\n").filter(Boolean) }
}

const matching = (loaded: string[], pattern: RegExp) => loaded.filter((url) => pattern.test(url))

describe("a credentials-only app answering /session", () => {
  it("loads neither OAuth, WebAuthn, the pages, their JSX runtime, the token refresh, the second-factor options, the stores nor other kinds' configuration checks, for a session with or without provider tokens", async () => {
    const session = await encode({ token: { name: "Ada", email: "ada@example.test", sub: "1" }, secret, salt: cookieName })
    // A session minted while an OAuth provider with refresh was configured: its tokens ride along.
    const withTokens = await encode({
      token: { name: "Ada", email: "ada@example.test", sub: "1", "authflow:tokens": { corp: { access_token: "at", refresh_token: "rt", expires_at: 1 } } },
      secret,
      salt: cookieName,
    })
    const { answers, loaded } = run("session", [{ path: "/session" }, { path: "/session", cookie: `${cookieName}=${session}` }, { path: "/session", cookie: `${cookieName}=${withTokens}` }])

    expect(answers.map(({ status }) => status)).toEqual([200, 200, 200])
    expect(JSON.parse(answers[0]!.body)).toBeNull()
    expect(JSON.parse(answers[1]!.body).user.name).toBe("Ada")
    expect(JSON.parse(answers[2]!.body).user.name).toBe("Ada")
    // The list is the real one: the session action and the JWT code are on it.
    expect(matching(loaded, /\/src\/actions\/session\.ts$/)).toHaveLength(1)
    expect(matching(loaded, /\/src\/core\/jwt\/decode\.ts$/)).toHaveLength(1)
    for (const [what, pattern] of Object.entries(notForSession)) expect(matching(loaded, pattern), what).toEqual([])
  }, 60_000)

  it("loads the pages and their JSX runtime when the sign-in page is first rendered, and still no WebAuthn code, token refresh, second-factor options, stores, other kinds' configuration checks nor Preact", () => {
    const { answers, loaded } = run("signin", [{ path: "/signin" }])

    expect(answers[0]!.status).toBe(200)
    expect(answers[0]!.body).toContain('name="username"')
    expect(matching(loaded, notForSession["the pages"]!)).not.toEqual([])
    expect(matching(loaded, notForSession["the pages' JSX runtime"]!)).not.toEqual([])
    expect(matching(loaded, /\/node_modules\/preact(-render-to-string)?\//), "Preact").toEqual([])
    for (const what of ["the OAuth client (oauth4webapi)", "the WebAuthn code", "the refresh of provider tokens", "the second-factor options", "the replay and refresh stores", "the configuration checks of other provider kinds and second factors"]) {
      expect(matching(loaded, notForSession[what]!), what).toEqual([])
    }
    // The page's English is the core's: the Password pages', the second factor's and the emails' load with a page of theirs.
    expect(matching(loaded, /\/src\/core\/i18n\/english\/core\.ts$/)).toHaveLength(1)
    expect(matching(loaded, /\/src\/core\/i18n\/(messages|translator|english\/(password|second-factor|emails))\.ts$/), "the other areas' English").toEqual([])
  }, 60_000)

  it("answers its sign-in, sign-out, error and verify-request pages without the Password provider's, second factors' or emailed code's pages, nor the OAuth and email forms", () => {
    const { answers, loaded } = run("credentials-pages", [
      { path: "/signin" },
      { path: "/signin?error=CredentialsSignin" },
      { path: "/signout" },
      { path: "/error?error=AccessDenied" },
      { path: "/verify-request" },
      { path: "/verify-request?type=code&provider=credentials" },
    ])

    expect(answers.map(({ status }) => status)).toEqual([200, 200, 200, 403, 200, 200])
    expect(answers[5]!.body).toContain("Check your email")
    expect(answers[5]!.body).not.toContain('name="code"')
    expect(matching(loaded, /\/src\/actions\/pages\.ts$/)).toHaveLength(1)
    expect(matching(loaded, /\/src\/pages\/(signin|signout|error|verify-request)\.tsx$/)).toHaveLength(4)
    for (const [what, pattern] of Object.entries(notForCredentialsPages)) expect(matching(loaded, pattern), what).toEqual([])
  }, 60_000)
})

describe("a credentials sign-in and sign-out", () => {
  const signInAndOut: { path: string; form?: Record<string, string> }[] = [{ path: "/csrf" }, { path: "/callback/credentials", form: { username: "Ada" } }, { path: "/signout", form: {} }]

  it("write and clear a JWT session without loading the database session's writes, the second-factor flow or the sign-out's steps beyond the cookie", () => {
    const { answers, loaded } = run("credentials-sign-in", signInAndOut)

    expect(answers.map(({ status }) => status)).toEqual([200, 302, 302])
    expect(answers[1]!.cookies).toContain(cookieName)
    expect(answers[2]!.cookies).toContain(cookieName)
    expect(answers.map(({ location }) => location)).toEqual([null, "https://app.test", "https://app.test"])
    // The list is the real one: the sign-in tail's JWT write and the sign-out action are on it.
    expect(matching(loaded, /\/src\/actions\/issue-session\.ts$/)).toHaveLength(1)
    expect(matching(loaded, /\/src\/actions\/signout\.ts$/)).toHaveLength(1)
    expect(matching(loaded, /\/src\/actions\/issue-database-session\.ts$/), "the database session's writes").toEqual([])
    expect(matching(loaded, /\/src\/actions\/signout-ends\.ts$/), "the sign-out's steps beyond the cookie").toEqual([])
    expect(matching(loaded, /\/src\/actions\/second-factor\/flow\.ts$/), "the second-factor flow").toEqual([])
  }, 60_000)

  it("load the database session's writes and the sign-out's steps beyond the cookie when the app has database sessions", () => {
    const { answers, loaded } = run("database-sign-in", signInAndOut, "app-database.mts")

    expect(answers.map(({ status }) => status)).toEqual([200, 302, 302])
    expect(answers[1]!.cookies).toContain(cookieName)
    expect(answers[2]!.cookies).toContain(cookieName)
    expect(answers.map(({ location }) => location)).toEqual([null, "https://app.test", "https://app.test"])
    expect(matching(loaded, /\/src\/actions\/issue-database-session\.ts$/)).toHaveLength(1)
    expect(matching(loaded, /\/src\/actions\/signout-ends\.ts$/)).toHaveLength(1)
  }, 60_000)
})

describe("an app with a Password provider", () => {
  it("loads the Password provider's pages when one is first asked for, and its sign-in page loads none of them", () => {
    const signIn = run("password-signin", [{ path: "/signin" }], "app-password.mts")
    expect(signIn.answers[0]!.status).toBe(200)
    expect(signIn.answers[0]!.body).toContain("/auth/forgot-password/password")
    expect(matching(signIn.loaded, notForCredentialsPages["the Password provider's pages"]!)).toEqual([])

    const { answers, loaded } = run("password-pages", [{ path: "/signup/password" }, { path: "/forgot-password/password" }, { path: "/verify-request?type=code&provider=password" }], "app-password.mts")
    expect(answers.map(({ status }) => status)).toEqual([200, 200, 200])
    expect(answers[2]!.body).toContain("<title>Enter your code</title>")
    for (const module of [/\/src\/actions\/password\/pages\.ts$/, /\/src\/pages\/sign-up\.tsx$/, /\/src\/pages\/password\.tsx$/, /\/src\/actions\/code-page\.ts$/, /\/src\/pages\/email-code\.tsx$/]) {
      expect(matching(loaded, module), String(module)).toHaveLength(1)
    }
    expect(matching(loaded, notForCredentialsPages["the second-factor pages and their styles"]!), "the second-factor pages").toEqual([])
  }, 60_000)
})

describe("an app with an OIDC provider answering /session", () => {
  it("loads the OAuth/OIDC configuration checks, and no other kind's", () => {
    const { answers, loaded } = run("oidc", [{ path: "/session" }], "app-oidc.mts")

    expect(answers[0]!.status).toBe(200)
    expect(matching(loaded, /\/src\/core\/checks\/oauth\.ts$/)).toHaveLength(1)
    expect(matching(loaded, /\/src\/core\/checks\/(email|webauthn|password|second-factor)\.ts$/)).toEqual([])
  }, 60_000)
})
