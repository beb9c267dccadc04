/**
 * Security review, finding 7: email addresses that are not what they seem. Each hostile address is
 * posted to `Auth()` as a browser would; none may be mailed, and no verification token may be stored
 * for it. An address that is accepted is mailed to exactly the identifier stored with its token, and
 * the link signs in exactly that identifier, on any device.
 */
import { createHash } from "node:crypto"
import nodemailer from "nodemailer"
import { describe, expect, it, vi } from "vitest"
import Nodemailer, { sendWithNodemailer } from "../../src/providers/nodemailer.js"
import Resend, { sendWithResend } from "../../src/providers/resend.js"
import SendGrid, { sendWithSendGrid } from "../../src/providers/sendgrid.js"
import Postmark, { sendWithPostmark } from "../../src/providers/postmark.js"
import { customFetch } from "../../src/core/symbols.js"
import type { EmailUserConfig, SendVerificationRequestParams } from "../../src/providers/email-config.js"
import type { AuthConfig } from "../../src/types.js"
import { CookieJar, csrfTokenFor, origin, send } from "../helpers.js"
import { smtpForFile } from "../support/smtp.js"
import { spiedAdapter } from "../support/spied-adapter.js"

const secret = "email-security-secret"
const verifyRequest = `${origin}/auth/verify-request?provider=nodemailer&type=email`

/** [what is wrong with it, the address]: the name keeps a 900 KB address out of the test title. */
const hostile: [string, string][] = [
  ["Cyrillic а in a Latin domain label", "alice@exаmple.com"],
  ["Greek ο in a Latin domain label", "alice@gοogle.com"],
  ["the punycode of a Latin+Cyrillic label", "alice@xn--exmple-4nf.com"],
  ["Cyrillic а in a Latin local part", "аlice@example.com"],
  ["a zero-width space in the domain", "alice@exa\u200Bmple.com"],
  ["a zero-width space in the local part", "ali\u200Bce@example.com"],
  ["a zero-width joiner in the domain", "alice@exa\u200Dmple.com"],
  ["a soft hyphen in the domain", "alice@exam\u00ADple.com"],
  ["a soft hyphen in the local part", "al\u00ADice@example.com"],
  ["a right-to-left override", "alice\u202E@example.com"],
  ["a left-to-right mark in the domain", "alice@example\u200E.com"],
  ["a 900 KB local part", `${"a".repeat(900 * 1024)}@example.com`],
  ["a 65-octet local part", `${"a".repeat(65)}@example.com`],
  ["a 255-octet address", `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(62)}`],
  ["a display name in angle brackets", "x<evil@evil.test>"],
  ["an address in angle brackets", "<alice@example.com>"],
  ["a comment", "alice(evil)@example.com"],
  ["a group", "friends:alice@example.com;"],
  ["a backslash", "alice\\@example.com"],
  ["an address literal", "alice@[127.0.0.1]"],
  ["a numeric host", "alice@127.0.0.1"],
  ["a host with a port", "alice@example.com:25"],
  ["a trailing dot in the domain", "alice@example.com."],
  ["consecutive dots in the local part", "al..ice@example.com"],
]

const smtp = smtpForFile()

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

/**
 * A configuration whose mail goes to `sent` (or over SMTP with `smtpSender`) and whose adapter
 * records the verification tokens it stores.
 */
function setup(providerOptions: EmailUserConfig = {}, { smtpSender = false } = {}) {
  const { memory, adapter, storedTokens } = spiedAdapter()
  const sent: SendVerificationRequestParams[] = []
  const capture = (params: SendVerificationRequestParams) => void sent.push(params)
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [
      Nodemailer({
        server: smtp.server,
        from: "login@app.test",
        ...(!smtpSender && { sendVerificationRequest: capture }),
        ...providerOptions,
      }),
    ],
  }
  return { config, memory, storedTokens, sent }
}

async function requestLink(config: AuthConfig, email: string, jar = new CookieJar()) {
  const csrfToken = await csrfTokenFor(config, jar)
  return send(config, jar, "/signin/nodemailer", { form: { csrfToken, email, callbackUrl: "/dashboard" } })
}

/** Where an address the engine refuses sends the user: today's InvalidEmail page, with what was typed. */
function invalidEmailPage(typed: string): string {
  return `${origin}/auth/signin?${new URLSearchParams({ error: "InvalidEmail", email: typed.slice(0, 320) })}`
}

