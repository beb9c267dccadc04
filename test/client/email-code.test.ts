/**
 * Emailed sign-in codes through `authflow/client` against a real `Auth()`: `signIn("email")` goes
 * to the code page (or says so with `redirect: false`), and `submitEmailCode` signs in with the
 * code, or reports a wrong one while the sign-in waits.
 */
import { describe, expect, it, vi } from "vitest"
import * as client from "../../src/client/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { SendVerificationRequestParams } from "../../src/providers/email-config.js"
import type { AuthConfig } from "../../src/types.js"
import { origin, recordingLogger } from "../helpers.js"
import { clientAgainstAuth, stubAuthFetch } from "./auth-fetch.js"

const codePage = `${origin}/auth/verify-request?provider=email&type=code`

function world() {
  const mails: SendVerificationRequestParams[] = []
  const config: AuthConfig = {
    secret: "client-email-code-secret",
    trustHost: true,
    adapter: MemoryAdapter(),
    logger: recordingLogger().logger,
    providers: [{ id: "email", type: "email", name: "Email", code: "instead", sendVerificationRequest: (params) => void mails.push(params) }],
  }
  const location = { href: `${origin}/login`, reload: vi.fn() }
  stubAuthFetch(config, location)
  return { mails, location }
}

clientAgainstAuth()

describe("emailed sign-in codes in authflow/client", () => {
  it("signIn goes to the code page, which emailCodeProvider recognises", async () => {
    const { location } = world()
    await client.signIn("email", { email: "ada@example.test", redirectTo: "/dashboard" })
    expect(location.href).toBe(codePage)
    expect(client.emailCodeProvider(location.href)).toBe("email")
    expect(client.emailCodeProvider(`${origin}/auth/verify-request?provider=email&type=email`)).toBeUndefined()
  })

  it("with redirect: false, a wrong code is reported while the sign-in waits, and the right one signs in", async () => {
    const { mails } = world()
    const result = await client.signIn("email", { email: "ada@example.test", redirect: false, redirectTo: "/dashboard" })
    // The `code` of a sign-in result is an error code: the code page does not set one.
    expect(result).toMatchObject({ ok: true, url: codePage, error: undefined, code: undefined })
    const provider = client.emailCodeProvider(result?.url)!
    const code = mails[0]!.code!
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0")
    expect(await client.submitEmailCode({ provider, code: wrong, redirect: false })).toMatchObject({ ok: false, error: "Verification", reason: "wrong-code" })
    expect(await client.getSession()).toBeNull()
    expect(await client.submitEmailCode({ provider, code, redirect: false })).toMatchObject({ ok: true, url: `${origin}/dashboard`, error: undefined, reason: undefined })
    expect((await client.getSession())?.user?.email).toBe("ada@example.test")
  })

  it("submitEmailCode navigates where the server answers", async () => {
    const { mails, location } = world()
    await client.signIn("email", { email: "ada@example.test", redirect: false, redirectTo: "/dashboard" })
    await client.submitEmailCode({ provider: "email", code: mails[0]!.code! })
    expect(location.href).toBe(`${origin}/dashboard`)
  })
})
