/**
 * `changeEmail` of `authflow/client` against a real `Auth()`: a signed-in user's request is taken
 * (a link mailed to the new address), a wrong password and nobody signed in are reported.
 */
import { describe, expect, it } from "vitest"
import * as client from "../../src/client/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Password from "../../src/providers/password.js"
import type { AuthConfig, PasswordMail } from "../../src/types.js"
import { origin, recordingLogger } from "../helpers.js"
import { clientAgainstAuth, stubAuthFetch } from "./auth-fetch.js"

const password = "correct horse battery"

function world() {
  const mails: PasswordMail[] = []
  const config: AuthConfig = {
    secret: "client-change-email-secret-0123456789",
    trustHost: true,
    adapter: MemoryAdapter(),
    logger: recordingLogger().logger,
    providers: [Password({ hashing: { scrypt: { ln: 10 } }, sendMail: (mail) => void mails.push(mail) })],
  }
  const jar = stubAuthFetch(config)
  return { mails, jar }
}

clientAgainstAuth()

describe("changeEmail in authflow/client", () => {
  it("reports nobody signed in, then a wrong password, then takes the request", async () => {
    const { mails, jar } = world()
    expect(await client.changeEmail({ newEmail: "ada@new.test", password })).toMatchObject({ ok: false, error: "SessionRequired" })
    // Sign up (verification optional: signed in at once).
    const csrfToken = (await client.getCsrfToken())!
    await fetch(`${origin}/auth/signup/password`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken, email: "ada@example.test", password }).toString() })
    expect(jar.cookies.size).toBeGreaterThan(1)
    mails.length = 0
    expect(await client.changeEmail({ newEmail: "ada@new.test", password: "wrong horse battery" })).toMatchObject({ ok: false, error: "CredentialsSignin" })
    expect(mails).toEqual([])
    const requested = await client.changeEmail({ newEmail: "ada@new.test", password })
    expect(requested).toEqual({ ok: true, error: undefined, url: `${origin}/auth/change-email/password?notice=change-requested`, status: 200 })
    expect(mails.map((mail) => [mail.kind, mail.to])).toEqual([["change-email", "ada@new.test"]])
  })
})