async function sessionEmail(config: AuthConfig, jar: CookieJar): Promise<string | undefined> {
  const session = (await (await send(config, jar, "/session")).json()) as { user?: { email?: string } } | null
  return session?.user?.email
}

describe("hostile addresses are neither mailed nor stored", () => {
  it.each(hostile)("%s", async (_, typed) => {
    const { config, storedTokens, sent } = setup()
    const response = await requestLink(config, typed)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(invalidEmailPage(typed))
    expect(sent).toHaveLength(0)
    expect(storedTokens).toHaveLength(0)
  })

  it.each(hostile.filter(([reason]) => !reason.includes("900 KB")))("over real SMTP: %s", async (_, typed) => {
    const { config, storedTokens } = setup({}, { smtpSender: true })
    const response = await requestLink(config, typed)
    expect(response.headers.get("location")).toBe(invalidEmailPage(typed))
    expect(smtp.messages).toHaveLength(0)
    expect(storedTokens).toHaveLength(0)
  })

  it("x<evil@evil.test> reaches no mailbox: nodemailer would read it as a display name and deliver to evil@evil.test", async () => {
    const { config, storedTokens } = setup({}, { smtpSender: true })
    await requestLink(config, "x<evil@evil.test>")
    expect(smtp.messages.flatMap((mail) => mail.envelopeTo)).toEqual([])
    expect(storedTokens.map((token) => token.identifier)).toEqual([])
  })

  it("a user-supplied normalizeIdentifier whose result is hostile is refused the same way", async () => {
    for (const [normalizeIdentifier, typed] of [
      [(typed: string) => typed.trim(), "x<evil@evil.test>"],
      [(typed: string) => typed.trim(), "alice@exаmple.com"],
      [() => "alice@exa\u200Bmple.com", "alice@example.com"],
      [() => "", "alice@example.com"],
      [() => 42 as unknown as string, "alice@example.com"],
    ] as const) {
      const { config, storedTokens, sent } = setup({ normalizeIdentifier })
      const response = await requestLink(config, typed)
      expect(response.headers.get("location"), typed).toBe(invalidEmailPage(typed))
      expect(sent).toHaveLength(0)
      expect(storedTokens).toHaveLength(0)
    }
  })
})

