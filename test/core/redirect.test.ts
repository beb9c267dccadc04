import { describe, expect, it } from "vitest"
import { defaultCallbacks, mergeCallbacks } from "../../src/core/callbacks.js"
import type { AdapterUser } from "../../src/adapters.js"
import type { CallbacksOptions, JWT, Session, SessionCallbackParams } from "../../src/types.js"

const redirect = (url: string, baseUrl = "https://app.example") =>
  Promise.resolve(defaultCallbacks.redirect({ url, baseUrl }))

/** What Auth.js's default does, for the inputs where it does not throw. Used only to compare legitimate cases. */
function authjsRedirect(url: string, baseUrl: string): string {
  if (url.startsWith("/")) return `${baseUrl}${url}`
  if (new URL(url).origin === baseUrl) return url
  return baseUrl
}

/** The result must stay on the site, and must not become an off-site URL if only its path is kept. */
function expectOnSite(result: string, baseUrl: string) {
  const origin = new URL(baseUrl).origin
  const parsed = new URL(result)
  expect(parsed.origin).toBe(origin)
  expect(parsed.username).toBe("")
  expect(parsed.password).toBe("")
  expect(parsed.pathname.startsWith("//")).toBe(false)
  // A browser reads the Location header with the same parser: resolving it again must not move it.
  expect(new URL(result, "https://elsewhere.example").origin).toBe(origin)
  // Safe to place in a Location header as it is; anything but the fallback is in canonical form.
  expect(result).not.toMatch(/[\u0000-\u0020\u007f]/)
  if (result !== baseUrl) expect(parsed.href).toBe(result)
}

const hostile: string[] = [
  "//evil.example",
  "//evil.example/path?x=1",
  "///evil.example",
  "////evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "\\/evil.example",
  "/\\\\evil.example",
  "\\evil.example",
  "/%5Cevil.example",
  "/%2F%2Fevil.example",
  "/%2f/evil.example",
  "%2F%2Fevil.example",
  "https:evil.example",
  "https:/evil.example",
  "https:\\\\evil.example",
  "https:/\\evil.example",
  "http:/evil.example",
  "http:evil.example",
  "http://evil.example",
  "https://evil.example",
  "HTTPS://EVIL.EXAMPLE",
  "HtTpS://evil.example/",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(document.domain)",
  "java\tscript:alert(1)",
  " javascript:alert(1)",
  "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
  "vbscript:msgbox(1)",
  "file:///etc/passwd",
  "ftp://evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "\t//evil.example",
  "\n//evil.example",
  " //evil.example",
  "\u0000//evil.example",
  "\u001f//evil.example",
  "\u0000\u0001 \t\n//evil.example",
  "https://app.example@evil.example",
  "https://app.example:443@evil.example",
  "https://app.example%40evil.example",
  "https://evil.example\\@app.example",
  "https://evil.example#@app.example",
  "https://evil.example?@app.example",
  "https://evil.example/https://app.example",
  "https://app.example.evil.example",
  "https://app.exampleevil.example",
  "https://evil.example\\.app.example",
  "https://\u0430pp.example", // Cyrillic "а"
  "https://xn--pp-7kc.example",
  "https://app.examp\u217Ce", // Roman numeral ⅼ, folded to "l" by IDNA: same host, allowed only if on origin
  "https://app.example:8443/",
  "http://app.example/",
  "//app.example:444",
  "https://user:pass@app.example/",
  "https://:pass@app.example/",
  "https://user@app.example/",
  "https://app.example@app.example/",
  "/..//evil.example",
  "/./\\evil.example",
  "/../\\evil.example",
  "../..//evil.example",
  "https://[::1]/",
  "https://127.0.0.1/",
  "https://0x7f.1/",
  "http://[::1",
  "https://",
  "https://%",
  "\\\\evil.example/%2e%2e",
  "/\u3000/evil.example",
  "/\u00a0/evil.example",
  "\u00a0//evil.example",
  "\u2028//evil.example",
  "/%09/evil.example",
  "/%0a/evil.example",
  "//%65vil.example",
  "//evil%2eexample",
  "//evil.example%2f@app.example",
  "/\\t/evil.example",
]

