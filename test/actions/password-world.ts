/**
 * The world of the Password provider's route tests: a configuration with JWT or database sessions
 * (the memory adapter) or on SQLite (the Kysely adapter, a file per world, removed after the file's
 * tests), the mails `sendMail` was given, the errors logged; and the requests a browser makes.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "vitest"
import { KyselyAdapter, createSqliteDatabase, migrateToLatest } from "../../src/adapters/kysely/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Password, { type PasswordOptions } from "../../src/providers/password.js"
import { CookieJar, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import type { AuthConfig, PasswordMail } from "../../src/types.js"
import type { Adapter } from "../../src/adapters.js"

export const hashing = { scrypt: { ln: 12 } }
export const password = "correct horse battery"
export const newPassword = "a new horse, a new battery"

const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

async function sqliteAdapter(): Promise<Adapter> {
  const dir = mkdtempSync(join(tmpdir(), "authflow-password-"))
  const db = createSqliteDatabase(join(dir, "auth.sqlite"))
  await migrateToLatest(db)
  cleanups.push(async () => {
    await db.destroy()
    rmSync(dir, { recursive: true, force: true })
  })
  return KyselyAdapter(db)
}

/** A Password configuration of `kind`, signed with `secret`, its mails and logged errors kept. */
export async function passwordWorld(secret: string, kind: "jwt" | "database" | "sqlite", options: PasswordOptions = {}, extra: Partial<AuthConfig> = {}) {
  const mails: PasswordMail[] = []
  const { logger, errors } = recordingLogger()
  const adapter: Adapter = kind === "sqlite" ? await sqliteAdapter() : MemoryAdapter()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    logger,
    session: { strategy: kind === "jwt" ? "jwt" : "database" },
    providers: [Password({ hashing, sendMail: (mail) => void mails.push(mail), ...options })],
    ...extra,
  }
  return { adapter, config, mails, errors }
}

export async function signUp(config: AuthConfig, jar: CookieJar, email: string) {
  return send(config, jar, "/signup/password", { form: { csrfToken: await csrfTokenFor(config, jar), callbackUrl: `${origin}/welcome`, email, password } })
}

export async function signIn(config: AuthConfig, jar: CookieJar, email: string, typed = password) {
  return send(config, jar, "/callback/password", { form: { csrfToken: await csrfTokenFor(config, jar), email, password: typed, callbackUrl: `${origin}/dashboard` } })
}

export async function forgot(config: AuthConfig, jar: CookieJar, email: string) {
  return send(config, jar, "/forgot-password/password", { form: { csrfToken: await csrfTokenFor(config, jar), email } })
}

/** The signed-in user's address, or undefined. */
export async function sessionEmail(config: AuthConfig, jar: CookieJar) {
  return ((await (await send(config, jar, "/session")).json()) as { user?: { email?: string } } | null)?.user?.email
}

export const setCookieNames = (response: Response) => response.headers.getSetCookie().map((cookie) => cookie.split("=")[0]).sort()
export const signInWith = (query: Record<string, string>) => `${origin}/auth/signin?${new URLSearchParams(query)}`