describe("the address mailed is the identifier stored, and the one signed in", () => {
  it("an IDN domain is mailed and stored as its punycode form; the link signs that in on another device", async () => {
    const { config, storedTokens, sent } = setup()
    const response = await requestLink(config, "User@Bücher.Example")
    expect(response.headers.get("location")).toBe(verifyRequest)
    expect(sent).toHaveLength(1)
    const [mail] = sent
    expect(mail!.identifier).toBe("user@xn--bcher-kva.example")
    expect(storedTokens.map((token) => token.identifier)).toEqual(["user@xn--bcher-kva.example"])
    const link = new URL(mail!.url)
    expect(link.searchParams.get("email")).toBe("user@xn--bcher-kva.example")

    // The Unicode spelling of the same address is not an alias of the stored identifier.
    const unicode = new URL(link)
    unicode.searchParams.set("email", "user@bücher.example")
    expect((await send(config, new CookieJar(), unicode.href)).headers.get("location")).toBe(`${origin}/auth/error?error=Verification`)

    const otherDevice = new CookieJar()
    const followed = await send(config, otherDevice, link.href)
    expect(followed.headers.get("location")).toBe(`${origin}/dashboard`)
    expect(await sessionEmail(config, otherDevice)).toBe("user@xn--bcher-kva.example")
  })

  it("over real SMTP, the envelope recipient and the To header are the stored identifier", async () => {
    // smtp-server hands its application RCPT TO with the domain decoded to Unicode: the envelope as
    // nodemailer sent it is read from what sendMail reports.
    const envelopes: { to: string[] }[] = []
    const createTransport = nodemailer.createTransport.bind(nodemailer)
    const spy = vi.spyOn(nodemailer, "createTransport").mockImplementation(((...args: Parameters<typeof createTransport>) => {
      const transport = createTransport(...args)
      const sendMail = transport.sendMail.bind(transport)
      transport.sendMail = (async (message: Parameters<typeof sendMail>[0]) => {
        const info = await sendMail(message)
        envelopes.push(info.envelope as { to: string[] })
        return info
      }) as typeof transport.sendMail
      return transport
    }) as typeof createTransport)
    try {
      const { config, storedTokens } = setup({}, { smtpSender: true })
      await requestLink(config, "user@bücher.example")
      expect(smtp.messages).toHaveLength(1)
      expect(envelopes.map((envelope) => envelope.to)).toEqual([["user@xn--bcher-kva.example"]])
      expect(smtp.messages[0]!.headers.get("to")).toBe("user@xn--bcher-kva.example")
      expect(storedTokens.map((token) => token.identifier)).toEqual(["user@xn--bcher-kva.example"])
    } finally {
      spy.mockRestore()
    }
  })

  it("ALICE@Example.COM still signs in as alice@example.com", async () => {
    const { config, storedTokens, sent } = setup()
    const response = await requestLink(config, "ALICE@Example.COM")
    expect(response.headers.get("location")).toBe(verifyRequest)
    expect(sent.map((mail) => mail.identifier)).toEqual(["alice@example.com"])
    expect(storedTokens.map((token) => token.identifier)).toEqual(["alice@example.com"])
    const jar = new CookieJar()
    await send(config, jar, sent[0]!.url)
    expect(await sessionEmail(config, jar)).toBe("alice@example.com")
  })

  it("a user normalizer's result is stored and mailed in its canonical form (punycode domain, local part as given)", async () => {
    const { config, storedTokens, sent } = setup({ normalizeIdentifier: (typed) => typed.trim() })
    await requestLink(config, " Alice@Bücher.Example ")
    expect(sent.map((mail) => mail.identifier)).toEqual(["Alice@xn--bcher-kva.example"])
    expect(storedTokens.map((token) => token.identifier)).toEqual(["Alice@xn--bcher-kva.example"])
    expect(new URL(sent[0]!.url).searchParams.get("email")).toBe("Alice@xn--bcher-kva.example")
  })

  it("a token stored for a hostile address (by an older version) signs nobody in", async () => {
    const { config, memory } = setup()
    const token = "f".repeat(64)
    const identifier = "x<evil@evil.test>"
    await memory.createVerificationToken({ identifier, token: sha256(`${token}${secret}`), expires: new Date(Date.now() + 60_000) })
    const jar = new CookieJar()
    const link = `${origin}/auth/callback/nodemailer?${new URLSearchParams({ callbackUrl: `${origin}/dashboard`, token, email: identifier })}`
    const followed = await send(config, jar, link)
    expect(followed.headers.get("location")).toBe(`${origin}/auth/error?error=Verification`)
    expect(await memory.getUserByEmail(identifier)).toBeNull()
    expect(await sessionEmail(config, jar)).toBeUndefined()
  })
})

describe("the built-in senders write to nothing but a canonical address", () => {
  const params = (provider: SendVerificationRequestParams["provider"], identifier: string): SendVerificationRequestParams => ({
    identifier,
    url: `${origin}/auth/callback/${provider.id}?token=t&email=x`,
    token: "t",
    expires: new Date(Date.now() + 60_000),
    provider,
    theme: {},
    request: new Request(`${origin}/auth/signin/${provider.id}`),
  })

  it.each(["x<evil@evil.test>", "ada@exаmple.com", "ada@bücher.example", "ada@Example.com"])(
    "a sendVerificationRequest passing %j to a built-in sender sends nothing",
    async (identifier) => {
      const requests: string[] = []
      const fetchStandIn: typeof fetch = async (input) => (requests.push(String(input)), new Response("{}"))
      const http = { apiKey: "key", from: "login@app.test", [customFetch]: fetchStandIn }
      for (const [send, provider] of [
        [sendWithResend, { ...Resend(), ...http }],
        [sendWithSendGrid, { ...SendGrid(), ...http }],
        [sendWithPostmark, { ...Postmark(), ...http }],
        [sendWithNodemailer, { ...Nodemailer(), server: smtp.server, from: "login@app.test" }],
      ] as const) {
        await expect(send(params(provider, identifier)), provider.id).rejects.toThrow("not a canonical email address")
      }
      expect(requests).toEqual([])
      expect(smtp.messages).toHaveLength(0)
    },
  )
})
