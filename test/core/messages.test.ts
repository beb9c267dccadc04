/**
 * Messages that say how to fix themselves, at the right level: a path outside basePath names the
 * basePath (and the one that would serve it), a stray path is a debug line, and the built-in
 * logger prints every warning with its text.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/auth.js"
import { resolveLogger } from "../../src/core/logger.js"
import Credentials from "../../src/providers/credentials.js"
import type { WarningCode } from "../../src/base-types.js"
import type { AuthConfig } from "../../src/types.js"

function recording(basePath = "/auth") {
  const errors: Error[] = []
  const debug: string[] = []
  const config: AuthConfig = {
    secret: "a-secret-of-at-least-thirty-two-characters",
    trustHost: true,
    basePath,
    providers: [Credentials({ authorize: () => null })],
    logger: { error: (error) => void errors.push(error), warn: () => {}, debug: (message) => void debug.push(message) },
  }
  return { config, errors, debug }
}

describe("a request outside basePath", () => {
  it("that would be an action under another base: an UnknownAction naming the configured basePath and the one that would serve it", async () => {
    const { config, errors } = recording("/auth")
    const response = await Auth(new Request("https://app.test/api/auth/session"), config)
    expect(response.status).toBe(400)
    expect(errors.map((error) => error.name)).toEqual(["UnknownAction"])
    expect(errors[0]!.message).toBe('/api/auth/session is outside basePath "/auth": Auth() looks mounted at "/api/auth", so set basePath: "/api/auth" (or AUTH_URL\'s path)')
  })

  it("a provider route under another base names it too", async () => {
    const { config, errors } = recording("/auth")
    await Auth(new Request("https://app.test/api/auth/signin/github"), config)
    expect(errors[0]!.message).toContain('Auth() looks mounted at "/api/auth"')
  })

  it.each(["/", "/favicon.ico", "/robots.txt", "/assets/app.js"])("a stray path (%s) is a debug line, not an error", async (path) => {
    const { config, errors, debug } = recording("/auth")
    const response = await Auth(new Request(`https://app.test${path}`), config)
    expect(response.status).toBe(400)
    expect(errors).toEqual([])
    expect(debug.some((line) => line.includes(`is not under basePath "/auth"`))).toBe(true)
  })

  it("an unknown action under basePath is an error that names the action and the basePath", async () => {
    const { config, errors } = recording("/auth")
    await Auth(new Request("https://app.test/auth/nope"), config)
    expect(errors[0]!.message).toBe('Cannot parse action at /auth/nope: "nope" is not an action under basePath "/auth"')
  })
})

describe("the built-in logger's warnings", () => {
  afterEach(() => void vi.restoreAllMocks())

  const codes: WarningCode[] = [
    "debug-enabled",
    "csrf-disabled",
    "env-url-basepath-redundant",
    "env-url-basepath-mismatch",
    "experimental-webauthn",
    "provider-logout-unavailable",
    "rate-limit-client-unknown",
    "replay-store-per-process",
    "weak-secret",
  ]

  it.each(codes)("%s prints with a sentence saying what to do", (code) => {
    const lines: string[] = []
    vi.spyOn(console, "warn").mockImplementation((line: string) => void lines.push(line))
    resolveLogger({}).warn(code)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(new RegExp(`^\\[auth\\]\\[warn\\]\\[${code}\\] \\S.{20,}`))
  })
})
