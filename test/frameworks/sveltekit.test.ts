/**
 * `authflow/sveltekit` without a SvelteKit server: `handle`, `locals.auth()`, the `signIn` and
 * `signOut` form actions and the environment rules, on hand-built request events. `redirect()`
 * is the real one of `@sveltejs/kit` (it throws a `Redirect`).
 */
import { isRedirect, type RequestEvent } from "@sveltejs/kit"
import { describe, expect, it } from "vitest"
import { CredentialsSignin } from "../../src/core/errors.js"
import { skipCSRFCheck } from "../../src/core/symbols.js"
import SvelteKitAuth, { setSvelteKitEnvDefaults, type SvelteKitAuthConfig } from "../../src/frameworks/sveltekit/index.js"
import GitHub from "../../src/providers/github.js"
import { adaCredentials, buildRequest, CookieJar, cookieNames } from "../helpers.js"

const secret = "sveltekit-unit-test-secret-sveltekit-unit-test"
const env = { AUTH_SECRET: secret, AUTH_TRUST_HOST: "true" }
/** The session cookie on http://app.test. */
const sessionCookie = cookieNames.http.sessionToken

function config(): SvelteKitAuthConfig {
  return {
    providers: [
      adaCredentials(),
      GitHub({ clientId: "gh-id", clientSecret: "gh-secret" }),
    ],
  }
}

/** A browser whose jar is fed by `event.cookies.set` (SvelteKit's cookie API) instead of `Set-Cookie`. */
class Browser {
  readonly jar = new CookieJar()
  readonly sets: { name: string; value: string; options: Record<string, unknown> }[] = []
  /** A request event for `url`, with this browser's cookies; a form posts its fields. */
  event(url: string, form?: Record<string, string>, headers: Record<string, string> = {}): RequestEvent {
    const request = buildRequest(url, { ...(form && { form }), headers }, this.jar)
    const cookies = {
      set: (name: string, value: string, options: Record<string, unknown>) => {
        this.sets.push({ name, value, options })
        if (options.maxAge === 0 || value === "") this.jar.cookies.delete(name)
        else this.jar.cookies.set(name, encodeURIComponent(value))
      },
      get: (name: string) => this.jar.get(name),
    }
    return { request, url: new URL(url), cookies, locals: {} } as unknown as RequestEvent
  }
}

/** Runs a form action and returns the redirect it threw (or fails). */
async function redirectOf(run: unknown): Promise<{ status: number; location: string }> {
  try {
    await run
  } catch (error) {
    if (isRedirect(error)) return { status: error.status, location: error.location }
    throw error
  }
  throw new Error("expected a redirect")
}

const resolve = async () => new Response("page")

describe("setSvelteKitEnvDefaults", () => {
  it("forces basePath <base>/auth and skipCSRFCheck, and reads the secret", () => {
    const c: SvelteKitAuthConfig = { ...config(), basePath: "/api/auth" }
    setSvelteKitEnvDefaults({ AUTH_SECRET: "s3cret" }, c, { base: "/app" })
    expect(c.basePath).toBe("/app/auth")
    expect(c.skipCSRFCheck).toBe(skipCSRFCheck)
    expect(c.secret).toEqual(["s3cret"])
    const plain = config()
    setSvelteKitEnvDefaults({}, plain)
    expect(plain.basePath).toBe("/auth")
  })

  it("trusts the host in development; in production it follows AUTH_TRUST_HOST / AUTH_URL", () => {
    const dev = config()
    setSvelteKitEnvDefaults({ NODE_ENV: "production" }, dev, { dev: true })
    expect(dev.trustHost).toBe(true)
    const prod = config()
    setSvelteKitEnvDefaults({ NODE_ENV: "production" }, prod)
    expect(prod.trustHost).toBe(false)
    const trusted = config()
    setSvelteKitEnvDefaults({ NODE_ENV: "production", AUTH_TRUST_HOST: "true" }, trusted)
    expect(trusted.trustHost).toBe(true)
    const explicit: SvelteKitAuthConfig = { ...config(), trustHost: false }
    setSvelteKitEnvDefaults({}, explicit, { dev: true })
    expect(explicit.trustHost).toBe(false)
  })
})

describe("handle", () => {
  it("answers <basePath>/<action> with authflow and resolves everything else", async () => {
    const { handle } = SvelteKitAuth(config(), { env, base: "/app" })
    const browser = new Browser()
    const providers = await handle({ event: browser.event("http://app.test/app/auth/providers"), resolve })
    expect(await providers.json()).toMatchObject({ credentials: { signinUrl: "http://app.test/app/auth/signin/credentials" } })
    for (const path of ["/app/auth/nope", "/app/authx/session", "/auth/session", "/app/protected"]) {
      const answer = await handle({ event: browser.event(`http://app.test${path}`), resolve })
      expect(await answer.text(), path).toBe("page")
    }
  })

  it("gives locals.auth() and its alias getSession(), null without a session", async () => {
    const { handle } = SvelteKitAuth(config(), { env })
    const event = new Browser().event("http://app.test/")
    await handle({ event, resolve })
    expect(await event.locals.auth()).toBeNull()
    expect(event.locals.getSession).toBe(event.locals.auth)
  })

  it("calls a lazy configuration with the event, and completes each returned object once", async () => {
    const seen: string[] = []
    const shared = config()
    const { handle } = SvelteKitAuth((event) => (seen.push(event.url.pathname), shared), { env })
    await handle({ event: new Browser().event("http://app.test/auth/session"), resolve })
    await handle({ event: new Browser().event("http://app.test/x"), resolve })
    expect(seen).toEqual(["/auth/session", "/x"])
    expect(shared.basePath).toBe("/auth")
    expect(shared.secret).toEqual([secret])
  })
})

