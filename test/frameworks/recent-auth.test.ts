/**
 * `requireRecentAuth` in every wrapper (and `recentAuth` of authflow/node): a signed-in user who
 * authenticated within `maxAge` goes on, with when and how; one who did not, or whose last
 * authentication passed no second factor when one is demanded, is redirected to `/step-up`, which
 * then answers as the browser needs (here: sign in again, as the user has no factor).
 */
import type { RequestEvent } from "@sveltejs/kit"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import NextAuth from "../../src/frameworks/next/index.js"
import SvelteKitAuth from "../../src/frameworks/sveltekit/index.js"
import { qwikRequireRecentAuth } from "../../src/frameworks/qwik/recent-auth.js"
import { setQwikEnvDefaults } from "../../src/frameworks/qwik/env.js"
import { requireRecentAuth as solidRequireRecentAuth } from "../../src/frameworks/solid-start/index.js"
import { recentAuth } from "../../src/frameworks/node.js"
import type { RecentAuthDemand } from "../../src/frameworks/shared/recent-auth.js"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/types.js"
import { buildRequest, CookieJar } from "../helpers.js"
import { factorSecret, factorWorld, signInAda } from "./factors-scenario.js"

const next = vi.hoisted(() => ({ headers: new Headers() }))
vi.mock("next/headers", () => ({ headers: async () => next.headers, cookies: async () => ({ set: () => {} }) }))
vi.mock("next/navigation", () => ({
  redirect: (url: string) => {
    throw Object.assign(new Error("NEXT_REDIRECT"), { location: url })
  },
}))

const origin = "http://app.test"
const page = `${origin}/settings/security`
const signedInAt = Date.parse("2026-03-01T10:00:00.000Z")

type Checked = { recent: true; authTime: Date; amr: string[] } | { redirectedTo: string }

/** A wrapper's `requireRecentAuth` as a page calls it, the redirect it throws caught as `{ redirectedTo }`. */
interface Wrapper {
  basePath: string
  check: (jar: CookieJar, demand: RecentAuthDemand) => Promise<Checked>
}

const caught = async (run: () => Promise<{ recent: true; authTime: Date; amr: string[] }>, locationOf: (thrown: unknown) => string | undefined): Promise<Checked> => {
  try {
    return await run()
  } catch (thrown) {
    const location = locationOf(thrown)
    if (location === undefined) throw thrown
    return { redirectedTo: location }
  }
}

function wrappers(config: Omit<AuthConfig, "raw">): Record<string, Wrapper> {
  const svelteKit = SvelteKitAuth(config, { env: { AUTH_SECRET: factorSecret, AUTH_TRUST_HOST: "true" } })
  const nextAuth = NextAuth({ ...config, basePath: "/api/auth" })
  const qwik = qwikRequireRecentAuth(async (event) => {
    const copy = { ...config }
    setQwikEnvDefaults(event.env, copy)
    return copy
  })
  return {
    "Next.js": {
      basePath: "/api/auth",
      check: (jar, demand) => {
        next.headers = new Headers({ host: "app.test", "x-forwarded-proto": "http", cookie: jar.header() })
        return caught(() => nextAuth.requireRecentAuth({ ...demand, callbackUrl: demand.callbackUrl ?? page }), (thrown) => (thrown as { location?: string }).location)
      },
    },
    SvelteKit: {
      basePath: "/auth",
      check: (jar, demand) => {
        const event = { request: buildRequest(page, {}, jar), url: new URL(page), cookies: { set: () => {} }, locals: {}, getClientAddress: () => "203.0.113.9" } as unknown as RequestEvent
        return caught(() => svelteKit.requireRecentAuth(event, demand), (thrown) => (thrown as { location?: string; status?: number }).status === 303 ? (thrown as { location: string }).location : undefined)
      },
    },
    Qwik: {
      basePath: "/auth",
      check: (jar, demand) => {
        const event = {
          url: new URL(page),
          request: buildRequest(page, {}, jar),
          env: { get: (name: string) => ({ AUTH_SECRET: factorSecret, AUTH_TRUST_HOST: "true" })[name] },
          redirect: (status: number, location: string) => ({ status, location }),
        } as unknown as RequestEventCommon
        return caught(() => qwik(event, demand), (thrown) => (thrown as { location?: string }).location)
      },
    },
    SolidStart: {
      basePath: "/api/auth",
      check: (jar, demand) => caught(() => solidRequireRecentAuth(buildRequest(page, {}, jar), config, demand), (thrown) => (thrown instanceof Response ? thrown.headers.get("location") ?? undefined : undefined)),
    },
    "authflow/node": {
      basePath: "/auth",
      check: async (jar, demand) => {
        const result = await recentAuth(buildRequest(page, {}, jar), config, demand)
        return result.recent ? result : { redirectedTo: result.redirectTo }
      },
    },
  }
}

