/**
 * The second-factor functions of `NextAuth()` as Server Actions call them: `next/headers` is a
 * stand-in holding the incoming request's headers (made from the browser's jar before each call)
 * and a cookie store whose writes go back into that jar.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import NextAuth from "../../src/frameworks/next/index.js"
import type { Cookie } from "../../src/types.js"
import { CookieJar } from "../helpers.js"
import { enrolAndManage, factorWorld, keep, signInAda } from "./factors-scenario.js"

const next = vi.hoisted(() => ({
  headers: new Headers(),
  /** Where the cookie store writes; `undefined` is a Server Component, where Next.js refuses writes. */
  write: undefined as ((cookie: { name: string; value: string; options: Record<string, unknown> }) => void) | undefined,
}))

vi.mock("next/headers", () => ({
  headers: async () => next.headers,
  cookies: async () => ({
    set(name: string, value: string, options: Record<string, unknown> = {}) {
      if (!next.write) throw new Error("Cookies can only be modified in a Server Action or Route Handler.")
      next.write({ name, value, options })
    },
  }),
}))

const origin = "http://app.test"

/** The browser `jar` calls a Server Action: its cookies are the request's, the action's writes reach it. */
function serverActionOf(jar: CookieJar): void {
  next.headers = new Headers({ host: "app.test", "x-forwarded-proto": "http", referer: `${origin}/account` })
  if (jar.cookies.size) next.headers.set("cookie", jar.header())
  next.write = (cookie) => keep(jar, [cookie as Cookie])
}

beforeEach(() => {
  for (const name of ["AUTH_URL", "NEXTAUTH_URL", "AUTH_SECRET", "AUTH_TRUST_HOST"]) vi.stubEnv(name, undefined)
})
afterEach(() => {
  vi.unstubAllEnvs()
})

describe("NextAuth() second factors", () => {
  it.each(["jwt", "database"] as const)("enrol, confirm, list, rename, regenerate and remove from Server Actions (%s sessions)", async (strategy) => {
    const { adapter, config } = await factorWorld(strategy)
    const auth = NextAuth(config)
    const jar = new CookieJar()
    const inAction = <A extends unknown[], R>(run: (...args: A) => Promise<R>) => (...args: A) => (serverActionOf(jar), run(...args))
    const factors = {
      listFactors: inAction(auth.listFactors),
      enrolAuthenticatorApp: inAction(auth.enrolAuthenticatorApp),
      confirmAuthenticatorApp: inAction(auth.confirmAuthenticatorApp),
      renameFactor: inAction(auth.renameFactor),
      removeFactor: inAction(auth.removeFactor),
      regenerateBackupCodes: inAction(auth.regenerateBackupCodes),
    }
    await enrolAndManage(factors, jar, () => signInAda(config, jar, origin, "/api/auth"), adapter)
  })

  it("lists in a Server Component, where cookies cannot be written; enrolling there fails as Next.js says", async () => {
    const { config } = await factorWorld()
    const { listFactors, enrolAuthenticatorApp } = NextAuth(config)
    const jar = new CookieJar()
    await signInAda(config, jar, origin, "/api/auth")
    for (const name of [...jar.cookies.keys()]) if (name.endsWith("callback-url")) jar.cookies.delete(name)
    serverActionOf(jar)
    next.write = undefined
    expect(await listFactors()).toEqual({ ok: true, error: undefined, status: 200, factors: [], backupCodes: 0 })
    await expect(enrolAuthenticatorApp()).rejects.toThrow("Cookies can only be modified in a Server Action or Route Handler.")
  })

  it("throws the configuration error when second factors are off, instead of a refusal", async () => {
    const { config } = await factorWorld()
    const { listFactors } = NextAuth({ ...config, secondFactor: false, logger: { error: () => {} } })
    serverActionOf(new CookieJar())
    await expect(listFactors()).rejects.toMatchObject({ type: "UnknownAction" })
  })
})
