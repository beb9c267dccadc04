/**
 * Magic links sent as real mail: the nodemailer provider talks SMTP to a local smtp-server, the
 * test reads the message it received, and follows the link through `Auth()`, mostly from another
 * cookie jar (another device).
 */
import { createHash } from "node:crypto"
import { afterEach, describe, expect, it, vi } from "vitest"
import Nodemailer from "../../src/providers/nodemailer.js"
import Email from "../../src/providers/email.js"
import type { EmailUserConfig, SendVerificationRequestParams } from "../../src/providers/email-config.js"
import type { AuthConfig, SignInCallbackParams } from "../../src/types.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { smtpForFile } from "../support/smtp.js"
import { spiedAdapter } from "../support/spied-adapter.js"

const secret = "email-test-secret"
const sessionCookie = cookieNames.https.sessionToken
const verifyRequest = `${origin}/auth/verify-request?provider=nodemailer&type=email`

const smtp = smtpForFile()
afterEach(() => {
  vi.useRealTimers()
})

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

function setup(extra: Partial<AuthConfig> = {}, providerOptions: EmailUserConfig = {}) {
  const { memory, adapter, storedTokens } = spiedAdapter()
  const { logger, errors } = recordingLogger()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    logger,
    providers: [Nodemailer({ server: smtp.server, from: "Authflow tests <login@app.test>", ...providerOptions })],
    ...extra,
  }
  return { config, memory, storedTokens, errors }
}

/** Asks for a link as a browser would: CSRF token, then the form POST. */
async function requestLink(config: AuthConfig, email: string, options: { jar?: CookieJar; providerId?: string; callbackUrl?: string } = {}) {
  const jar = options.jar ?? new CookieJar()
  const csrfToken = await csrfTokenFor(config, jar)
  return send(config, jar, `/signin/${options.providerId ?? "nodemailer"}`, { form: { csrfToken, email, callbackUrl: options.callbackUrl ?? "/dashboard" } })
}

function lastLink(): URL {
  const mail = smtp.messages.at(-1)
  expect(mail, "a message reached the SMTP server").toBeDefined()
  return new URL(mail!.link)
}

function withParam(link: URL, name: string, value: string | undefined): string {
  const copy = new URL(link)
  if (value === undefined) copy.searchParams.delete(name)
  else copy.searchParams.set(name, value)
  return copy.href
}

async function sessionOf(config: AuthConfig, jar: CookieJar) {
  return (await (await send(config, jar, "/session")).json()) as { user?: { email?: string; name?: string | null } } | null
}