const stepUpUrl = (basePath: string, query: Record<string, string>) => `${origin}${basePath}/step-up?${new URLSearchParams(query)}`

beforeEach(() => {
  for (const name of ["AUTH_URL", "NEXTAUTH_URL", "AUTH_SECRET", "AUTH_TRUST_HOST"]) vi.stubEnv(name, undefined)
  vi.useFakeTimers({ toFake: ["Date"], now: signedInAt })
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllEnvs()
})

describe.each(["Next.js", "SvelteKit", "Qwik", "SolidStart", "authflow/node"])("requireRecentAuth in %s", (name) => {
  it("goes on after a recent sign-in, and redirects to the step-up once it is older or a second factor is demanded", async () => {
    const { config } = await factorWorld("jwt")
    const wrapper = wrappers(config)[name]!
    const jar = new CookieJar()
    expect(await wrapper.check(jar, { maxAge: 300 })).toEqual({ redirectedTo: stepUpUrl(wrapper.basePath, { maxAge: "300", factor: "any", callbackUrl: page }) })

    await signInAda(config, jar, origin, wrapper.basePath)
    expect(await wrapper.check(jar, { maxAge: 300 })).toEqual({ recent: true, authTime: new Date(signedInAt), amr: ["pwd"] })
    expect(await wrapper.check(jar, { maxAge: 300, factor: "second", callbackUrl: "/vault" })).toEqual({ redirectedTo: stepUpUrl(wrapper.basePath, { maxAge: "300", factor: "second", callbackUrl: "/vault" }) })

    vi.setSystemTime(signedInAt + 10 * 60_000)
    const older = await wrapper.check(jar, { maxAge: 300 })
    expect(older).toEqual({ redirectedTo: stepUpUrl(wrapper.basePath, { maxAge: "300", factor: "any", callbackUrl: page }) })

    // The browser follows: Ada has no second factor, so the step-up asks her to sign in again, and back.
    const followed = await Auth(buildRequest((older as { redirectedTo: string }).redirectedTo, {}, jar), { ...config, basePath: wrapper.basePath })
    expect(followed.headers.get("location")).toBe(`${origin}${wrapper.basePath}/signin?${new URLSearchParams({ callbackUrl: page })}`)
    await signInAda(config, jar, origin, wrapper.basePath)
    expect(await wrapper.check(jar, { maxAge: 300 })).toMatchObject({ recent: true, authTime: new Date(signedInAt + 10 * 60_000) })
  })
})

describe("requireRecentAuth refuses a demand it cannot read", () => {
  it("a maxAge that is not whole seconds is an AuthError that says how to write it", async () => {
    const { config } = await factorWorld("jwt")
    const jar = new CookieJar()
    await signInAda(config, jar, origin, "/auth")
    await expect(recentAuth(buildRequest(page, {}, jar), config, { maxAge: 1.5 })).rejects.toThrow('/step-up takes maxAge in whole seconds, such as /step-up?maxAge=300 (got "1.5")')
  })

  it("without secondFactor in the configuration, the error says to set it", async () => {
    const { config } = await factorWorld("jwt")
    const { secondFactor: _off, ...withoutSecondFactor } = config
    await expect(recentAuth(buildRequest(page, {}, new CookieJar()), withoutSecondFactor, { maxAge: 300 })).rejects.toThrow("Second factors are off: set `secondFactor` in the configuration to step up at /step-up")
  })
})
