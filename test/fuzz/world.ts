/**
 * The world the route fuzzer sends its requests into: two apps served through the real `Auth()`,
 * one with JWT sessions and one with database sessions (Kysely on in-memory SQLite), each with
 * stand-in OAuth and OpenID Connect providers (authflow/testing's `StandInProvider`), credentials,
 * and (database app) email and passkeys; every log line of every level is captured (`debug: true`).
 *
 * It also holds the material a request can carry: legitimate material (a valid session cookie, a
 * CSRF cookie and its token, the sealed flow cookies of each provider's sign-in, an unused email
 * link, an authorization code) and foreign material (the same cookies sealed with another secret or
 * salt, flow cookies of other providers and of the other app). Every secret the world knows is
 * listed, for the log property, and every credential, for the session property.
 */
import { randomBytes } from "node:crypto"
import { inspect } from "node:util"
import { Auth } from "../../src/index.js"
import { encode } from "../../src/core/jwt/index.js"
import { KyselyAdapter, createSqliteDatabase, migrateToLatest, type AuthflowDatabase } from "../../src/adapters/kysely/index.js"
import Credentials from "../../src/providers/credentials.js"
import GitHub from "../../src/providers/github.js"
import Passkey from "../../src/providers/passkey.js"
import { StandInProvider } from "../../src/testing/stand-in.js"
import type { Kysely } from "kysely"
import type { EmailConfig } from "../../src/providers/email-config.js"
import type { AuthConfig, Provider } from "../../src/types.js"
import { CookieJar, buildRequest, cookieNames as engineCookies } from "../helpers.js"

export const origin = "https://app.test"
export const basePath = "/auth"
export const cookieNames = {
  session: engineCookies.https.sessionToken,
  csrf: engineCookies.https.csrfToken,
  callbackUrl: engineCookies.https.callbackUrl,
  flow: engineCookies.https.flow,
  binding: engineCookies.https.flowBinding,
} as const

export type AppName = "jwt" | "database"

/** A cookie as a browser would send it back. */
export type CookiePair = readonly [name: string, value: string]

/** One app of the world and what it has given out. */
export interface FuzzApp {
  name: AppName
  config: AuthConfig
  /** Every log call of every level, serialized as a sink would print it, in order. */
  log: string[]
  /** The providers whose sign-in starts with a flow cookie. */
  oauthProviders: string[]
  /** Every provider id. */
  providers: string[]
  standIns: StandInProvider[]
  legit: {
    /** The session cookie of a signed-in user. */
    session: string
    /** The CSRF cookie and the token that matches it. */
    csrfCookie: string
    csrfToken: string
    /** Per OAuth provider: the cookies its sign-in set (flow and binding) and the callback query the provider sends back. */
    flows: Record<string, { cookies: CookiePair[]; callbackQuery: string }>
    /** An email link not yet used (database app). */
    emailLink?: { token: string; email: string }
    /** The password the credentials provider accepts, and the user name. */
    username: string
    password: string
  }
  foreign: {
    /** Session cookies that must never be accepted: sealed with another secret, or another salt. */
    sessions: string[]
    /** CSRF cookies of another secret. */
    csrfCookies: string[]
    /** Flow cookies sealed with another secret or another cookie name as salt. */
    flows: string[]
  }
  /** Strings whose presence in a request to this app makes a session legitimate: its session, password, link token, codes. */
  credentials: Set<string>
  db?: Kysely<AuthflowDatabase>
}

export interface FuzzWorld {
  apps: Record<AppName, FuzzApp>
  /** Strings that must never appear in a log line. */
  secrets: Set<string>
  /** Origins a `Location` may point to: the app's and the stand-in providers'. */
  allowedOrigins: Set<string>
  close(): Promise<void>
}

function serialize(value: unknown): string {
  return typeof value === "string" ? value : inspect(value, { depth: 12, breakLength: Infinity, showHidden: false })
}

function capturingLogger(lines: string[]): NonNullable<AuthConfig["logger"]> {
  return {
    error: (error) => void lines.push(`[error] ${serialize(error)}`),
    warn: (code) => void lines.push(`[warn] ${code}`),
    debug: (message, metadata) => void lines.push(`[debug] ${message} ${metadata === undefined ? "" : serialize(metadata)}`),
  }
}

