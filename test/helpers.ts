import { Auth } from "../src/index.js"
import type { AuthConfig } from "../src/types.js"

export const origin = "https://app.test"
export const basePath = "/auth"

/** A tiny cookie jar: what a browser would send back after each response. */
export class CookieJar {
  readonly cookies = new Map<string, string>()
  take(response: Response): this {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(";")
      const name = pair!.slice(0, pair!.indexOf("="))
      const value = pair!.slice(pair!.indexOf("=") + 1)
      const cleared = attributes.some((a) => a.trim().toLowerCase() === "max-age=0")
      if (cleared || value === "") this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return this
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ")
  }
  get(name: string): string | undefined {
    const value = this.cookies.get(name)
    return value === undefined ? undefined : decodeURIComponent(value)
  }
}

/** Sends a request through `Auth()` as a browser with `jar` would, and stores the cookies it sets. */
export async function send(
  config: AuthConfig,
  jar: CookieJar,
  path: string,
  init: { method?: "GET" | "POST"; form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers = new Headers(init.headers)
  if (jar.cookies.size) headers.set("cookie", jar.header())
  let body: string | undefined
  if (init.form) {
    headers.set("content-type", "application/x-www-form-urlencoded")
    body = new URLSearchParams(init.form).toString()
  } else if (init.json !== undefined) {
    headers.set("content-type", "application/json")
    body = JSON.stringify(init.json)
  }
  const url = path.startsWith("http") ? path : `${origin}${basePath}${path}`
  const response = await Auth(new Request(url, { method: init.method ?? (body ? "POST" : "GET"), headers, body }), config)
  jar.take(response)
  return response
}

/** GET /csrf and return the token (the jar keeps the cookie). */
export async function csrfTokenFor(config: AuthConfig, jar: CookieJar): Promise<string> {
  const response = await send(config, jar, "/csrf")
  const { csrfToken } = (await response.json()) as { csrfToken: string }
  return csrfToken
}

/** A logger that records instead of printing. */
export function recordingLogger() {
  const errors: Error[] = []
  const warnings: string[] = []
  return {
    errors,
    warnings,
    logger: { error: (e: Error) => void errors.push(e), warn: (code: string) => void warnings.push(code), debug: () => {} },
  }
}
