/**
 * `listAccounts` and `switchAccount` of the four wrappers (`multiSession` on), on hand-built
 * requests whose cookie writes go back into the browser's jar: the shared helper
 * (src/frameworks/shared/accounts.ts) through each framework's way of reading the request and
 * writing cookies.
 */
import type { RequestEvent } from "@sveltejs/kit"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import NextAuth from "../../src/frameworks/next/index.js"
import SvelteKitAuth from "../../src/frameworks/sveltekit/index.js"
import { listAccounts as solidList, switchAccount as solidSwitch, type FactorEvent } from "../../src/frameworks/solid-start/index.js"
import { listAccounts as qwikList, switchAccount as qwikSwitch } from "../../src/frameworks/qwik/accounts.js"
import type { Accounts, SwitchAccountResult } from "../../src/frameworks/shared/accounts.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Password from "../../src/providers/password.js"
import type { AuthConfig, Cookie } from "../../src/types.js"
import { buildRequest, CookieJar } from "../helpers.js"
import { keep } from "./factors-scenario.js"

const origin = "http://app.test"
const secret = "framework-accounts-secret-0123456789abcdef"
const password = "correct horse battery"

const next = vi.hoisted(() => ({ headers: new Headers(), write: undefined as ((cookie: { name: string; value: string; options: Record<string, unknown> }) => void) | undefined }))
vi.mock("next/headers", () => ({
  headers: async () => next.headers,
  cookies: async () => ({ set: (name: string, value: string, options: Record<string, unknown> = {}) => next.write!({ name, value, options }) }),
}))

beforeEach(() => {
  for (const name of ["AUTH_URL", "NEXTAUTH_URL", "AUTH_SECRET", "AUTH_TRUST_HOST"]) vi.stubEnv(name, undefined)
})
afterEach(() => void vi.unstubAllEnvs())

/** A browser with a and b signed in (b active) at `<origin><basePath>`. */
async function browser(basePath: string) {
  const config = { secret, trustHost: true, adapter: MemoryAdapter(), multiSession: true, providers: [Password({ hashing: { scrypt: { ln: 10 } } })] } satisfies AuthConfig
  const at = { ...config, basePath }
  const jar = new CookieJar()
  const call = async (path: string, form?: Record<string, string>) => {
    const response = await Auth(buildRequest(`${origin}${basePath}${path}`, form ? { form } : {}, jar), at)
    jar.take(response)
    return response
  }
  const csrf = async () => ((await (await call("/csrf")).json()) as { csrfToken: string }).csrfToken
  // Each sign-up signs its account in; b's keeps a beside it.
  await call("/signup/password", { csrfToken: await csrf(), email: "a@example.test", password })
  await call("/signin?addAccount=1")
  await call("/signup/password", { csrfToken: await csrf(), email: "b@example.test", password })
  const emails = async (list: () => Promise<Accounts>) => {
    const { active, others } = await list()
    return [active?.user?.email, ...others.map((other) => other.user?.email)]
  }
  return { config, jar, emails }
}

/** The walk every wrapper takes: list, switch to a, refuse an unknown account. */
async function walk(jar: CookieJar, emails: (list: () => Promise<Accounts>) => Promise<unknown[]>, list: () => Promise<Accounts>, switchTo: (id: string) => Promise<SwitchAccountResult>) {
  expect(await emails(list)).toEqual(["b@example.test", "a@example.test"])
  const a = (await list()).others[0]!
  expect(await switchTo(a.id)).toMatchObject({ ok: true, session: { user: { email: "a@example.test" } } })
  expect(await emails(list)).toEqual(["a@example.test", "b@example.test"])
  expect(await switchTo("nobody")).toEqual({ ok: false, error: "AccountNotFound", status: 404 })
  expect(jar.cookies.size).toBeGreaterThan(0)
}

describe("the wrappers' account functions", () => {
  it("NextAuth(): listAccounts and switchAccount in Server Actions", async () => {
    const { config, jar, emails } = await browser("/api/auth")
    const auth = NextAuth(config)
    const inAction = <A extends unknown[], R>(run: (...args: A) => Promise<R>) => (...args: A) => {
      next.headers = new Headers({ host: "app.test", "x-forwarded-proto": "http", cookie: jar.header() })
      next.write = (cookie) => keep(jar, [cookie as Cookie])
      return run(...args)
    }
    await walk(jar, emails, inAction(auth.listAccounts), inAction(auth.switchAccount))
    // In a Server Component, where Next.js refuses cookie writes, the listing still answers.
    next.headers = new Headers({ host: "app.test", "x-forwarded-proto": "http", cookie: jar.header() })
    next.write = () => {
      throw new Error("Cookies can only be modified in a Server Action or Route Handler.")
    }
    expect(await emails(auth.listAccounts)).toEqual(["a@example.test", "b@example.test"])
    await expect(auth.switchAccount((await auth.listAccounts()).others[0]!.id)).rejects.toThrow("Cookies can only be modified")
  })

  it("SvelteKitAuth(): listAccounts for a load, switchAccount for a form action", async () => {
    const { config, jar, emails } = await browser("/auth")
    const auth = SvelteKitAuth(config, { env: { AUTH_SECRET: secret, AUTH_TRUST_HOST: "true" } })
    const eventOf = (form?: Record<string, string>): RequestEvent => {
      const url = `${origin}/account`
      const request = buildRequest(url, form ? { form } : {}, jar)
      const cookies = { set: (name: string, value: string, options: Cookie["options"]) => keep(jar, [{ name, value, options }]) }
      return { request, url: new URL(url), cookies, locals: {}, getClientAddress: () => "203.0.113.9" } as unknown as RequestEvent
    }
    await walk(jar, emails, () => auth.listAccounts(eventOf()), (id) => auth.switchAccount(eventOf({ account: id })))
  })

  it("SolidStart: listAccounts and switchAccount from server functions, refusing a cross-site switch", async () => {
    const { config, jar, emails } = await browser("/api/auth")
    const fromBrowser = async <R>(call: (event: FactorEvent) => Promise<R>, headers: Record<string, string> = { origin }): Promise<R> => {
      const event: FactorEvent = { request: buildRequest(`${origin}/_server`, { method: "POST", headers }, jar), response: { headers: new Headers() }, clientAddress: "203.0.113.9" }
      const result = await call(event)
      jar.take(new Response(null, { headers: event.response.headers }))
      return result
    }
    await walk(jar, emails, () => fromBrowser((event) => solidList(event, config)), (id) => fromBrowser((event) => solidSwitch(event, config, id)))
    const b = (await fromBrowser((event) => solidList(event, config))).others[0]!
    expect(await fromBrowser((event) => solidSwitch(event, config, b.id), { origin: "https://evil.test" })).toEqual({ ok: false, error: "MissingCSRF", status: 403 })
  })

  it("Qwik: listAccounts and switchAccount in a routeLoader$ and a routeAction$", async () => {
    const { config, jar, emails } = await browser("/auth")
    const eventOf = (): RequestEventCommon => {
      const url = new URL(`${origin}/account/`)
      const request = buildRequest(url, { method: "POST", headers: { origin } }, jar)
      const cookie = { set: (name: string, value: string, options: object) => keep(jar, [{ name, value: decodeURIComponent(value), options }]) }
      return { url, request, cookie, env: { get: (name: string) => ({ AUTH_SECRET: secret, AUTH_TRUST_HOST: "true" })[name] }, clientConn: { ip: "203.0.113.9" } } as unknown as RequestEventCommon
    }
    await walk(jar, emails, () => qwikList(eventOf(), config), (id) => qwikSwitch(eventOf(), config, id))
  })
})