/** A browser of the world's setup: a cookie jar and requests through `Auth()`. */
class SetupBrowser extends CookieJar {
  constructor(readonly config: AuthConfig) {
    super()
  }

  async send(path: string, form?: Record<string, string>): Promise<Response> {
    const url = path.startsWith("http") ? path : `${origin}${basePath}${path}`
    const response = await Auth(buildRequest(url, { form }, this), this.config)
    this.take(response)
    return response
  }

  async csrfToken(): Promise<string> {
    return ((await (await this.send("/csrf")).json()) as { csrfToken: string }).csrfToken
  }
}

const clientSecret = `client-secret-${randomBytes(8).toString("hex")}`

function standIns(): { op: StandInProvider; gh: StandInProvider; providers: Provider[] } {
  const op = new StandInProvider({ id: "op", type: "oidc", clientId: "fuzz-op", clientSecret, claims: { name: "Ada Lovelace", email: "ada@example.test" } })
  const gh = new StandInProvider({ id: "github", type: "oauth", clientId: "fuzz-gh", clientSecret, claims: { id: 7, login: "ada", name: "Ada", email: "ada@example.test" } })
  const providers = [
    op.install({ id: "op", name: "Stand-in OP", type: "oidc", clientId: "fuzz-op", clientSecret }) as unknown as Provider,
    gh.install(GitHub({ clientId: "fuzz-gh", clientSecret }) as never) as unknown as Provider,
  ]
  return { op, gh, providers }
}