describe("defaultCallbacks.redirect: hostile inputs stay on the site", () => {
  it("has a large table", () => {
    expect(hostile.length).toBeGreaterThanOrEqual(30)
  })

  describe.each(["https://app.example", "http://localhost:3000", "https://app.example/base/path"])("baseUrl %s", (baseUrl) => {
    it.each(hostile)("%j", async (url) => {
      const result = await redirect(url, baseUrl)
      expectOnSite(result, baseUrl)
    })
  })

  it("never throws, even on values that make Auth.js throw", async () => {
    for (const url of ["http://[::1", "https://", "not a url", "::", "a:b"]) {
      await expect(redirect(url)).resolves.toBeTypeOf("string")
      expect(await redirect(url)).toMatch(/^https:\/\/app\.example/)
    }
  })

  it("falls back to baseUrl for off-site URLs", async () => {
    for (const url of ["//evil.example", "/\\evil.example", "https://evil.example", "javascript:alert(1)"]) {
      expect(await redirect(url)).toBe("https://app.example")
    }
  })

  it("rejects non-string values at run time", async () => {
    for (const url of [undefined, null, 42, ["/a"], { toString: () => "//evil.example" }]) {
      expect(await redirect(url as unknown as string)).toBe("https://app.example")
    }
  })

  it("returns an unusable baseUrl as given instead of throwing", async () => {
    expect(await redirect("/x", "not a url")).toBe("not a url")
    // An opaque origin must not match javascript: or data: URLs, whose origin is "null" too.
    expect(await redirect("javascript:alert(1)", "data:text/html,hi")).toBe("data:text/html,hi")
  })

  it("stays on the site for generated combinations", async () => {
    const pieces = [
      "/", "\\", "//", "\t", "\n", " ", "\u0000", "%2F", "%5C", "%2e", ".", "..", "@", "#", "?", ":",
      "https:", "http:", "HTTPS:", "javascript:", "evil.example", "app.example", "app.example.", ":443", ":80",
    ]
    let seed = 0x2545f491
    const random = () => {
      seed ^= seed << 13
      seed ^= seed >>> 17
      seed ^= seed << 5
      return (seed >>> 0) / 0x100000000
    }
    const baseUrl = "https://app.example"
    for (let i = 0; i < 3000; i++) {
      const length = 1 + Math.floor(random() * 6)
      let url = ""
      for (let j = 0; j < length; j++) url += pieces[Math.floor(random() * pieces.length)]
      const result = await redirect(url, baseUrl)
      try {
        expectOnSite(result, baseUrl)
      } catch (error) {
        throw new Error(`input ${JSON.stringify(url)} gave ${JSON.stringify(result)}`, { cause: error })
      }
    }
  })
})

describe("defaultCallbacks.redirect: legitimate inputs", () => {
  const baseUrl = "https://app.example"
  const same: [string, string][] = [
    ["/", "https://app.example/"],
    ["/dashboard", "https://app.example/dashboard"],
    ["/account?tab=security&x=1#top", "https://app.example/account?tab=security&x=1#top"],
    ["/search?q=%2F%2Fevil.example", "https://app.example/search?q=%2F%2Fevil.example"],
    ["/path?next=https://evil.example", "https://app.example/path?next=https://evil.example"],
    ["https://app.example", "https://app.example"],
    ["https://app.example/", "https://app.example/"],
    ["https://app.example/settings?x=1#y", "https://app.example/settings?x=1#y"],
  ]

  it.each(same)("%j gives %j, like Auth.js", async (url, expected) => {
    const result = await redirect(url, baseUrl)
    // Auth.js returns the input itself for a same-origin absolute URL; ours is its normalised href.
    expect(new URL(result).href).toBe(new URL(expected).href)
    expect(new URL(result).href).toBe(new URL(authjsRedirect(url, baseUrl)).href)
  })

  it("normalises what it returns", async () => {
    expect(await redirect("HTTPS://APP.EXAMPLE/Path", baseUrl)).toBe("https://app.example/Path")
    expect(await redirect("https://app.example:443/x", baseUrl)).toBe("https://app.example/x")
    expect(await redirect("/a/../b", baseUrl)).toBe("https://app.example/b")
    expect(await redirect("/a b", baseUrl)).toBe("https://app.example/a%20b")
    expect(await redirect("//app.example/x", baseUrl)).toBe("https://app.example/x")
  })

  it("accepts paths relative to the base, and relative to its path", async () => {
    expect(await redirect("dashboard", baseUrl)).toBe("https://app.example/dashboard")
    expect(await redirect("?x=1", baseUrl)).toBe("https://app.example/?x=1")
    expect(await redirect("#frag", baseUrl)).toBe("https://app.example/#frag")
    expect(await redirect("next", "https://app.example/base/")).toBe("https://app.example/base/next")
  })

  it("with a baseUrl that has a path, '/x' resolves to the origin's root", async () => {
    expect(await redirect("/x", "https://app.example/base")).toBe("https://app.example/x")
    expect(await redirect("https://evil.example", "https://app.example/base")).toBe("https://app.example/base")
  })

  it("rejects the same host on another port or scheme", async () => {
    expect(await redirect("https://app.example:8443/x", baseUrl)).toBe(baseUrl)
    expect(await redirect("http://app.example/x", baseUrl)).toBe(baseUrl)
    expect(await redirect("http://localhost:3001/x", "http://localhost:3000")).toBe("http://localhost:3000")
    expect(await redirect("http://localhost:3000/x", "http://localhost:3000")).toBe("http://localhost:3000/x")
  })

  it("handles internationalised origins", async () => {
    const idn = "https://bücher.example"
    expect(await redirect("https://xn--bcher-kva.example/x", idn)).toBe("https://xn--bcher-kva.example/x")
    expect(await redirect("https://bücher.example/x", idn)).toBe("https://xn--bcher-kva.example/x")
    expect(await redirect("https://bucher.example/x", idn)).toBe(idn)
  })

  it("returns an empty value as baseUrl", async () => {
    expect(await redirect("", baseUrl)).toBe(baseUrl)
    expect(await redirect("   ", baseUrl)).toBe(baseUrl)
  })
})

