/**
 * The core scenarios, bundled and run inside the `edge-runtime` VM (no Node built-ins): every
 * `Auth()` call here runs on the JWE code's portable (jose) path. `run()` answers what happened,
 * for the test in Node to check.
 */
import { Auth } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Credentials from "../../src/providers/credentials.js"
import { StandInProvider } from "../../src/testing/stand-in.js"
import type { AuthConfig, Provider } from "../../src/types.js"
import { CookieJar, buildRequest, cookieNames, type RequestOptions } from "../helpers.js"

const origin = "https://edge.test"
const sessionCookieName = cookieNames.https.sessionToken

async function send(config: AuthConfig, jar: CookieJar, path: string, init: RequestOptions = {}): Promise<Response> {
  const url = path.startsWith("http") ? path : `${origin}/auth${path}`
  const response = await Auth(buildRequest(url, init, jar), config)
  jar.take(response)
  return response
}

async function csrf(config: AuthConfig, jar: CookieJar): Promise<string> {
  return ((await (await send(config, jar, "/csrf")).json()) as { csrfToken: string }).csrfToken
}

const sessionOf = async (config: AuthConfig, jar: CookieJar) => (await (await send(config, jar, "/session")).json()) as Record<string, any> | null

/** Runs every scenario; `sessionCookieFromNode` is a JWT session cookie Node's `Auth()` minted with `secret`. */
export async function run(secret: string, sessionCookieFromNode: string) {
  const runtime = { hasProcess: typeof (globalThis as { process?: unknown }).process !== "undefined", getBuiltinModule: typeof (globalThis as any).process?.getBuiltinModule }

  // Credentials with JWT sessions: sign in, read, update, sign out.
  const credentials: AuthConfig = {
    secret,
    trustHost: true,
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: (input) => (input.username === "ada" && input.password === "lovelace" ? { id: "1", name: "Ada", email: "ada@example.test" } : null),
      }),
    ],
    callbacks: { jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, name: (session as { name: string }).name } : token) },
  }
  const jar = new CookieJar()
  const wrong = await send(credentials, jar, "/callback/credentials", { form: { csrfToken: await csrf(credentials, jar), username: "ada", password: "nope" } })
  const signedIn = await send(credentials, jar, "/callback/credentials", { form: { csrfToken: await csrf(credentials, jar), username: "ada", password: "lovelace" } })
  const afterSignIn = await sessionOf(credentials, jar)
  const sessionCookie = jar.cookies.get(sessionCookieName) ?? null
  await send(credentials, jar, "/session", { json: { csrfToken: await csrf(credentials, jar), data: { name: "Ada L." } } })
  const afterUpdate = await sessionOf(credentials, jar)
  const signOut = await send(credentials, jar, "/signout", { form: { csrfToken: await csrf(credentials, jar) } })
  const afterSignOut = await sessionOf(credentials, jar)

  // A session minted by Node's Auth() (node:crypto path) reads here.
  const fromNode = new CookieJar()
  fromNode.cookies.set(sessionCookieName, sessionCookieFromNode)
  const nodeSession = await sessionOf(credentials, fromNode)

  // Email sign-in with the memory adapter and database sessions.
  const mail: string[] = []
  const email: AuthConfig = {
    secret,
    trustHost: true,
    adapter: MemoryAdapter(),
    providers: [{ id: "email", name: "Email", type: "email", sendVerificationRequest: ({ url }: { url: string }) => void mail.push(url) } as unknown as Provider],
  }
  const emailJar = new CookieJar()
  const requested = await send(email, emailJar, "/signin/email", { form: { csrfToken: await csrf(email, emailJar), email: "grace@example.test" } })
  const followed = await send(email, emailJar, mail[0] ?? `${origin}/auth/callback/email`)
  const emailSession = await sessionOf(email, emailJar)

  // OAuth (OpenID Connect) through the stand-in provider: sign-in, consent, callback.
  const op = new StandInProvider({ id: "op", type: "oidc", clientId: "edge", clientSecret: "edge-secret", claims: { name: "Linus", email: "linus@example.test" } })
  const errors: string[] = []
  const describeError = (error: unknown): string =>
    error instanceof Error ? `${error.name}: ${error.message}${error.cause ? ` <- ${describeError((error.cause as { err?: unknown }).err ?? error.cause)}` : ""}` : JSON.stringify(error)
  const oauth: AuthConfig = {
    secret,
    trustHost: true,
    logger: { error: (error: Error) => void errors.push(describeError(error)), warn() {}, debug() {} },
    providers: [op.install({ id: "op", name: "OP", type: "oidc", clientId: "edge", clientSecret: "edge-secret" }) as unknown as Provider],
  }
  const oauthJar = new CookieJar()
  const start = await send(oauth, oauthJar, "/signin/op", { form: { csrfToken: await csrf(oauth, oauthJar) } })
  const authorization = new URL(start.headers.get("location")!)
  const callback = new URL(authorization.searchParams.get("redirect_uri")!)
  callback.search = op.redirectBack(authorization).toString()
  const back = await send(oauth, oauthJar, callback.href)
  const oauthSession = await sessionOf(oauth, oauthJar)

  return {
    runtime,
    credentials: {
      wrong: { status: wrong.status, location: wrong.headers.get("location") },
      signedIn: { status: signedIn.status, location: signedIn.headers.get("location") },
      afterSignIn,
      sessionCookie,
      afterUpdate,
      signOut: { status: signOut.status },
      afterSignOut,
    },
    nodeSession,
    email: { requested: requested.status, mailed: mail.length, followed: followed.headers.get("location"), session: emailSession },
    oauth: { errors, start: start.status, back: { status: back.status, location: back.headers.get("location") }, session: oauthSession },
  }
}
