import { describe, expect, it } from "vitest"
import { senderOf, signInMessage, signInMessageOf } from "../../src/providers/email-message.js"

const url = "https://app.example.test/auth/callback/email?callbackUrl=https%3A%2F%2Fapp.example.test&token=abc&email=ada%40example.test"

describe("the default sign-in message", () => {
  it("has the subject, the text body and the HTML body with a Sign in button", () => {
    const { subject, text, html } = signInMessage({ url })
    expect(subject).toBe("Sign in to app.example.test")
    expect(text).toBe(`Sign in to app.example.test\n${url}\n\n`)
    expect(html).toContain("Sign in to <strong>app.&#8203;example.&#8203;test</strong>")
    expect(html).toContain(`<a href="${url.replace(/&/g, "&amp;")}"`)
    expect(html).toContain(">Sign in</a>")
    expect(html).toContain("If you did not request this email you can safely ignore it.")
    expect(html).toContain("background: #346df1")
    expect(html).toContain("color: #fff;")
    // The raw host never appears in the HTML where a mail client could link it.
    expect(html).not.toContain("app.example.test<")
  })

  it("keeps the port in the host", () => {
    expect(signInMessage({ url: "http://localhost:3000/auth/callback/email?token=t" }).subject).toBe("Sign in to localhost:3000")
  })

  it("escapes what it is given", () => {
    const { html } = signInMessage({ url: "https://app.test/cb?x='%22&y=<b>" })
    expect(html).toContain(`href="https://app.test/cb?x=&#39;%22&amp;y=&lt;b&gt;"`)
    expect(html).not.toMatch(/<b>/)
  })

  it.each([
    ["#0a7f3c", "#0a7f3c"],
    ["#abc", "#abc"],
    ["rebeccapurple", "rebeccapurple"],
    ["rgb(10, 20, 30)", "rgb(10, 20, 30)"],
    ["", "#346df1"],
    ["red; background-image: url(https://evil.test)", "#346df1"],
    ['#fff" onclick="alert(1)', "#346df1"],
    ["expression(alert(1))", "#346df1"],
  ])("brandColor %j is used as %j", (brandColor, used) => {
    expect(signInMessage({ url, theme: { brandColor } }).html).toContain(`bgcolor="${used}"`)
  })
})

describe("senderOf", () => {
  it("is the provider's from, or no-reply at the link's host name", () => {
    expect(senderOf({ from: "Team <team@example.test>" }, url)).toBe("Team <team@example.test>")
    expect(senderOf({}, url)).toBe("no-reply@app.example.test")
    expect(senderOf({}, "http://localhost:3000/auth/callback/email")).toBe("no-reply@localhost")
  })

  it("shows an emailed code above the button, or instead of it", () => {
    const beside = signInMessage({ url, code: "038114" })
    expect(beside.text).toBe(`Sign in to app.example.test\nYour sign-in code, valid 10 minutes: 038114\n${url}\n\n`)
    expect(beside.html).toContain(">038114</strong>")
    expect(beside.html).toContain(">Sign in</a>")
    const codePage = "https://app.example.test/auth/verify-request?provider=email&type=code"
    const instead = signInMessage({ url: codePage, code: "038114", link: false })
    expect(instead.text).toBe("Sign in to app.example.test\nYour sign-in code, valid 10 minutes: 038114\n\n")
    expect(instead.html).not.toContain("href=")
    expect(signInMessage({ url, code: "<b>" }).html).toContain(">&lt;b&gt;</strong>")
  })

  it("signInMessageOf writes what the provider's parameters carry: a link, a code beside it, or a code alone", () => {
    const theme = {}
    expect(signInMessageOf({ url, theme, token: "abc" })).toEqual(signInMessage({ url, theme }))
    expect(signInMessageOf({ url, theme, token: "abc", code: "038114" })).toEqual(signInMessage({ url, theme, code: "038114" }))
    expect(signInMessageOf({ url, theme, token: "", code: "038114" })).toEqual(signInMessage({ url, theme, code: "038114", link: false }))
  })
})