describe("signIn and signOut form actions", () => {
  it("signs in with credentials: cookies through event.cookies (path /), 302 to redirectTo, then locals.auth() sees the session", async () => {
    const { handle, signIn } = SvelteKitAuth(config(), { env })
    const browser = new Browser()
    const form = { providerId: "credentials", redirectTo: "/protected", username: "ada", password: "lovelace" }
    expect(await redirectOf(signIn(browser.event("http://app.test/signin", form)))).toEqual({ status: 302, location: "http://app.test/protected" })
    const session = browser.sets.find((s) => s.name === sessionCookie)
    expect(session?.options).toMatchObject({ path: "/", httpOnly: true, sameSite: "lax" })

    const event = browser.event("http://app.test/protected")
    await handle({ event, resolve })
    expect(await event.locals.auth()).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.test" } })
    // The session read refreshes the cookie, through event.cookies as well.
    expect(browser.sets.filter((s) => s.name === sessionCookie).length).toBeGreaterThan(1)
  })

  it("throws CredentialsSignin for a wrong password, and sets no session cookie", async () => {
    const errors: unknown[] = []
    const { signIn } = SvelteKitAuth({ ...config(), logger: { error: (error) => void errors.push(error) } }, { env })
    const browser = new Browser()
    const form = { providerId: "credentials", username: "ada", password: "wrong" }
    await expect(signIn(browser.event("http://app.test/signin", form))).rejects.toBeInstanceOf(CredentialsSignin)
    expect(browser.jar.cookies.has(sessionCookie)).toBe(false)
    expect(errors).toHaveLength(1)
  })

  it("with redirect=false returns { url } instead of redirecting", async () => {
    const { signIn } = SvelteKitAuth(config(), { env })
    const form = { providerId: "credentials", redirectTo: "/next", redirect: "false", username: "ada", password: "lovelace" }
    expect(await signIn(new Browser().event("http://app.test/signin", form))).toEqual({ url: "http://app.test/next" })
  })

  it("without a known provider redirects to the sign-in page with callbackUrl (the Referer by default)", async () => {
    const { signIn } = SvelteKitAuth(config(), { env })
    const event = new Browser().event("http://app.test/signin", { providerId: "nope" }, { referer: "http://app.test/from" })
    const { location } = await redirectOf(signIn(event))
    const url = new URL(location)
    expect(url.pathname).toBe("/auth/signin")
    expect(url.searchParams.get("callbackUrl")).toBe("http://app.test/from")
  })

  it("starts an OAuth sign-in with the authorizationParams-<key> fields in the authorization URL", async () => {
    const { signIn } = SvelteKitAuth(config(), { env })
    const browser = new Browser()
    const form = { providerId: "github", redirectTo: "/", "authorizationParams-prompt": "consent", "authorizationParams-login": "ada" }
    const { location } = await redirectOf(signIn(browser.event("http://app.test/signin", form)))
    const url = new URL(location)
    expect(url.origin).toBe("https://github.com")
    expect(url.searchParams.get("client_id")).toBe("gh-id")
    expect(url.searchParams.get("prompt")).toBe("consent")
    expect(url.searchParams.get("login")).toBe("ada")
    expect(url.searchParams.get("redirect_uri")).toBe("http://app.test/auth/callback/github")
  })

  it("signs out: clears the session cookie and redirects to redirectTo", async () => {
    const { handle, signIn, signOut } = SvelteKitAuth(config(), { env })
    const browser = new Browser()
    await redirectOf(signIn(browser.event("http://app.test/signin", { providerId: "credentials", username: "ada", password: "lovelace" })))
    expect(browser.jar.cookies.has(sessionCookie)).toBe(true)
    expect(await redirectOf(signOut(browser.event("http://app.test/signout", { redirectTo: "/bye" })))).toEqual({ status: 302, location: "http://app.test/bye" })
    expect(browser.jar.cookies.has(sessionCookie)).toBe(false)
    const event = browser.event("http://app.test/")
    await handle({ event, resolve })
    expect(await event.locals.auth()).toBeNull()
  })

  it("uses AUTH_URL's origin for internal requests when it is set", async () => {
    const { signIn } = SvelteKitAuth(config(), { env: { ...env, AUTH_URL: "https://public.example" } })
    const form = { providerId: "credentials", redirectTo: "/protected", redirect: "false", username: "ada", password: "lovelace" }
    expect(await signIn(new Browser().event("http://10.0.0.5:3000/signin", form))).toEqual({ url: "https://public.example/protected" })
  })
})
