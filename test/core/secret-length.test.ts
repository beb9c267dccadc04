/**
 * Issue 20, item 13: a one-character `AUTH_SECRET` was accepted, even in production. Outside
 * development and test every secret (each one of a rotation array) must have at least 32
 * characters: a shorter one is a configuration error whose one-line message says how to fix it.
 * In development it is a warning, logged once per configuration.
 */
import { randomBytes } from "node:crypto"
import { afterEach, describe, expect, it, vi } from "vitest"
import { CookieJar, recordingLogger, send } from "../helpers.js"
import { AuthError } from "../../src/core/errors.js"
import { runtimeMode } from "../../src/core/env.js"
import { getSession } from "../../src/frameworks/node.js"
import Credentials from "../../src/providers/credentials.js"
import type { AuthConfig } from "../../src/types.js"

const env = process.env as Record<string, string | undefined>
const environment = env.NODE_ENV
afterEach(() => {
  if (environment === undefined) delete env.NODE_ENV
  else env.NODE_ENV = environment
})

function setNodeEnv(value: string | undefined): void {
  if (value === undefined) delete env.NODE_ENV
  else env.NODE_ENV = value
}

/** What `npx authflow secret` prints: 33 random bytes, base64. */
const generated = () => randomBytes(33).toString("base64")

function app(secret: AuthConfig["secret"]) {
  const log = recordingLogger()
  const config: AuthConfig = { secret, trustHost: true, logger: log.logger, providers: [Credentials({ credentials: { username: {} }, authorize: () => null })] }
  return { config, ...log }
}

const serverMessage = { message: "There was a problem with the server configuration. Check the server logs for more information." }

describe("in production a short secret is a configuration error", () => {
  it("a one-character secret: every route answers 500, the log has WeakSecret with the one-line fix", async () => {
    setNodeEnv("production")
    const { config, errors } = app("x")
    for (const path of ["/session", "/csrf", "/providers"]) {
      const response = await send(config, new CookieJar(), path)
      expect(response.status, path).toBe(500)
      expect(await response.json()).toEqual(serverMessage)
    }
    expect(errors.map((error) => (error as AuthError).type)).toEqual(["WeakSecret", "WeakSecret", "WeakSecret"])
    const [error] = errors
    expect(error).toBeInstanceOf(AuthError)
    expect(error!.message).not.toContain("\n")
    expect(error!.message).toBe(
      'Secret too short: the secret has 1 character, and outside development every secret needs at least 32 (NODE_ENV is "production"): generate one with `npx authflow secret`',
    )
  })

  it("the rule is 32 characters: 31 is refused, 32 and a generated secret are accepted", async () => {
    setNodeEnv("production")
    expect((await send(app("a".repeat(31)).config, new CookieJar(), "/session")).status).toBe(500)
    expect((await send(app("a".repeat(32)).config, new CookieJar(), "/session")).status).toBe(200)
    const fresh = app(generated())
    expect((await send(fresh.config, new CookieJar(), "/session")).status).toBe(200)
    expect([fresh.errors, fresh.warnings]).toEqual([[], []])
  })

  it("every secret of a rotation array counts; the message names the short one and never shows it", async () => {
    setNodeEnv("production")
    const rotated = app([generated(), "old-secret"])
    expect((await send(rotated.config, new CookieJar(), "/session")).status).toBe(500)
    expect(rotated.errors[0]!.message).toMatch(/^Secret too short: secret\[1\] has 10 characters, .*`npx authflow secret`$/)
    expect(rotated.errors[0]!.message).not.toContain("old-secret")
    const empty = app([generated(), ""])
    expect((await send(empty.config, new CookieJar(), "/session")).status).toBe(500)
    expect(empty.errors[0]!.message).toMatch(/^Secret too short: secret\[1\] has 0 characters/)
    expect((await send(app([generated(), generated()]).config, new CookieJar(), "/session")).status).toBe(200)
  })

  it("production is anything but development and test: unset, Production, prod, staging all refuse", async () => {
    for (const value of [undefined, "Production", "prod", "staging", ""]) {
      setNodeEnv(value)
      const { config, errors } = app("short")
      expect((await send(config, new CookieJar(), "/session")).status, String(value)).toBe(500)
      expect((errors[0] as AuthError).type).toBe("WeakSecret")
    }
  })

  it("getSession (authflow/node) throws it, so the app sees it rather than a signed-out user", async () => {
    setNodeEnv("production")
    const { config } = app("short")
    const error = await getSession(new Request("https://app.test/"), { ...config, logger: { error: () => {} } }).catch((caught: unknown) => caught)
    expect((error as AuthError).type).toBe("WeakSecret")
    expect((error as Error).message).toContain("npx authflow secret")
  })
})

describe("outside production", () => {
  it("development: served, with one weak-secret warning per configuration, not one per request", async () => {
    setNodeEnv("development")
    const { config, errors, warnings } = app("short")
    for (let i = 0; i < 3; i++) expect((await send(config, new CookieJar(), "/session")).status).toBe(200)
    expect(warnings).toEqual(["weak-secret"])
    expect(errors).toEqual([])
    const rotated = app([generated(), "old"])
    await send(rotated.config, new CookieJar(), "/session")
    expect(rotated.warnings).toEqual(["weak-secret"])
  })

  it("development with the built-in logger: the warning says the rule and the fix, once", async () => {
    setNodeEnv("development")
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    try {
      const config: AuthConfig = { secret: "short", trustHost: true, providers: [] }
      for (let i = 0; i < 2; i++) await send(config, new CookieJar(), "/session")
      expect(warn).toHaveBeenCalledTimes(1)
      expect(String(warn.mock.calls[0]![0])).toMatch(/\[auth\]\[warn\]\[weak-secret\].*shorter than 32 characters.*refused in production.*`npx authflow secret`/)
    } finally {
      warn.mockRestore()
    }
  })

  it("test (as vitest and jest set it): served, silently; fixtures use short secrets", async () => {
    setNodeEnv("test")
    const { config, errors, warnings } = app("s")
    expect((await send(config, new CookieJar(), "/session")).status).toBe(200)
    expect([errors, warnings]).toEqual([[], []])
  })

  it("runtimeMode reads NODE_ENV: development and test by name (case and spaces aside), production otherwise", () => {
    expect(
      ["development", " Development ", "test", "TEST", "production", "prod", "staging", "dev", "", undefined].map((NODE_ENV) => runtimeMode({ NODE_ENV })),
    ).toEqual(["development", "development", "test", "test", "production", "production", "production", "production", "production", "production"])
  })
})
