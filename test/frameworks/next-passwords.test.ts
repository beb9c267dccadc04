/**
 * The password functions of `NextAuth()` as Server Actions call them: `next/headers` is a stand-in
 * holding the incoming request's headers (made from the browser's jar before each call) and a
 * cookie store whose writes go back into that jar.
 */
import { afterEach, beforeEach, describe, it, vi } from "vitest"
import NextAuth from "../../src/frameworks/next/index.js"
import type { ServerPasswords } from "../../src/frameworks/shared/passwords.js"
import type { Cookie } from "../../src/types.js"
import { CookieJar } from "../helpers.js"
import { keep } from "./factors-scenario.js"
import { changeAndReset, passwordWorld } from "./passwords-scenario.js"

const next = vi.hoisted(() => ({
  headers: new Headers(),
  write: undefined as ((cookie: { name: string; value: string; options: Record<string, unknown> }) => void) | undefined,
}))

vi.mock("next/headers", () => ({
  headers: async () => next.headers,
  cookies: async () => ({ set: (name: string, value: string, options: Record<string, unknown> = {}) => next.write!({ name, value, options }) }),
}))

const origin = "http://app.test"

beforeEach(() => {
  for (const name of ["AUTH_URL", "NEXTAUTH_URL", "AUTH_SECRET", "AUTH_TRUST_HOST"]) vi.stubEnv(name, undefined)
})
afterEach(() => void vi.unstubAllEnvs())

describe("NextAuth() password functions", () => {
  it.each(["jwt", "database"] as const)("change the password and the address, ask for and use a reset link from Server Actions (%s sessions)", async (strategy) => {
    const { config, mails } = passwordWorld(strategy)
    const auth = NextAuth(config)
    const jar = new CookieJar()
    /** The browser `jar` calls a Server Action: its cookies are the request's, the action's writes reach it. */
    const inAction = <A extends unknown[], R>(run: (...args: A) => Promise<R>) => (...args: A) => {
      next.headers = new Headers({ host: "app.test", "x-forwarded-proto": "http", referer: `${origin}/account` })
      if (jar.cookies.size) next.headers.set("cookie", jar.header())
      next.write = (cookie) => keep(jar, [cookie as Cookie])
      return run(...args)
    }
    const passwords: ServerPasswords = {
      changePassword: inAction(auth.changePassword),
      changeEmail: inAction(auth.changeEmail),
      requestPasswordReset: inAction(auth.requestPasswordReset),
      resetPassword: inAction(auth.resetPassword),
    }
    await changeAndReset(passwords, jar, config, mails, origin, "/api/auth")
  })
})
