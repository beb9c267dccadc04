/**
 * The HTTP senders (Resend, SendGrid, Postmark) through `Auth()`, with a stand-in for the vendor's
 * API given as the provider's `[customFetch]`: the request must be what the vendor documents, the
 * link in it must sign the user in, and a refusal must end on EmailSignin.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { setEnvDefaults } from "../../src/core/env.js"
import { customFetch } from "../../src/core/symbols.js"
import Resend from "../../src/providers/resend.js"
import SendGrid from "../../src/providers/sendgrid.js"
import Postmark from "../../src/providers/postmark.js"
import type { EmailConfig, EmailUserConfig } from "../../src/providers/email-config.js"
import type { AuthConfig } from "../../src/types.js"
import { CookieJar, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"

interface Captured {
  url: string
  method: string
  headers: Headers
  body: Record<string, unknown>
}

/** A stand-in for a mail API: records each request and answers with `status` and `answer`. */
function standIn(status = 200, answer: unknown = { id: "msg_1" }) {
  const requests: Captured[] = []
  const fetchStandIn: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    requests.push({
      url,
      method: init?.method ?? "GET",
      headers: new Headers(init?.headers),
      body: JSON.parse(String(init?.body)) as Record<string, unknown>,
    })
    return new Response(typeof answer === "string" ? answer : JSON.stringify(answer), {
      status,
      headers: { "content-type": "application/json" },
    })
  }
  return { requests, fetchStandIn }
}

interface Vendor {
  id: string
  factory: (config?: EmailUserConfig) => EmailConfig
  endpoint: string
  /** The authentication header the vendor documents, for the API key `key`. */
  auth: (key: string) => [string, string]
  /** Recipient, sender, subject, text and HTML out of the vendor's JSON body. */
  read: (body: Record<string, unknown>) => { to: unknown; from: unknown; subject: unknown; text: unknown; html: unknown }
  /** The sender as the vendor's body carries `Authflow <login@app.test>`. */
  from: unknown
  /** What the vendor answers to a refused message. */
  refusal: { status: number; body: unknown; text: string }
}

const vendors: Vendor[] = [
  {
    id: "resend",
    factory: Resend,
    endpoint: "https://api.resend.com/emails",
    auth: (key) => ["authorization", `Bearer ${key}`],
    read: (body) => ({ to: body.to, from: body.from, subject: body.subject, text: body.text, html: body.html }),
    from: "Authflow <login@app.test>",
    refusal: { status: 422, body: { statusCode: 422, name: "validation_error", message: "The app.test domain is not verified." }, text: "domain is not verified" },
  },
  {
    id: "sendgrid",
    factory: SendGrid,
    endpoint: "https://api.sendgrid.com/v3/mail/send",
    auth: (key) => ["authorization", `Bearer ${key}`],
    read: (body) => {
      const content = body.content as { type: string; value: string }[]
      expect(content.map((part) => part.type)).toEqual(["text/plain", "text/html"])
      const personalizations = body.personalizations as { to: unknown }[]
      return { to: personalizations.map((p) => p.to), from: body.from, subject: body.subject, text: content[0]!.value, html: content[1]!.value }
    },
    from: { email: "login@app.test", name: "Authflow" },
    refusal: { status: 403, body: { errors: [{ message: "The from address does not match a verified Sender Identity.", field: "from" }] }, text: "verified Sender Identity" },
  },
  {
    id: "postmark",
    factory: Postmark,
    endpoint: "https://api.postmarkapp.com/email",
    auth: (key) => ["x-postmark-server-token", key],
    read: (body) => ({ to: body.To, from: body.From, subject: body.Subject, text: body.TextBody, html: body.HtmlBody }),
    from: "Authflow <login@app.test>",
    refusal: { status: 422, body: { ErrorCode: 400, Message: "The 'From' address you supplied is not a Sender Signature on your account." }, text: "not a Sender Signature" },
  },
]

const expectedTo: Record<string, unknown> = {
  resend: ["ada@example.test"],
  sendgrid: [[{ email: "ada@example.test" }]],
  postmark: "ada@example.test",
}

function configFor(vendor: Vendor, options: EmailUserConfig) {
  const { logger, errors } = recordingLogger()
  const config: AuthConfig = { secret: "http-sender-secret", trustHost: true, adapter: MemoryAdapter(), logger, providers: [vendor.factory(options)] }
  return { config, errors }
}

