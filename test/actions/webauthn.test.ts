import { describe, expect, it } from "vitest"
import { authenticate, getOptions, passkeyConfig, register, sessionOf } from "../support/passkey-flow.js"
import { CookieJar, cookieNames, origin } from "../helpers.js"

describe("passkeys through Auth()", () => {
  for (const strategy of ["jwt", "database"] as const) {
    it(`registers a new user, signs out, signs in with the passkey (${strategy} sessions)`, async () => {
      const config = passkeyConfig({ session: { strategy } })
      const jar = new CookieJar()
      const { response, credential } = await register(config, jar, "ada@example.test")
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toBe(`${origin}/dashboard`)
      expect((await sessionOf(config, jar))?.user?.email).toBe("ada@example.test")
      const user = await config.adapter.getUserByEmail("ada@example.test")
      const stored = await config.adapter.getAuthenticator(Buffer.from(credential.id).toString("base64"))
      expect(stored).toMatchObject({ userId: user!.id, providerAccountId: Buffer.from(credential.id).toString("base64"), counter: 0, transports: "internal,hybrid" })
      expect(await config.adapter.getAccount(stored!.providerAccountId, "passkey")).toMatchObject({ type: "webauthn", userId: user!.id })

      const browser = new CookieJar()
      const signIn = await authenticate(config, browser, credential)
      expect(signIn.options.allowCredentials ?? []).toEqual([])
      expect(signIn.response.status).toBe(302)
      expect(signIn.response.headers.get("location")).toBe(`${origin}/dashboard`)
      expect((await sessionOf(config, browser))?.user?.email).toBe("ada@example.test")
      expect((await config.adapter.getAuthenticator(stored!.credentialID))?.counter).toBe(1)
      expect(config.errors).toEqual([])
    })
  }
})

describe("sizes", () => {
  it("the sealed challenge cookie stays under 1 KB, the options payloads small", async () => {
    const config = passkeyConfig()
    const challengeCookie = (response: Response) => response.headers.getSetCookie().find((c) => c.startsWith(`${cookieNames.https.webauthnChallenge}=`))!.split(";")[0]!
    const registration = await getOptions(config, new CookieJar(), { action: "register", email: "a-rather-long-address-for-budgets@example.test" })
    const authentication = await getOptions(config, new CookieJar(), { action: "authenticate" })
    expect(challengeCookie(registration.response).length).toBeLessThanOrEqual(1024)
    expect(challengeCookie(authentication.response).length).toBeLessThanOrEqual(900)
    expect(registration.bytes).toBeLessThanOrEqual(700)
    expect(authentication.bytes).toBeLessThanOrEqual(200)
  })
})
