/**
 * One walk through the server-side password functions, shared by the four wrappers' tests: signed
 * out first (a change needs a session; a reset request answers the same for a known and an unknown
 * address), then signed in: a wrong current password is refused, the right one changes it and
 * keeps the caller signed in (the session issued again reaches the framework's cookie API), the
 * old password fails, a change of address mails a link, and the mailed reset token sets another
 * password. Each wrapper's test supplies the four functions (with `authflow/client`'s arguments)
 * running through the wrapper on a fake request made from the browser's jar, whose cookie writes
 * go back into that jar.
 */
import { expect } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/index.js"
import Password from "../../src/providers/password.js"
import type { ServerPasswords } from "../../src/frameworks/shared/passwords.js"
import type { AuthConfig, PasswordMail } from "../../src/types.js"
import { buildRequest, CookieJar, recordingLogger } from "../helpers.js"

export const passwordSecret = "password-actions-secret-password-actions-secret"
export const email = "ada@example.test"
const password = "correct horse battery"
const newPassword = "a new horse, a new battery"
const resetTo = "a third horse, a third battery"

/** A configuration with the Password provider on a memory adapter; its mails land in `mails`. */
export function passwordWorld(strategy: "jwt" | "database" = "jwt") {
  const mails: PasswordMail[] = []
  const config = {
    secret: passwordSecret,
    trustHost: true,
    adapter: MemoryAdapter(),
    session: { strategy },
    // The refused links are logged as errors: kept out of the test's output.
    logger: recordingLogger().logger,
    providers: [Password({ hashing: { scrypt: { ln: 10 } }, sendMail: (mail) => void mails.push(mail) })],
  } satisfies AuthConfig
  return { config, mails }
}

/** A browser talking to `Auth()` at `<origin><basePath>` as a page would, with the CSRF token. */
export function browserAt(config: Omit<AuthConfig, "raw">, jar: CookieJar, origin: string, basePath: string) {
  // A wrapper completes its configuration in place (SvelteKit sets skipCSRFCheck): post as a browser does, with the token.
  const { skipCSRFCheck: _skipped, ...rest } = config
  const at = { ...rest, basePath }
  const call = async (path: string, form?: Record<string, string>) => {
    const response = await Auth(buildRequest(`${origin}${basePath}${path}`, form ? { form } : {}, jar), at)
    jar.take(response)
    return response
  }
  const post = async (path: string, form: Record<string, string>) => {
    const { csrfToken } = (await (await call("/csrf")).json()) as { csrfToken: string }
    return call(path, { csrfToken, callbackUrl: `${origin}/`, ...form })
  }
  return {
    signUp: () => post("/signup/password", { email, password }),
    /** Whether signing in with `typed` works (in a browser of its own). */
    signsIn: async (typed: string) => {
      const other = browserAt(config, new CookieJar(), origin, basePath)
      const location = (await other.post("/callback/password", { email, password: typed })).headers.get("location") ?? ""
      return !location.includes("error=")
    },
    /** Who the jar's session is (`undefined` signed out). */
    signedInAs: async () => ((await (await call("/session")).json()) as { user?: { email?: string } } | null)?.user?.email,
    post,
  }
}

/** The keys of the session cookies, to drop the callback URL a browser sign-in left behind. */
function forgetCallbackUrl(jar: CookieJar): void {
  for (const name of [...jar.cookies.keys()]) if (name.endsWith("authjs.callback-url")) jar.cookies.delete(name)
}

/**
 * The walk. `passwords` runs with the cookies `jar` holds at each call; the browser signs up at
 * `<origin><basePath>` (which signs in).
 */
export async function changeAndReset(passwords: ServerPasswords, jar: CookieJar, config: Omit<AuthConfig, "raw">, mails: PasswordMail[], origin: string, basePath: string): Promise<void> {
  const browser = browserAt(config, jar, origin, basePath)
  const signedOut = { ok: false, error: "signed-out", status: 401 }
  expect(await passwords.changePassword({ currentPassword: password, newPassword })).toEqual(signedOut)
  expect(await passwords.changeEmail({ newEmail: "ada@new.example", password })).toEqual(signedOut)

  await browser.signUp()
  forgetCallbackUrl(jar)
  expect(await browser.signedInAs()).toBe(email)

  // A reset request answers the same for an unknown address; only the known one gets a mail.
  const done = { ok: true, error: undefined, status: 200 }
  expect(await passwords.requestPasswordReset({ email: "nobody@example.test" })).toEqual(done)
  expect(mails.filter((mail) => mail.kind === "reset-password")).toEqual([])
  expect(await passwords.requestPasswordReset({ email })).toEqual(done)
  const resetMail = mails.find((mail) => mail.kind === "reset-password")
  expect(resetMail).toMatchObject({ to: email })

  expect(await passwords.changePassword({ currentPassword: "not it at all", newPassword })).toEqual({ ok: false, error: "CredentialsSignin", status: 400 })
  expect(await passwords.changePassword({ currentPassword: password, newPassword: "short" })).toEqual({ ok: false, error: "PasswordChangeRefused", reason: "too-short", status: 400 })
  expect(await passwords.changePassword({ currentPassword: password, newPassword })).toEqual(done)
  // The session issued again reached the jar: still signed in; the old password no longer works.
  expect(await browser.signedInAs()).toBe(email)
  expect(await browser.signsIn(password)).toBe(false)
  expect(await browser.signsIn(newPassword)).toBe(true)
  expect(mails.some((mail) => mail.kind === "password-changed")).toBe(true)

  expect(await passwords.changeEmail({ newEmail: "ada@new.example", password })).toEqual({ ok: false, error: "CredentialsSignin", status: 400 })
  expect(await passwords.changeEmail({ newEmail: "ada@new.example", password: newPassword })).toEqual(done)
  expect(mails.find((mail) => mail.kind === "change-email")).toMatchObject({ to: "ada@new.example", from: email })

  // The reset link mailed before the change died with the old password; a fresh one works, once.
  expect(await passwords.resetPassword({ token: "not-a-token", password: resetTo })).toEqual({ ok: false, error: "PasswordLinkInvalid", status: 400 })
  const stale = new URL((resetMail as Extract<PasswordMail, { kind: "reset-password" }>).url).searchParams.get("token")!
  expect(await passwords.resetPassword({ token: stale, password: resetTo })).toEqual({ ok: false, error: "PasswordLinkInvalid", status: 400 })
  expect(await passwords.requestPasswordReset({ email })).toEqual(done)
  const mailed = mails.filter((mail) => mail.kind === "reset-password").at(-1) as Extract<PasswordMail, { kind: "reset-password" }>
  const token = new URL(mailed.url).searchParams.get("token")!
  expect(await passwords.resetPassword({ token, password: resetTo })).toEqual(done)
  expect(await browser.signsIn(resetTo)).toBe(true)
  expect(await passwords.resetPassword({ token, password: "and yet another one" })).toMatchObject({ ok: false, status: 400 })
}
