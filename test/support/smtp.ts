/**
 * A real SMTP server for tests (smtp-server on 127.0.0.1, any port) that keeps what it receives,
 * and a minimal MIME reader for the messages Nodemailer writes: headers, multipart/alternative,
 * quoted-printable and base64 parts, RFC 2047 encoded words.
 */
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"
import { afterAll, beforeAll, beforeEach } from "vitest"

export interface ReceivedMail {
  /** Envelope sender and recipients, as the SMTP session saw them. */
  envelopeFrom: string
  envelopeTo: string[]
  headers: Map<string, string>
  subject: string
  text: string
  html: string
  /** The first http(s) URL of the text part. */
  link: string
  raw: string
}

export interface TestSmtp {
  port: number
  /** Every accepted message, in order. */
  messages: ReceivedMail[]
  /** Recipients the server refuses at RCPT TO (550). */
  refused: Set<string>
  /** What nodemailer's `server` option needs to reach it. */
  server: { host: string; port: number; secure: false; ignoreTLS: true }
  close(): Promise<void>
}

/**
 * The server of one test file: started before its tests, closed after them, its mailbox and
 * refusals emptied before each test. The object is filled in once the server runs.
 */
export function smtpForFile(): TestSmtp {
  const smtp = {} as TestSmtp
  beforeAll(async () => void Object.assign(smtp, await startSmtp()))
  afterAll(() => smtp.close())
  beforeEach(() => {
    smtp.messages.length = 0
    smtp.refused.clear()
  })
  return smtp
}

export async function startSmtp(): Promise<TestSmtp> {
  const messages: ReceivedMail[] = []
  const refused = new Set<string>()
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refused.has(address.address.toLowerCase())) {
        const error = Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 })
        callback(error)
        return
      }
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("latin1")
        const from = session.envelope.mailFrom
        messages.push(
          parseMail(
            raw,
            from ? from.address : "",
            session.envelope.rcptTo.map((r) => r.address),
          ),
        )
        callback()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    smtp.once("error", reject)
    smtp.listen(0, "127.0.0.1", () => resolve())
  })
  const port = (smtp.server.address() as AddressInfo).port
  return {
    port,
    messages,
    refused,
    server: { host: "127.0.0.1", port, secure: false, ignoreTLS: true },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  }
}

/** Header block → lower-cased names to unfolded values (first occurrence wins). */
function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>()
  const unfolded = block.replace(/\r?\n[ \t]+/g, " ")
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(":")
    if (colon <= 0) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim())
  }
  return headers
}

function splitEntity(entity: string): { headers: Map<string, string>; body: string } {
  const match = /\r?\n\r?\n/.exec(entity)
  if (!match) return { headers: parseHeaders(entity), body: "" }
  return { headers: parseHeaders(entity.slice(0, match.index)), body: entity.slice(match.index + match[0].length) }
}

/** Bytes held in a latin1 string → UTF-8 text. */
function utf8(latin1: string): string {
  return Buffer.from(latin1, "latin1").toString("utf8")
}

/** Quoted-printable: soft line breaks (`=` at the end of a line) removed, `=XX` decoded. */
export function decodeQuotedPrintable(body: string): string {
  const joined = body.replace(/=\r?\n/g, "")
  return utf8(joined.replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))))
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch (encoding?.toLowerCase()) {
    case "quoted-printable":
      return decodeQuotedPrintable(body)
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
    default:
      return utf8(body)
  }
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) in a header value. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === "B"
        ? Buffer.from(data, "base64").toString("utf8")
        : decodeQuotedPrintable(data.replace(/_/g, " ")),
    )
}

function parameter(header: string | undefined, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}="?([^";]+)"?`, "i").exec(header ?? "")
  return match?.[1]
}

/** Text and HTML parts of an entity, descending into multiparts. */
function collectParts(entity: string, into: { text: string[]; html: string[] }): void {
  const { headers, body } = splitEntity(entity)
  const type = headers.get("content-type") ?? "text/plain"
  const boundary = parameter(type, "boundary")
  if (/^multipart\//i.test(type) && boundary) {
    const sections = body.split(new RegExp(`\\r?\\n?--${boundary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:--)?\\r?\\n?`))
    for (const section of sections.slice(1)) if (section.trim()) collectParts(section, into)
    return
  }
  const decoded = decodeBody(body, headers.get("content-transfer-encoding"))
  if (/^text\/html/i.test(type)) into.html.push(decoded)
  else if (/^text\/plain/i.test(type)) into.text.push(decoded)
}

export function parseMail(raw: string, envelopeFrom: string, envelopeTo: string[]): ReceivedMail {
  const { headers } = splitEntity(raw)
  const parts = { text: [] as string[], html: [] as string[] }
  collectParts(raw, parts)
  const text = parts.text.join("\n")
  return {
    envelopeFrom,
    envelopeTo,
    headers,
    subject: decodeWords(headers.get("subject") ?? ""),
    text,
    html: parts.html.join("\n"),
    link: /https?:\/\/\S+/.exec(text)?.[0] ?? "",
    raw,
  }
}
