/**
 * Finding 6 of the security review (issue 9): no secret reaches a log line, and a request cannot
 * forge one. Real flows run through `Auth()` with `debug: true`, once into a capturing
 * `config.logger` and once into the built-in console logger; every secret they meet is known, and
 * none may appear in what the sinks receive.
 */
import { randomBytes } from "node:crypto"
import { inspect, types } from "node:util"
import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { AdapterError, AuthError, UntrustedHost } from "../../src/core/errors.js"
import { resolveLogger } from "../../src/core/logger.js"
import Credentials from "../../src/providers/credentials.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, send } from "../helpers.js"
import { Secrets, StandInOP } from "../inspect/fixtures.js"
import type { EmailConfig } from "../../src/providers/email-config.js"
import type { AuthConfig, LoggerInstance, Provider } from "../../src/types.js"

const password = `pw-${randomBytes(12).toString("hex")}`
/** A provider path segment that, decoded and printed raw, would end the line and print a forged one. */
const forgery = "x\n[auth][error] FORGED\r\u001b[2J\u001b]0;owned\u0007\u0085\u009b31m\u2028\u2029\u007f"
const forgedLine = /(^|[\n\r\u0085\u2028\u2029])\s*(\u001b\[\d+m)?\[auth\]\[error\] FORGED/
// Control characters but the newline, which multi-line output (stacks, indented JSON) uses between lines.
const controlBesidesNewline = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/

function emailProvider(id: string, onSend: (params: { url: string; token: string }) => void): Provider {
  const provider: EmailConfig = { id, name: "Email", type: "email", maxAge: 600, sendVerificationRequest: onSend }
  return provider as unknown as Provider
}

/** Every flow that logs a secret, driven through `Auth()`; each secret it meets is added to `secrets`. */
async function runFlows(sink: Pick<AuthConfig, "logger">, secrets: Secrets) {
  const op = new StandInOP(secrets)
  const adapter = MemoryAdapter()
  // Not the address the provider answers, so the OAuth sign-in creates and links a user of its own.
  await adapter.createUser!({ id: "u1", name: "Ada", email: "ada.credentials@example.test", emailVerified: null })
  const links: { url: string; token: string }[] = []
  const config: AuthConfig = {
    secret: `auth-secret-${randomBytes(16).toString("hex")}`,
    trustHost: true,
    debug: true,
    adapter,
    ...sink,
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: ({ password: given }) => {
          if (given === password) return { id: "u1", name: "Ada", email: "ada.credentials@example.test" }
          // A database error that quotes what it was given, as drivers do.
          throw new Error(`lookup failed: password=${String(given)}`)
        },
      }),
      op.provider(),
      emailProvider("email", ({ url, token }) => {
        secrets.add(token)
        links.push({ url, token })
      }),
      emailProvider("mailer-down", ({ url, token }) => {
        secrets.add(token)
        throw new Error(`SMTP 554 message refused: ${url}`)
      }),
    ],
  }
  secrets.add(config.secret as string, password)
  const remember = (jar: CookieJar) => {
    for (const [name, value] of jar.cookies) if (!name.includes("callback-url")) secrets.add(value, decodeURIComponent(value))
  }

  // A database session: createSession, getSessionAndUser and deleteSession all carry its token.
  const jar = new CookieJar()
  const csrfToken = await csrfTokenFor(config, jar)
  secrets.add(csrfToken)
  await send(config, jar, "/callback/credentials", { form: { csrfToken, username: "ada", password } })
  remember(jar)
  expect(jar.get(cookieNames.https.sessionToken)).toMatch(/^[0-9a-f-]{36}$/)
  expect(await (await send(config, jar, "/session")).json()).toMatchObject({ user: { name: "Ada" } })
  await send(config, jar, "/signout", { form: { csrfToken } })
  const wrong = `wrong-${randomBytes(12).toString("hex")}`
  secrets.add(wrong)
  await send(config, jar, "/callback/credentials", { form: { csrfToken, username: "ada", password: wrong } })

  // An OAuth sign-in: linkAccount carries the access, refresh and ID tokens.
  const started = await send(config, jar, "/signin/op", { form: { csrfToken, callbackUrl: "/dashboard" } })
  remember(jar)
  const callback = await send(config, jar, `${origin}/auth/callback/op?${op.redirectBack(new URL(started.headers.get("location")!))}`)
  expect(callback.headers.get("location")).toBe(`${origin}/dashboard`)
  remember(jar)
  const account = await adapter.getAccount!(op.subject, "op")
  expect(account?.access_token).toMatch(/^at-/)

  // A magic link, asked for and followed; and one whose mailer fails, quoting the link.
  await send(config, jar, "/signin/email", { form: { csrfToken, email: "grace@example.test" } })
  await send(config, jar, links.at(-1)!.url)
  remember(jar)
  await send(config, jar, "/signin/mailer-down", { form: { csrfToken, email: "grace@example.test" } })

  // A bad request whose URL carries a link's token (the `request` debug line), and the same link
  // reaching a deployment that does not trust its host (logged at error level, debug or not).
  const linkToken = randomBytes(32).toString("hex")
  secrets.add(linkToken)
  const link = `callback/email?${new URLSearchParams({ callbackUrl: "/", token: linkToken, email: "ada@example.test" })}`
  await Auth(new Request(`${origin}/auth/nope/${link}`), config)
  await Auth(new Request(`${origin}/auth/${link}`), { ...config, trustHost: false, debug: false })

  // Control characters in the provider path segment and in a callback URL.
  await send(config, jar, `/signin/${encodeURIComponent(forgery)}`, { form: { csrfToken } })
  await send(config, jar, `/signin?${new URLSearchParams({ callbackUrl: `http://[${forgery}` })}`)
  return { config, account }
}