describe("nodemailer provider: real mail over SMTP", () => {
  it("mails a link to the normalised address; followed on another device it signs in with a database session", async () => {
    const { config, memory } = setup()
    const firstDevice = new CookieJar()
    const response = await requestLink(config, "  Ada@Example.TEST ", { jar: firstDevice })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(verifyRequest)

    expect(smtp.messages).toHaveLength(1)
    const mail = smtp.messages[0]!
    expect(mail.envelopeTo).toEqual(["ada@example.test"])
    expect(mail.envelopeFrom).toBe("login@app.test")
    expect(mail.headers.get("to")).toBe("ada@example.test")
    expect(mail.headers.get("from")).toBe("Authflow tests <login@app.test>")
    expect(mail.subject).toBe("Sign in to app.test")

    const link = new URL(mail.link)
    expect(`${link.origin}${link.pathname}`).toBe(`${origin}/auth/callback/nodemailer`)
    expect([...link.searchParams.keys()]).toEqual(["callbackUrl", "token", "email"])
    expect(link.searchParams.get("callbackUrl")).toBe(`${origin}/dashboard`)
    expect(link.searchParams.get("token")).toMatch(/^[0-9a-f]{64}$/)
    expect(link.searchParams.get("email")).toBe("ada@example.test")
    expect(mail.text.replace(/\r\n/g, "\n")).toBe(`Sign in to app.test\n${mail.link}\n\n`)
    expect(mail.html).toContain(`href="${mail.link.replace(/&/g, "&amp;")}"`)
    expect(mail.html).toContain("app.&#8203;test")
    expect(mail.html).toContain(">Sign in</a>")
    expect(mail.html).toContain("If you did not request this email you can safely ignore it.")
    expect(mail.html).toContain("#346df1")

    // Another device: no cookie from the first one.
    const otherDevice = new CookieJar()
    const followed = await send(config, otherDevice, mail.link)
    expect(followed.status).toBe(302)
    expect(followed.headers.get("location")).toBe(`${origin}/dashboard`)
    const sessionToken = otherDevice.get(sessionCookie)
    expect(sessionToken).toMatch(/^[0-9a-f-]{36}$/)
    expect((await sessionOf(config, otherDevice))?.user?.email).toBe("ada@example.test")
    expect(firstDevice.get(sessionCookie)).toBeUndefined()

    const user = await memory.getUserByEmail("ada@example.test")
    expect(user?.emailVerified).toBeInstanceOf(Date)
    expect(Math.abs(user!.emailVerified!.getTime() - Date.now())).toBeLessThan(10_000)
    const stored = await memory.getSessionAndUser(sessionToken!)
    expect(stored?.user.id).toBe(user!.id)

    // The link works once.
    const again = await send(config, new CookieJar(), mail.link)
    expect(again.headers.get("location")).toBe(`${origin}/auth/error?error=Verification`)
    const page = await send(config, new CookieJar(), "/error?error=Verification")
    expect(page.status).toBe(403)
  })

  it("stores sha256(token + secret), never the token itself", async () => {
    const { config, memory, storedTokens } = setup()
    const before = Date.now()
    await requestLink(config, "ada@example.test")
    const token = lastLink().searchParams.get("token")!
    expect(storedTokens).toHaveLength(1)
    const [stored] = storedTokens
    expect(stored!.identifier).toBe("ada@example.test")
    expect(stored!.token).toBe(sha256(`${token}${secret}`))
    expect(stored!.token).not.toContain(token)
    expect(stored!.expires.getTime()).toBeGreaterThanOrEqual(before + 86_400_000)
    expect(stored!.expires.getTime()).toBeLessThanOrEqual(Date.now() + 86_400_000)
    // Looking the raw token up finds nothing (and consumes nothing).
    expect(await memory.useVerificationToken({ identifier: "ada@example.test", token })).toBeNull()
    expect(await memory.useVerificationToken({ identifier: "ada@example.test", token: sha256(`${token}${secret}`) })).toMatchObject({
      identifier: "ada@example.test",
    })
  })

  it("hashes with the provider's own secret when it has one", async () => {
    const { config, storedTokens } = setup({}, { secret: "provider-secret" })
    await requestLink(config, "ada@example.test")
    expect(storedTokens[0]!.token).toBe(sha256(`${lastLink().searchParams.get("token")}provider-secret`))
    const followed = await send(config, new CookieJar(), lastLink().href)
    expect(followed.headers.get("location")).toBe(`${origin}/dashboard`)
  })

  it("refuses an expired link", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() })
    const { config } = setup({}, { maxAge: 60 })
    await requestLink(config, "ada@example.test")
    const link = lastLink()
    vi.setSystemTime(Date.now() + 61_000)
    const followed = await send(config, new CookieJar(), link.href)
    expect(followed.headers.get("location")).toBe(`${origin}/auth/error?error=Verification`)
  })

  it("refuses a link whose email was changed, a link without token or email, and a token never issued", async () => {
    const { config } = setup()
    await requestLink(config, "ada@example.test")
    const link = lastLink()
    for (const forged of [
      withParam(link, "email", "eve@example.test"),
      withParam(link, "token", undefined),
      withParam(link, "email", undefined),
      withParam(link, "token", "0".repeat(64)),
      withParam(link, "token", sha256("never issued")),
    ]) {
      const followed = await send(config, new CookieJar(), forged)
      expect(followed.headers.get("location"), forged).toBe(`${origin}/auth/error?error=Verification`)
    }
    // With the MemoryAdapter a forged email consumes nothing: the genuine link still works.
    const genuine = await send(config, new CookieJar(), link.href)
    expect(genuine.headers.get("location")).toBe(`${origin}/dashboard`)
  })

  it.each(["a", "a@b@c", "ａ＠b.c", "a﹫b.c", '"a"@b.c', "a b@c.d", "@b.c", "a@,b.c"])(
    "sends %j back to the sign-in page with InvalidEmail, and no mail",
    async (typed) => {
      const { config, storedTokens } = setup()
      const response = await requestLink(config, typed)
      expect(response.headers.get("location")).toBe(`${origin}/auth/signin?${new URLSearchParams({ error: "InvalidEmail", email: typed })}`)
      expect(smtp.messages).toHaveLength(0)
      expect(storedTokens).toHaveLength(0)
    },
  )

  it("asks the signIn callback with email.verificationRequest on the request, without it on the callback", async () => {
    const calls: SignInCallbackParams[] = []
    const { config } = setup({ callbacks: { signIn: (params) => (calls.push(params), true) } })
    await requestLink(config, "ada@example.test")
    expect(calls).toHaveLength(1)
    expect(calls[0]!.email).toEqual({ verificationRequest: true })
    expect(calls[0]!.account).toMatchObject({ type: "email", provider: "nodemailer", providerAccountId: "ada@example.test" })
    expect(calls[0]!.user).toMatchObject({ email: "ada@example.test", emailVerified: null })
    await send(config, new CookieJar(), lastLink().href)
    expect(calls).toHaveLength(2)
    expect(calls[1]!.email).toBeUndefined()
    expect(calls[1]!.account).toMatchObject({ type: "email", provider: "nodemailer", providerAccountId: "ada@example.test" })
  })

  it("sends nothing when the signIn callback refuses the request", async () => {
    const { config, storedTokens } = setup({ callbacks: { signIn: ({ email }) => !email?.verificationRequest } })
    const response = await requestLink(config, "ada@example.test")
    expect(response.headers.get("location")).toBe(`${origin}/auth/error?error=AccessDenied`)
    expect(smtp.messages).toHaveLength(0)
    expect(storedTokens).toHaveLength(0)
  })

  it("a recipient the SMTP server refuses ends on EmailSignin, and the link's token does not stay usable", async () => {
    smtp.refused.add("bounce@example.test")
    const { config, memory, storedTokens, errors } = setup()
    const response = await requestLink(config, "bounce@example.test")
    expect(response.headers.get("location")).toBe(`${origin}/auth/signin?error=EmailSignin`)
    expect(smtp.messages).toHaveLength(0)
    const logged = errors.find((error) => error.name === "EmailSignInError")
    expect(logged?.message).toMatch(/recipients were rejected|did not accept/i)
    // The token was stored before sending, then removed when the mail failed.
    expect(storedTokens).toHaveLength(1)
    expect(await memory.useVerificationToken({ identifier: "bounce@example.test", token: storedTokens[0]!.token })).toBeNull()
  })

  it("without `server` the sign-in ends on EmailSignin with a clear log", async () => {
    const { adapter } = spiedAdapter()
    const { logger, errors } = recordingLogger()
    const config: AuthConfig = { secret, trustHost: true, adapter, logger, providers: [Nodemailer()] }
    const response = await requestLink(config, "ada@example.test")
    expect(response.headers.get("location")).toBe(`${origin}/auth/signin?error=EmailSignin`)
    const logged = errors.find((error) => error.name === "EmailSignInError")
    expect(logged?.message).toContain("needs `server`")
  })

  it("accepts an SMTP connection URL as `server`, and defaults `from` to no-reply@<host of the link>", async () => {
    const { config } = setup()
    config.providers = [Nodemailer({ server: `smtp://127.0.0.1:${smtp.port}/?ignoreTLS=true` })]
    await requestLink(config, "ada@example.test")
    expect(smtp.messages).toHaveLength(1)
    expect(smtp.messages[0]!.headers.get("from")).toBe("no-reply@app.test")
    expect(smtp.messages[0]!.envelopeFrom).toBe("no-reply@app.test")
  })

  it("fires createUser and signIn (isNewUser true, then false) and updateUser on the next sign-in", async () => {
    const signIns: { isNewUser?: boolean; email?: string | null; accountType?: string }[] = []
    const created: (string | null | undefined)[] = []
    const updated: (string | null | undefined)[] = []
    const { config } = setup({
      events: {
        signIn: ({ user, account, isNewUser }) => void signIns.push({ isNewUser, email: user.email, accountType: account?.type }),
        createUser: ({ user }) => void created.push(user.email),
        updateUser: ({ user }) => void updated.push(user.email),
      },
    })
    await requestLink(config, "ada@example.test")
    await send(config, new CookieJar(), lastLink().href)
    await requestLink(config, "ada@example.test")
    await send(config, new CookieJar(), lastLink().href)
    expect(created).toEqual(["ada@example.test"])
    expect(updated).toEqual(["ada@example.test"])
    expect(signIns).toEqual([
      { isNewUser: true, email: "ada@example.test", accountType: "email" },
      { isNewUser: false, email: "ada@example.test", accountType: "email" },
    ])
  })

  it("sends a new user to pages.newUser, a returning one to the callback URL", async () => {
    const { config } = setup({ pages: { newUser: "/welcome" } })
    await requestLink(config, "ada@example.test")
    const first = await send(config, new CookieJar(), lastLink().href)
    expect(first.headers.get("location")).toBe(`/welcome?${new URLSearchParams({ callbackUrl: `${origin}/dashboard` })}`)
    await requestLink(config, "ada@example.test")
    const second = await send(config, new CookieJar(), lastLink().href)
    expect(second.headers.get("location")).toBe(`${origin}/dashboard`)
  })

  it("with the JWT strategy, the jwt callback sees trigger signUp for a new user and the session shows the email", async () => {
    const triggers: (string | undefined)[] = []
    const { config } = setup({
      session: { strategy: "jwt" },
      callbacks: { jwt: ({ token, trigger }) => (triggers.push(trigger), token) },
    })
    await requestLink(config, "ada@example.test")
    const jar = new CookieJar()
    await send(config, jar, lastLink().href)
    expect(triggers[0]).toBe("signUp")
    expect((await sessionOf(config, jar))?.user?.email).toBe("ada@example.test")
  })

  it("a browser signed in as someone else loses that database session when it follows another user's link", async () => {
    const { config, memory } = setup()
    await requestLink(config, "ada@example.test")
    await send(config, new CookieJar(), lastLink().href)
    const bobsBrowser = new CookieJar()
    await requestLink(config, "bob@example.test", { jar: bobsBrowser })
    await send(config, bobsBrowser, lastLink().href)
    const bobsSession = bobsBrowser.get(sessionCookie)!
    expect(await memory.getSessionAndUser(bobsSession)).not.toBeNull()

    await requestLink(config, "ada@example.test")
    await send(config, bobsBrowser, lastLink().href)
    expect(await memory.getSessionAndUser(bobsSession)).toBeNull()
    expect((await sessionOf(config, bobsBrowser))?.user?.email).toBe("ada@example.test")
  })

  it("uses the user's sendVerificationRequest instead of the default", async () => {
    const seen: SendVerificationRequestParams[] = []
    const { config } = setup({ theme: { brandColor: "#123456" } }, { sendVerificationRequest: (params) => void seen.push(params) })
    const response = await requestLink(config, "ada@example.test")
    expect(response.headers.get("location")).toBe(verifyRequest)
    expect(smtp.messages).toHaveLength(0)
    expect(seen).toHaveLength(1)
    const [params] = seen
    expect(params!.identifier).toBe("ada@example.test")
    expect(params!.url).toMatch(new RegExp(`^${origin}/auth/callback/nodemailer\\?callbackUrl=`))
    expect(new URL(params!.url).searchParams.get("token")).toBe(params!.token)
    expect(params!.expires).toBeInstanceOf(Date)
    expect(params!.provider).toMatchObject({ id: "nodemailer", type: "email", maxAge: 86400 })
    expect(params!.theme.brandColor).toBe("#123456")
    expect(params!.request).toBeInstanceOf(Request)
    expect(params!.request.url).toBe(`${origin}/auth/signin/nodemailer`)
  })

  it("paints the button in the theme's colours and refuses a colour that is not one", async () => {
    const { config } = setup({ theme: { brandColor: "#0a7f3c", buttonText: "#fefefe" } })
    await requestLink(config, "ada@example.test")
    expect(smtp.messages[0]!.html).toContain("background: #0a7f3c")
    expect(smtp.messages[0]!.html).toContain("color: #fefefe")

    const hostile = setup({ theme: { brandColor: 'red;background-image:url("https://evil.test/")', buttonText: "</style><script>" } })
    await requestLink(hostile.config, "ada@example.test")
    const html = smtp.messages[1]!.html
    expect(html).not.toContain("evil.test")
    expect(html).not.toContain("<script>")
    expect(html).toContain("background: #346df1")
    expect(html).toContain("color: #fff;")
  })

  it("the email provider is nodemailer under id and name email", async () => {
    const { adapter } = spiedAdapter()
    const config: AuthConfig = { secret, trustHost: true, adapter, providers: [Email({ server: smtp.server, from: "login@app.test" })] }
    const providers = (await (await send(config, new CookieJar(), "/providers")).json()) as Record<string, { id: string; name: string; type: string }>
    expect(providers.email).toMatchObject({ id: "email", name: "Email", type: "email" })
    const response = await requestLink(config, "ada@example.test", { providerId: "email" })
    expect(response.headers.get("location")).toBe(`${origin}/auth/verify-request?provider=email&type=email`)
    const link = lastLink()
    expect(link.pathname).toBe("/auth/callback/email")
    const jar = new CookieJar()
    const followed = await send(config, jar, link.href)
    expect(followed.headers.get("location")).toBe(`${origin}/dashboard`)
    expect((await sessionOf(config, jar))?.user?.email).toBe("ada@example.test")
  })
})