async function buildApp(name: AppName, world: { secrets: Set<string>; allowedOrigins: Set<string> }): Promise<FuzzApp> {
  const secret = `fuzz-${name}-secret-${randomBytes(16).toString("hex")}`
  const password = `pw-${randomBytes(12).toString("hex")}`
  const username = "ada"
  const log: string[] = []
  const credentials = new Set<string>()
  const { op, gh, providers } = standIns()
  const mails: { token: string; identifier: string }[] = []
  let db: Kysely<AuthflowDatabase> | undefined
  const all: Provider[] = [
    Credentials({
      credentials: { username: {}, password: { type: "password" } },
      authorize: (given) => (given?.username === username && given?.password === password ? { id: "u-ada", name: "Ada", email: "ada@example.test" } : null),
    }) as unknown as Provider,
    ...providers,
  ]
  if (name === "database") {
    db = createSqliteDatabase(":memory:")
    await migrateToLatest(db)
    const email: EmailConfig = { id: "email", name: "Email", type: "email", maxAge: 600, sendVerificationRequest: ({ token, identifier }) => void mails.push({ token, identifier }) }
    all.push(email as unknown as Provider, Passkey() as unknown as Provider)
  }
  const config: AuthConfig = {
    secret,
    origin,
    debug: true,
    logger: capturingLogger(log),
    providers: all,
    ...(db && { adapter: KyselyAdapter(db), session: { strategy: "database" as const }, experimental: { enableWebAuthn: true } }),
    ...(!db && { session: { strategy: "jwt" as const } }),
  }
  // The credentials user exists in the database, as a real app's user table would hold it.
  if (db) await config.adapter!.createUser!({ id: "u-ada", name: "Ada", email: "ada@example.test", emailVerified: null })
  world.secrets.add(secret).add(password).add(clientSecret)
  credentials.add(password)
  // GitHub's authorization endpoint is its own (the stand-in answers everything after it).
  world.allowedOrigins.add(op.issuer).add(gh.issuer).add("https://github.com")

  // A signed-in browser: its session cookie and CSRF pair are the legitimate material.
  const browser = new SetupBrowser(config)
  const csrfToken = await browser.csrfToken()
  await browser.send("/callback/credentials", { csrfToken, username, password })
  const session = browser.cookies.get(cookieNames.session)
  if (!session) throw new Error(`world: the ${name} app did not sign the credentials user in:\n${log.filter((l) => l.startsWith("[error]")).join("\n")}`)
  const csrfCookie = browser.cookies.get(cookieNames.csrf)!
  world.secrets.add(session).add(decodeURIComponent(session)).add(csrfToken).add(decodeURIComponent(csrfCookie))
  credentials.add(decodeURIComponent(session))

  const flows: FuzzApp["legit"]["flows"] = {}
  for (const [id, standIn] of [["op", op], ["github", gh]] as const) {
    const flowBrowser = new SetupBrowser(config)
    const token = await flowBrowser.csrfToken()
    const response = await flowBrowser.send(`/signin/${id}`, { csrfToken: token })
    const authorizationUrl = new URL(response.headers.get("location")!)
    const back = standIn.redirectBack(authorizationUrl)
    const code = back.get("code")!
    world.secrets.add(code)
    credentials.add(code)
    const cookies = [...flowBrowser.cookies].filter(([cookie]) => cookie.includes("flow")) as CookiePair[]
    for (const [, value] of cookies) world.secrets.add(value).add(decodeURIComponent(value))
    flows[id] = { cookies, callbackQuery: back.toString() }
  }
  world.secrets.add(op.accessToken).add(gh.accessToken)

  let emailLink: FuzzApp["legit"]["emailLink"]
  if (name === "database") {
    const mailBrowser = new SetupBrowser(config)
    const token = await mailBrowser.csrfToken()
    await mailBrowser.send("/signin/email", { csrfToken: token, email: "grace@example.test" })
    const mail = mails.at(-1)
    if (!mail) throw new Error("world: the email sign-in sent no link")
    emailLink = { token: mail.token, email: mail.identifier }
    world.secrets.add(mail.token)
    credentials.add(mail.token)
  }

  // Foreign material: sealed like the real thing, but with another secret or another salt.
  const other = `other-secret-${randomBytes(16).toString("hex")}`
  const claims = { name: "Mallory", email: "mallory@example.test", sub: "u-mallory" }
  const foreignSessions = [
    await encode({ token: claims, secret: other, salt: cookieNames.session }),
    await encode({ token: claims, secret, salt: cookieNames.flow }),
    await encode({ token: claims, secret, salt: engineCookies.http.sessionToken }),
  ]
  const foreignFlows = [
    await encode({ token: { flow: "forged" } as never, secret: other, salt: cookieNames.flow }),
    await encode({ token: { flow: "forged" } as never, secret, salt: cookieNames.session }),
  ]
  const foreignCsrf = [`${randomBytes(32).toString("hex")}|${randomBytes(32).toString("hex")}`]

  return {
    name,
    config,
    log,
    oauthProviders: ["op", "github"],
    providers: all.map((p) => (p as { id: string }).id),
    standIns: [op, gh],
    credentials,
    legit: { session, csrfCookie, csrfToken, flows, ...(emailLink && { emailLink }), username, password },
    foreign: { sessions: foreignSessions, csrfCookies: foreignCsrf, flows: foreignFlows },
    ...(db && { db }),
  }
}

/**
 * Builds both apps and signs a user in on each (the legitimate material).
 *
 * @example
 * ```ts
 * const world = await createWorld()
 * const response = await Auth(request, world.apps.jwt.config)
 * ```
 */
export async function createWorld(): Promise<FuzzWorld> {
  const shared = { secrets: new Set<string>(), allowedOrigins: new Set<string>([origin]) }
  const jwt = await buildApp("jwt", shared)
  const database = await buildApp("database", shared)
  // Each app's flow cookies are foreign to the other (another secret).
  jwt.foreign.flows.push(...Object.values(database.legit.flows).flatMap((flow) => flow.cookies.map(([, value]) => value)))
  database.foreign.flows.push(...Object.values(jwt.legit.flows).flatMap((flow) => flow.cookies.map(([, value]) => value)))
  jwt.foreign.sessions.push(database.legit.session)
  database.foreign.sessions.push(jwt.legit.session)
  for (const value of [...shared.secrets]) if (value.length < 8) shared.secrets.delete(value)
  return {
    apps: { jwt, database },
    ...shared,
    close: async () => {
      await database.db?.destroy()
    },
  }
}
