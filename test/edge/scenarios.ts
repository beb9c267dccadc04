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

const origin = "https://edge.test"

/** A browser's cookies across requests. */
class Jar {
  readonly cookies = new Map<string, string>()
  take(response: Response): Response {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(";")
      const name = pair!.slice(0, pair!.indexOf("="))
      const value = pair!.slice(pair!.indexOf("=") + 1)
      if (value === "" || attributes.some((a) => a.trim().toLowerCase() === "max-age=0")) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return response
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ")
  }
}

async function send(config: AuthConfig, jar: Jar, path: string, form?: Record<string, string>): Promise<Response> {
  const headers = new Headers({ cookie: jar.header() })
  if (form) headers.set("content-type", "application/x-www-form-urlencoded")
  const url = path.startsWith("http") ? path : `${origin}/auth${path}`
  const request = new Request(url, { method: form ? "POST" : "GET", headers, body: form ? new URLSearchParams(form) : undefined })
  return jar.take(await Auth(request, config))
}

async function csrf(config: AuthConfig, jar: Jar): Promise<string> {
  return ((await (await send(config, jar, "/csrf")).json()) as { csrfToken: string }).csrfToken
}

const sessionOf = async (config: AuthConfig, jar: Jar) => (await (await send(config, jar, "/session")).json()) as Record<string, any> | null

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
  const jar = new Jar()
  const wrong = await send(credentials, jar, "/callback/credentials", { csrfToken: await csrf(credentials, jar), username: "ada", password: "nope" })
  const signedIn = await send(credentials, jar, "/callback/credentials", { csrfToken: await csrf(credentials, jar), username: "ada", password: "lovelace" })
  const afterSignIn = await sessionOf(credentials, jar)
  const sessionCookie = jar.cookies.get("__Secure-authjs.session-token") ?? null
  const updateResponse = await Auth(
    new Request(`${origin}/auth/session`, {
      method: "POST",
      headers: { cookie: jar.header(), "content-type": "application/json" },
      body: JSON.stringify({ csrfToken: await csrf(credentials, jar), data: { name: "Ada L." } }),
    }),
    credentials,
  )
  jar.take(updateResponse)
  const afterUpdate = await sessionOf(credentials, jar)
  const signOut = await send(credentials, jar, "/signout", { csrfToken: await csrf(credentials, jar) })
  const afterSignOut = await sessionOf(credentials, jar)

  // A session minted by Node's Auth() (node:crypto path) reads here.
  const fromNode = new Jar()
  fromNode.cookies.set("__Secure-authjs.session-token", sessionCookieFromNode)
  const nodeSession = await sessionOf(credentials, fromNode)

  // Email sign-in with the memory adapter and database sessions.
  const mail: string[] = []
  const email: AuthConfig = {
    secret,
    trustHost: true,
    adapter: MemoryAdapter(),
    providers: [{ id: "email", name: "Email", type: "email", sendVerificationRequest: ({ url }: { url: string }) => void mail.push(url) } as unknown as Provider],
  }
  const emailJar = new Jar()
  const requested = await send(email, emailJar, "/signin/email", { csrfToken: await csrf(email, emailJar), email: "grace@example.test" })
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
  const oauthJar = new Jar()
  const start = await send(oauth, oauthJar, "/signin/op", { csrfToken: await csrf(oauth, oauthJar) })
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
