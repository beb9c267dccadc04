/** The one cookie jar and request builder of the kit and of every test, on hand-made answers. */
import { describe, expect, it } from "vitest"
import { CookieJar, buildRequest } from "../../src/testing/cookie-jar.js"

const answer = (...setCookies: string[]) => {
  const headers = new Headers()
  for (const line of setCookies) headers.append("set-cookie", line)
  return new Response(null, { headers })
}

describe("CookieJar", () => {
  it("keeps what is set and forgets what is cleared (empty value, Max-Age ≤ 0, Expires past), saying which", () => {
    const jar = new CookieJar()
    jar.take(answer("a=1; Path=/", "b=2; Path=/", "c=3; Path=/", "d=4; Path=/"))
    expect(jar.lastChanges).toEqual({ set: ["a", "b", "c", "d"], cleared: [] })
    jar.take(answer("a=; Path=/", "b=x; Max-Age=0", "c=x; Max-Age=-1", "d=x; Expires=Thu, 01 Jan 1970 00:00:00 GMT", "e=%7C5; Max-Age=60"))
    expect(jar.lastChanges).toEqual({ set: ["e"], cleared: ["a", "b", "c", "d"] })
    expect(jar.header()).toBe("e=%7C5")
    expect(jar.get("e")).toBe("|5")
    expect(jar.get("a")).toBeUndefined()
  })

  it("one answer setting then clearing a cookie reports it cleared, not set", () => {
    const jar = new CookieJar().take(answer("a=1", "a=; Max-Age=0"))
    expect(jar.lastChanges).toEqual({ set: [], cleared: ["a"] })
  })

  it("sends what a browser would from another site: Strict stays home, a cross-site POST carries only None", () => {
    const jar = new CookieJar().take(answer("lax=1; SameSite=Lax", "strict=2; SameSite=Strict", "none=3; SameSite=None; Secure", "plain=4"))
    expect(jar.header()).toBe("lax=1; strict=2; none=3; plain=4")
    jar.site = "cross-site-get"
    expect(jar.header()).toBe("lax=1; none=3; plain=4")
    jar.site = "cross-site-post"
    expect(jar.header()).toBe("none=3")
    expect(jar.sameSite.get("none")).toBe("none")
  })
})

describe("buildRequest", () => {
  it("GET without a body; the jar's cookies, then the extra cookie", async () => {
    const jar = new CookieJar().take(answer("a=1"))
    const request = buildRequest("https://app.test/auth/session", { cookie: "b=2", headers: { cookie: "ignored=1", accept: "text/html" } }, jar)
    expect(request.method).toBe("GET")
    expect(request.headers.get("cookie")).toBe("a=1; b=2")
    expect(request.headers.get("accept")).toBe("text/html")
    expect(request.body).toBeNull()
  })

  it("a form POSTs urlencoded, JSON POSTs JSON, and an explicit method wins", async () => {
    const form = buildRequest("https://app.test/x", { form: { csrfToken: "t", q: "a b" } })
    expect([form.method, form.headers.get("content-type"), await form.text()]).toEqual(["POST", "application/x-www-form-urlencoded", "csrfToken=t&q=a+b"])
    const json = buildRequest("https://app.test/x", { json: { data: 1 } })
    expect([json.method, json.headers.get("content-type"), await json.text()]).toEqual(["POST", "application/json", '{"data":1}'])
    expect(buildRequest("https://app.test/x", { method: "PUT", form: {} }).method).toBe("PUT")
    expect(buildRequest("https://app.test/x", {}, new CookieJar()).headers.has("cookie")).toBe(false)
  })
})