async function requestLink(config: AuthConfig, id: string, email = "Ada@Example.test") {
  const jar = new CookieJar()
  const csrfToken = await csrfTokenFor(config, jar)
  return send(config, jar, `/signin/${id}`, { form: { csrfToken, email, callbackUrl: "/dashboard" } })
}

describe.each(vendors)("$id provider", (vendor) => {
  it("POSTs the documented JSON to the vendor's endpoint with its auth header; the link signs the user in", async () => {
    const api = standIn(vendor.id === "sendgrid" ? 202 : 200, vendor.id === "sendgrid" ? "" : { id: "msg_1" })
    const { config } = configFor(vendor, { apiKey: "key_123", from: "Authflow <login@app.test>", [customFetch]: api.fetchStandIn })
    const response = await requestLink(config, vendor.id)
    expect(response.headers.get("location")).toBe(`${origin}/auth/verify-request?provider=${vendor.id}&type=email`)

    expect(api.requests).toHaveLength(1)
    const [request] = api.requests
    expect(request!.url).toBe(vendor.endpoint)
    expect(request!.method).toBe("POST")
    const [header, value] = vendor.auth("key_123")
    expect(request!.headers.get(header)).toBe(value)
    expect(request!.headers.get("content-type")).toBe("application/json")
    const message = vendor.read(request!.body)
    expect(message.to).toEqual(expectedTo[vendor.id])
    expect(message.from).toEqual(vendor.from)
    expect(message.subject).toBe("Sign in to app.test")
    const link = /https:\/\/\S+/.exec(String(message.text))![0]
    expect(message.text).toBe(`Sign in to app.test\n${link}\n\n`)
    expect(String(message.html)).toContain(`href="${link.replace(/&/g, "&amp;")}"`)
    expect(new URL(link).pathname).toBe(`/auth/callback/${vendor.id}`)

    const jar = new CookieJar()
    const followed = await send(config, jar, link)
    expect(followed.headers.get("location")).toBe(`${origin}/dashboard`)
    const session = (await (await send(config, jar, "/session")).json()) as { user: { email: string } }
    expect(session.user.email).toBe("ada@example.test")
  })

  it("a refusal (non-2xx) ends on EmailSignin and logs the vendor's error text", async () => {
    const api = standIn(vendor.refusal.status, vendor.refusal.body)
    const { config, errors } = configFor(vendor, { apiKey: "key_123", from: "Authflow <login@app.test>", [customFetch]: api.fetchStandIn })
    const response = await requestLink(config, vendor.id)
    expect(response.headers.get("location")).toBe(`${origin}/auth/signin?error=EmailSignin`)
    const logged = errors.find((error) => error.name === "EmailSignInError")
    expect(logged?.message).toContain(`HTTP ${vendor.refusal.status}`)
    expect(logged?.message).toContain(vendor.refusal.text)
  })

  it(`takes the API key from AUTH_${vendor.id.toUpperCase()}_KEY and defaults the sender to no-reply@<host>`, async () => {
    const api = standIn()
    const { config } = configFor(vendor, { [customFetch]: api.fetchStandIn })
    setEnvDefaults({ [`AUTH_${vendor.id.toUpperCase()}_KEY`]: "from_env" }, config)
    await requestLink(config, vendor.id)
    expect(api.requests).toHaveLength(1)
    const [header, value] = vendor.auth("from_env")
    expect(api.requests[0]!.headers.get(header)).toBe(value)
    expect(vendor.read(api.requests[0]!.body).from).toEqual(vendor.id === "sendgrid" ? { email: "no-reply@app.test" } : "no-reply@app.test")
  })

  it("without an API key nothing is sent and the sign-in ends on EmailSignin", async () => {
    const api = standIn()
    const { config, errors } = configFor(vendor, { [customFetch]: api.fetchStandIn })
    const response = await requestLink(config, vendor.id)
    expect(response.headers.get("location")).toBe(`${origin}/auth/signin?error=EmailSignin`)
    expect(api.requests).toHaveLength(0)
    expect(errors.find((error) => error.name === "EmailSignInError")?.message).toContain(`AUTH_${vendor.id.toUpperCase()}_KEY`)
  })

  it("has the expected id, name, type and maxAge", () => {
    expect(vendor.factory()).toMatchObject({ id: vendor.id, type: "email", maxAge: 86400 })
  })
})