function expectSafe(lines: string[], secrets: Secrets) {
  const all = lines.join("\n")
  // The flows did log what the review found leaking; otherwise this test would prove nothing.
  for (const expected of ["adapter_createSession", "adapter_getSessionAndUser", "adapter_deleteSession", "adapter_linkAccount", "adapter_useVerificationToken", "request", "EmailSignInError", "UntrustedHost", "InvalidCallbackUrl", "FORGED"]) {
    expect(all).toContain(expected)
  }
  expect(secrets.values.size).toBeGreaterThan(15)
  expect(secrets.foundIn(all)).toEqual([])
  for (const line of lines) {
    expect(line).not.toMatch(controlBesidesNewline)
    expect(line).not.toMatch(forgedLine)
  }
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe("log lines", () => {
  it("a capturing config.logger receives no secret and no control character, at every level", async () => {
    const secrets = new Secrets()
    const lines: string[] = []
    const errors: Error[] = []
    const logger: LoggerInstance = {
      // util.inspect prints the stack and every cause, with its stack, as a log sink would.
      error: (error) => void (errors.push(error), lines.push(inspect(error, { depth: Infinity }))),
      warn: (code) => void lines.push(code),
      debug: (message, metadata) => void lines.push(`${message} ${inspect(metadata, { depth: Infinity })}`),
    }
    await runFlows({ logger }, secrets)
    expectSafe(lines, secrets)
    // The errors are still of their class, with their stable type.
    expect(errors.every((error) => error instanceof Error)).toBe(true)
    expect(errors.filter((error) => error instanceof AuthError).map((error) => (error as AuthError).type)).toEqual(
      expect.arrayContaining(["CallbackRouteError", "EmailSignInError", "UntrustedHost", "InvalidCallbackUrl"]),
    )
  })

  it("the built-in console logger prints no secret and no control character but its own colours", async () => {
    const secrets = new Secrets()
    const lines: string[] = []
    // The logger's own colour codes open its first argument; anything else is the request's.
    const ownColour = /^\u001b\[(?:31|33|36|90)m(\[auth\]\[[a-z]+\](?:\[[a-z-]+\])?:?)\u001b\[0m/
    for (const level of ["log", "error", "warn", "info", "debug"] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        lines.push(args.map((arg, i) => (typeof arg === "string" ? (i === 0 ? arg.replace(ownColour, "$1") : arg) : inspect(arg, { depth: Infinity }))).join(" "))
      })
    }
    await runFlows({}, secrets)
    vi.restoreAllMocks()
    expectSafe(lines, secrets)
    expect(lines.some((line) => line.startsWith("[auth][debug]: adapter_linkAccount"))).toBe(true)
  })

  it("redacts copies: the caller's errors and the adapter's arguments keep their values", async () => {
    const thrown = Object.assign(new Error("lookup failed\nfor token=abc"), { token: "abc" })
    const seen: Error[] = []
    const adapter = MemoryAdapter()
    const config: AuthConfig = {
      secret: "s",
      trustHost: true,
      debug: true,
      adapter,
      logger: { error: (error) => void seen.push(error), warn: () => {}, debug: () => {} },
      providers: [Credentials({ credentials: {}, authorize: () => { throw thrown } })],
    }
    const jar = new CookieJar()
    const csrfToken = await csrfTokenFor(config, jar)
    await send(config, jar, "/callback/credentials", { form: { csrfToken } })
    expect(thrown.message).toBe("lookup failed\nfor token=abc")
    expect(thrown.token).toBe("abc")
    const logged = seen[0] as AuthError & { cause: { err: Error & { token: string } } }
    expect(logged.type).toBe("CallbackRouteError")
    expect(logged.cause.err).toBeInstanceOf(Error)
    expect(logged.cause.err).not.toBe(thrown)
    expect([logged.cause.err.message, logged.cause.err.token]).toEqual(["lookup failed\\nfor token=[redacted]", "[redacted]"])
  })

  it("hands a logger real Errors of the original class, as error reporters (pino's err serializer, Sentry) require", () => {
    const seen: unknown[] = []
    const logger = resolveLogger({ logger: { error: (error) => void seen.push(error) } })
    class DatabaseDown extends Error {
      override name = "DatabaseDown"
    }
    const inner = new DatabaseDown("connect failed for postgres://app:hunter2@db/app?token=t0k3n")
    const original = new AdapterError(inner)
    logger.error(original)
    const logged = seen[0] as AdapterError & { cause: { err: DatabaseDown } }
    // What pino's err serializer, Sentry's captureException and OpenTelemetry's recordException test.
    expect(types.isNativeError(logged)).toBe(true)
    expect(Object.prototype.toString.call(logged)).toBe("[object Error]")
    expect(logged).toBeInstanceOf(AdapterError)
    expect(logged).not.toBe(original)
    expect(logged.type).toBe("AdapterError")
    expect(logged.name).toBe("AdapterError")
    expect(logged.stack).toMatch(/^AdapterError: connect failed .*token=\[redacted\]\n\s+at /)
    expect(logged.stack).not.toContain("t0k3n")
    // The cause is a real, redacted Error of its own class too, with its stack.
    const cause = logged.cause.err
    expect(types.isNativeError(cause)).toBe(true)
    expect(Object.prototype.toString.call(cause)).toBe("[object Error]")
    expect(cause).toBeInstanceOf(DatabaseDown)
    expect(cause).not.toBe(inner)
    expect(cause.message).not.toContain("t0k3n")
    expect(cause.stack).toMatch(/^DatabaseDown: .*\n\s+at /)
    expect(cause.stack).not.toContain("t0k3n")
    // A plain Error's cause (ES2022 `{ cause }`) is copied the same way.
    logger.error(new Error("outer", { cause: new TypeError("inner ?code=c0d3") }))
    const plain = seen[1] as Error & { cause: TypeError }
    expect(types.isNativeError(plain.cause)).toBe(true)
    expect(plain.cause).toBeInstanceOf(TypeError)
    expect(plain.cause.message).toBe("inner ?code=[redacted]")
  })

  it("an error quoting a magic link is redacted at error level, without debug, by the built-in logger", () => {
    const printed: string[] = []
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void printed.push(args.join(" ")))
    const token = randomBytes(32).toString("hex")
    // Auth.js words an untrusted host this way, quoting the whole request URL.
    resolveLogger({}).error(new UntrustedHost(`Host must be trusted. URL was: ${origin}/auth/callback/email?token=${token}&email=ada%40example.test`))
    expect(printed.join("\n")).toContain("URL was: https://app.test/auth/callback/email?token=[redacted]&email=ada%40example.test")
    expect(printed.join("\n")).not.toContain(token)
  })

  it("is resolved once per configuration: a request that logs nothing redacts nothing", () => {
    const config: AuthConfig = { providers: [], logger: { error: () => {} } }
    expect(resolveLogger(config)).toBe(resolveLogger(config))
    expect(resolveLogger(config).debug).toBe(resolveLogger({}).debug)
  })
})