describe("defaultCallbacks: signIn, jwt, session", () => {
  it("allows every sign-in", async () => {
    expect(await defaultCallbacks.signIn({ user: { id: "1" } })).toBe(true)
  })

  it("returns the token unchanged", async () => {
    const token: JWT = { sub: "1", name: "A", role: "admin" }
    expect(await defaultCallbacks.jwt({ token })).toBe(token)
  })

  it("shapes a JWT-strategy session from the token", async () => {
    const token: JWT = { sub: "1", name: "Ada", email: "ada@example.com", picture: "https://img.example/a.png", role: "x" }
    const session: Session = { user: { name: "stale", email: "stale" }, expires: "2030-01-01T00:00:00.000Z" }
    const result = await defaultCallbacks.session({ session, token } as SessionCallbackParams)
    expect(result).toEqual({
      user: { name: "Ada", email: "ada@example.com", image: "https://img.example/a.png" },
      expires: "2030-01-01T00:00:00.000Z",
    })
    expect(JSON.parse(JSON.stringify(result))).not.toHaveProperty("role")
  })

  it("shapes a database-strategy session from the user", async () => {
    const user: AdapterUser = { id: "u1", name: "Ada", email: "ada@example.com", image: null, emailVerified: null }
    const expires = new Date("2030-01-01T00:00:00.000Z")
    const session = { sessionToken: "t", userId: "u1", expires, user } as unknown as SessionCallbackParams["session"]
    const result = await defaultCallbacks.session({ session, user } as SessionCallbackParams)
    expect(result).toEqual({
      user: { name: "Ada", email: "ada@example.com", image: null },
      expires: "2030-01-01T00:00:00.000Z",
    })
    expect(JSON.stringify(result)).not.toContain("sessionToken")
    expect(JSON.stringify(result)).not.toContain("u1")
  })

  it("prefers the token, then the user, then the session's own user", async () => {
    const session = { user: { name: "From session", email: "s@example.com", image: "s.png" }, expires: "2030-01-01T00:00:00.000Z" } as unknown as SessionCallbackParams["session"]
    const user = { id: "u1", name: "From user", email: "u@example.com", image: "u.png", emailVerified: null } as AdapterUser
    expect((await defaultCallbacks.session({ session, user } as SessionCallbackParams)).user).toEqual({ name: "From user", email: "u@example.com", image: "u.png" })
    expect((await defaultCallbacks.session({ session } as SessionCallbackParams)).user).toEqual({ name: "From session", email: "s@example.com", image: "s.png" })
    expect((await defaultCallbacks.session({ session, user, token: { name: "From token" } } as SessionCallbackParams)).user).toEqual({ name: "From token", email: undefined, image: undefined })
  })

  it("a session without a user, or no session at all, gives an empty user and no expiry instead of throwing", async () => {
    const bare = { expires: "2030-01-01T00:00:00.000Z" } as unknown as SessionCallbackParams["session"]
    expect(await defaultCallbacks.session({ session: bare } as SessionCallbackParams)).toEqual({ user: { name: undefined, email: undefined, image: undefined }, expires: "2030-01-01T00:00:00.000Z" })
    expect(await defaultCallbacks.session({} as SessionCallbackParams)).toEqual({ user: { name: undefined, email: undefined, image: undefined }, expires: undefined })
  })

  it("is frozen", () => {
    expect(Object.isFrozen(defaultCallbacks)).toBe(true)
  })
})

describe("mergeCallbacks", () => {
  it("returns the defaults without user callbacks", () => {
    const merged = mergeCallbacks()
    expect(merged).toEqual(defaultCallbacks)
    expect(merged).not.toBe(defaultCallbacks)
  })

  it("overlays the given callbacks one by one", () => {
    const signIn: CallbacksOptions["signIn"] = () => false
    const merged = mergeCallbacks({ signIn })
    expect(merged.signIn).toBe(signIn)
    expect(merged.redirect).toBe(defaultCallbacks.redirect)
    expect(merged.session).toBe(defaultCallbacks.session)
    expect(merged.jwt).toBe(defaultCallbacks.jwt)
  })

  it("keeps the default where the user's value is undefined", () => {
    const merged = mergeCallbacks({ redirect: undefined })
    expect(merged.redirect).toBe(defaultCallbacks.redirect)
  })

  it("reads callbacks defined on a prototype", () => {
    class Callbacks {
      redirect() {
        return "https://app.example/custom"
      }
    }
    const merged = mergeCallbacks(new Callbacks() as unknown as Partial<CallbacksOptions>)
    expect(merged.redirect({ url: "/", baseUrl: "https://app.example" })).toBe("https://app.example/custom")
  })

  it("does not change the defaults", () => {
    const before = { ...defaultCallbacks }
    mergeCallbacks({ jwt: () => null })
    expect({ ...defaultCallbacks }).toEqual(before)
  })
})
