import { describe, expect, it } from "vitest"
import {
  DEFAULT_SIGNIN_ERROR,
  renderErrorPage,
  renderSignInPage,
  renderSignOutPage,
  renderVerifyRequestPage,
  type PageProvider,
} from "../../src/pages/index.js"
import { BASE, CSRF, ORIGIN, allProviders, credentials, email, github, google } from "./fixtures.js"
import { firstTag, formsOf, styleOf, textOf, titleOf } from "./html.js"

function bodyClass(html: string): string | undefined {
  return /<body class="([^"]*)"/.exec(html)?.[1]
}

describe("every page", () => {
  const rendered = {
    "Sign In": renderSignInPage({ providers: allProviders, csrfToken: CSRF, theme: {} }),
    "Sign Out": renderSignOutPage({ url: `${BASE}/signout`, csrfToken: CSRF, theme: {} }),
    Error: renderErrorPage({ url: `${BASE}/error`, signinUrl: `${BASE}/signin`, host: ORIGIN, theme: {} }),
    "Verify Request": renderVerifyRequestPage({ url: ORIGIN, theme: {} }),
  }

  for (const [title, page] of Object.entries(rendered)) {
    it(`${title}: is a complete English document with viewport, title and theme class`, () => {
      expect(page.html.startsWith("<!DOCTYPE html><html lang=\"en\">")).toBe(true)
      expect(page.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>')
      expect(page.html).toContain('<meta charset="utf-8"/>')
      expect(titleOf(page.html)).toBe(title)
      expect(bodyClass(page.html)).toBe("__next-auth-theme-auto")
      expect(page.html).toMatch(/<\/html>$/)
      // Self-contained: no external scripts, stylesheets or fonts; the only script a page without
      // passkeys carries is the inline credentials helper (it keeps the username after a refusal).
      expect(page.html).not.toMatch(/<script[^>]+src=|<link|@import|url\(/i)
      expect(page.html.replace(/<script>\(\(\) => \{\n  const key = \(form\) => "authflow:credentials:"[\s\S]*?<\/script>/, "")).not.toContain("<script")
    })
  }
})

describe("renderSignInPage", () => {
  const callbackUrl = `${ORIGIN}/dashboard`
  const page = renderSignInPage({ providers: allProviders, csrfToken: CSRF, callbackUrl, theme: {} })
  const forms = formsOf(page.html)

  it("renders with status 200 and one form per provider, in order", () => {
    expect(page.status).toBe(200)
    expect(forms.map((form) => form.attributes.action)).toEqual([
      github.signinUrl,
      google.signinUrl,
      email.signinUrl,
      credentials.callbackUrl,
    ])
    for (const form of forms) expect(form.attributes.method).toBe("post")
  })

  it("posts csrfToken and callbackUrl for OAuth and OIDC, with a 'Sign in with <name>' button", () => {
    for (const [form, provider] of [[forms[0]!, github], [forms[1]!, google]] as const) {
      expect(form.inputs).toEqual([
        { type: "hidden", name: "csrfToken", value: CSRF },
        { type: "hidden", name: "callbackUrl", value: callbackUrl },
      ])
      expect(form.buttons).toEqual([`Sign in with ${provider.name}`])
    }
  })

  it("leaves callbackUrl out when there is none", () => {
    const [form] = formsOf(renderSignInPage({ providers: [github], csrfToken: CSRF, theme: {} }).html)
    expect(form!.inputs).toEqual([{ type: "hidden", name: "csrfToken", value: CSRF }])
  })

  it("gives the email provider a labelled, required email field and no callbackUrl", () => {
    const form = forms[2]!
    expect(form.inputs.filter((input) => input.type === "hidden")).toEqual([{ type: "hidden", name: "csrfToken", value: CSRF }])
    const field = form.inputs.find((input) => input.name === "email")!
    expect(field).toMatchObject({ type: "email", placeholder: "email@example.com", required: "" })
    expect(form.labels).toEqual([{ for: field.id, text: "Email" }])
    expect(form.buttons).toEqual(["Sign in with Email"])
  })

  it("prefills the email field", () => {
    const html = renderSignInPage({ providers: [email], csrfToken: CSRF, email: "ada@example.com", theme: {} }).html
    expect(formsOf(html)[0]!.inputs.find((input) => input.name === "email")!.value).toBe("ada@example.com")
  })

  it("gives credentials one labelled field per key, posting to the provider's callback URL", () => {
    const form = forms[3]!
    expect(form.inputs[0]).toEqual({ type: "hidden", name: "csrfToken", value: CSRF })
    const [username, password] = form.inputs.slice(1)
    expect(username).toMatchObject({ name: "username", type: "text", placeholder: "jsmith", autocomplete: "username" })
    expect(password).toMatchObject({ name: "password", type: "password", placeholder: "" })
    expect(form.labels).toEqual([
      { for: username!.id, text: "Username" },
      { for: password!.id, text: "Password" },
    ])
    expect(new Set(form.inputs.map((input) => input.id)).size).toBe(form.inputs.length)
    expect(form.buttons).toEqual(["Sign in with Credentials"])
  })

  it("defaults a credential's label to its key and type to text, and passes plain attributes through", () => {
    const provider: PageProvider = {
      ...credentials,
      credentials: {
        otp: { inputmode: "numeric", maxlength: 6, required: true, pattern: "[0-9]{6}", onclick: "steal()", style: "display:none", form: "elsewhere" },
      },
    }
    const [form] = formsOf(renderSignInPage({ providers: [provider], csrfToken: CSRF, theme: {} }).html)
    const field = form!.inputs.find((input) => input.name === "otp")!
    expect(field).toMatchObject({ type: "text", inputmode: "numeric", maxlength: "6", required: "", pattern: "[0-9]{6}" })
    expect(field).not.toHaveProperty("onclick")
    expect(field).not.toHaveProperty("style")
    expect(field).not.toHaveProperty("form")
    expect(form!.labels).toEqual([{ for: field.id, text: "otp" }])
  })

  it("writes a credential's React-style attribute names as HTML's, and still drops handlers and raw HTML", () => {
    const provider: PageProvider = {
      ...credentials,
      credentials: {
        otp: { maxLength: 6, autoComplete: "one-time-code", inputMode: "numeric", className: "otp", readOnly: false, onClick: "steal()", dangerouslySetInnerHTML: "<b>x</b>", constructor: "c" },
      },
    }
    const html = renderSignInPage({ providers: [provider], csrfToken: CSRF, theme: {} }).html
    const field = formsOf(html)[0]!.inputs.find((input) => input.name === "otp")!
    expect(field).toEqual({ maxlength: "6", autocomplete: "one-time-code", inputmode: "numeric", class: "otp", constructor: "c", id: field.id, name: "otp", type: "text", placeholder: "" })
    expect(html).not.toContain("<b>x</b>")
  })

  it("shows credentials only with fields", () => {
    const providers: PageProvider[] = [{ ...credentials, credentials: undefined }]
    expect(formsOf(renderSignInPage({ providers, csrfToken: CSRF, theme: {} }).html)).toEqual([])
  })

  it("shows a webauthn provider as a passkey form with its fields and the inlined browser library, no CDN", () => {
    const passkey: PageProvider = {
      id: "passkey", name: "Passkey", type: "webauthn", signinUrl: `${BASE}/signin/passkey`, callbackUrl: `${BASE}/callback/passkey`,
      formFields: { email: { label: "Email", required: true, autocomplete: "username webauthn" } },
      enableConditionalUI: true,
    }
    const html = renderSignInPage({ providers: [passkey], csrfToken: CSRF, callbackUrl: "https://app.example/dashboard", theme: {} }).html
    const [form] = formsOf(html)
    expect(form?.attributes).toMatchObject({ action: `${BASE}/callback/passkey`, method: "post", "data-webauthn-options": `${BASE}/webauthn-options/passkey`, "data-webauthn-conditional": "true" })
    expect(form?.inputs.map((input) => [input.name, input.type])).toEqual([["csrfToken", "hidden"], ["callbackUrl", "hidden"], ["action", "hidden"], ["data", "hidden"], ["email", "email"]])
    expect(form?.inputs.find((input) => input.name === "email")).toMatchObject({ autocomplete: "username webauthn", required: "" })
    expect(form?.buttons).toEqual(["Sign in with Passkey"])
    expect(html).toContain("[@simplewebauthn/browser@14.0.0]")
    expect(html).not.toMatch(/<script[^>]+src=/)
    // Pages without a passkey provider carry no library: at most the small credentials helper.
    const plain = renderSignInPage({ providers: [credentials], theme: {} }).html
    expect(plain).not.toContain("simplewebauthn")
    expect(plain.match(/<script>[\s\S]*?<\/script>/g)?.join("").length).toBeLessThan(1200)
    expect(renderSignInPage({ providers: [github], theme: {} }).html).not.toContain("<script")
  })

  it("adds webauthn to the email field's autocomplete only when conditional UI is on", () => {
    const passkey: PageProvider = {
      id: "webauthn", name: "WebAuthn", type: "webauthn", signinUrl: `${BASE}/signin/webauthn`, callbackUrl: `${BASE}/callback/webauthn`,
      formFields: { email: { label: "Email", autocomplete: "email" } },
    }
    const email = (provider: PageProvider) => formsOf(renderSignInPage({ providers: [provider], theme: {} }).html)[0]?.inputs.find((input) => input.name === "email")
    expect(email(passkey)?.autocomplete).toBe("email")
    expect(email({ ...passkey, enableConditionalUI: true })?.autocomplete).toBe("email webauthn")
  })

  it("puts separators between the button group and each form-based provider", () => {
    const separators = (providers: PageProvider[]) =>
      (renderSignInPage({ providers, csrfToken: CSRF, theme: {} }).html.match(/role="separator"/g) ?? []).length
    expect(separators(allProviders)).toBe(2)
    expect(separators([github, google])).toBe(0)
    expect(separators([github, email])).toBe(1)
    expect(separators([email, credentials])).toBe(1)
    expect(separators([github, email, google])).toBe(2)
  })

  it("shows a provider logo only when the provider sets one, and never fetches from a CDN", () => {
    expect(page.html).not.toContain("<img")
    expect(page.html).not.toContain("authjs.dev")
    const withLogo = renderSignInPage({ providers: [{ ...github, style: { logo: "/logos/github.svg" } }], theme: {} }).html
    const img = firstTag(withLogo, "img")
    expect(img).toMatchObject({ src: "/logos/github.svg", alt: "" })
  })

  it("colours branded buttons with readable text and leaves unstyled ones neutral", () => {
    const button = (provider: PageProvider) => firstTag(renderSignInPage({ providers: [provider], theme: {} }).html, "button")!
    expect(button(github)).toMatchObject({ class: "button branded", style: "--provider-bg:#24292f;--provider-text:#ffffff" })
    expect(button(google)).toMatchObject({ class: "button neutral" })
    expect(button(google).style).toBeUndefined()
    expect(button({ ...google, style: { bg: "#1d4ed8" } }).style).toBe("--provider-bg:#1d4ed8;--provider-text:#ffffff")
    // No text colour, or an unreadable one: black or white is picked instead.
    expect(button({ ...google, style: { bg: "#fff" } }).style).toBe("--provider-bg:#fff;--provider-text:#000000")
    expect(button({ ...google, style: { bg: "#1d4ed8", text: "#1a73e8" } }).style).toBe("--provider-bg:#1d4ed8;--provider-text:#ffffff")
    expect(button({ ...google, style: { brandColor: "#000000", bg: "#ffffff" } }).style).toBe("--provider-bg:#000000;--provider-text:#ffffff")
  })

  describe("error messages", () => {
    const messages: Record<string, string> = {
      Signin: "Try signing in with a different account.",
      OAuthSignin: "Try signing in with a different account.",
      OAuthCallbackError: "Try signing in with a different account.",
      OAuthCreateAccount: "Try signing in with a different account.",
      EmailCreateAccount: "Try signing in with a different account.",
      Callback: "Try signing in with a different account.",
      OAuthAccountNotLinked: "To confirm your identity, sign in with the same account you used originally.",
      EmailSignin: "The e-mail could not be sent.",
      CredentialsSignin: "Sign in failed. Check the details you provided are correct.",
      SessionRequired: "Please sign in to access this page.",
      MissingCSRF: "Unable to sign in.",
      AccountNotLinked: "Unable to sign in.",
      Nonsense: "Unable to sign in.",
      toString: "Unable to sign in.",
      __proto__: "Unable to sign in.",
    }
    for (const [error, message] of Object.entries(messages)) {
      it(`${error} → "${message}"`, () => {
        const html = renderSignInPage({ providers: allProviders, csrfToken: CSRF, error, theme: {} }).html
        const alert = /<div class="alert" role="alert" id="signin-error" tabindex="-1" autofocus>([\s\S]*?)<\/div>/.exec(html)
        expect(alert, "an alert box, focused on load").not.toBeNull()
        expect(textOf(/<p>([\s\S]*?)<\/p>/.exec(alert![1]!)![1]!)).toBe(message)
      })
    }

    it("shows no alert without an error", () => {
      expect(page.html).not.toContain('role="alert"')
      expect(DEFAULT_SIGNIN_ERROR).toBe("Unable to sign in.")
    })
  })
})

describe("escaping hostile input", () => {
  const hostile = '"><script>alert(1)</script>'
  const provider: PageProvider = {
    id: `x${hostile}`,
    name: "<script>alert(1)</script>",
    type: "credentials",
    signinUrl: `${BASE}/signin/x`,
    callbackUrl: `${BASE}/callback/x`,
    credentials: { [`user${hostile}`]: { label: `<img src=x onerror=alert(1)>`, placeholder: hostile, autocomplete: hostile } },
  }
  const html = renderSignInPage({
    providers: [{ ...github, name: "<script>alert(1)</script>" }, { ...email, name: hostile }, provider],
    csrfToken: hostile,
    callbackUrl: hostile,
    email: hostile,
    error: hostile,
    theme: {},
  }).html

  it("never lets a script or an injected element through", () => {
    // The one script is the page's own credentials helper, which reads no provider value.
    expect(html.match(/<script/gi)).toHaveLength(1)
    expect(html).toMatch(/<script>\(\(\) => \{\n  const key = \(form\) => "authflow:credentials:"/)
    expect(html).not.toMatch(/<img src=x/i)
    expect(html).toContain("Sign in with &lt;script>alert(1)&lt;/script>")
  })

  it("keeps hostile values intact as attribute values", () => {
    const forms = formsOf(html)
    expect(forms[0]!.inputs).toEqual([
      { type: "hidden", name: "csrfToken", value: hostile },
      { type: "hidden", name: "callbackUrl", value: hostile },
    ])
    expect(forms[1]!.inputs.find((input) => input.type === "email")!.value).toBe(hostile)
    const field = forms[2]!.inputs[1]!
    expect(field).toMatchObject({ name: `user${hostile}`, placeholder: hostile, autocomplete: hostile })
    expect(forms[2]!.labels[0]!.text).toBe("<img src=x onerror=alert(1)>")
    // The id stays a single token so the label still points at its field.
    expect(field.id).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(forms[2]!.labels[0]!.for).toBe(field.id)
  })

  it("refuses javascript: URLs in form actions, links and images", () => {
    const evil = "java\nscript:alert(1)"
    const signin = renderSignInPage({
      providers: [{ ...github, signinUrl: evil, style: { logo: "javascript:alert(1)" } }],
      theme: { logo: "javascript:alert(1)" },
    }).html
    expect(signin).not.toMatch(/javascript:/i)
    expect(formsOf(signin)[0]!.attributes.action).toBe("#")
    const error = renderErrorPage({ error: "AccessDenied", url: "", signinUrl: "JavaScript:alert(1)", host: ORIGIN, theme: {} }).html
    expect(error).not.toMatch(/javascript:/i)
    const verify = renderVerifyRequestPage({ url: "javascript:alert(1)", theme: {} }).html
    expect(verify).not.toMatch(/href="javascript:/i)
  })
})

describe("theme", () => {
  it("sets the body class from colorScheme, defaulting to auto", () => {
    for (const colorScheme of ["auto", "dark", "light"] as const) {
      expect(bodyClass(renderSignOutPage({ url: BASE, theme: { colorScheme } }).html)).toBe(`__next-auth-theme-${colorScheme}`)
    }
    expect(bodyClass(renderSignOutPage({ url: BASE, theme: { colorScheme: "neon" as "dark" } }).html)).toBe("__next-auth-theme-auto")
  })

  it("follows prefers-color-scheme only in auto", () => {
    const css = styleOf(renderSignOutPage({ url: BASE, theme: {} }).html)
    expect(css).toMatch(/@media \(prefers-color-scheme:dark\)\{\.__next-auth-theme-auto\{color-scheme:dark;/)
  })

  it("injects brandColor and buttonText as CSS variables", () => {
    const css = styleOf(renderSignInPage({ providers: [email], theme: { brandColor: "#6d28d9", buttonText: "#fefefe" } }).html)
    expect(css).toContain(":root{--brand-color:#6d28d9;--button-text-color:#fefefe}")
    expect(css).toContain("background-color:var(--brand-color);color:var(--button-text-color)")
  })

  it("picks a readable button text colour when only brandColor is set", () => {
    expect(styleOf(renderSignOutPage({ url: BASE, theme: { brandColor: "#fde047" } }).html)).toContain(
      ":root{--brand-color:#fde047;--button-text-color:#000000}",
    )
  })

  it("accepts colour functions and keywords", () => {
    const css = styleOf(renderSignOutPage({ url: BASE, theme: { brandColor: "rgb(109 40 217 / 90%)", buttonText: "white" } }).html)
    expect(css).toContain(":root{--brand-color:rgb(109 40 217 / 90%);--button-text-color:white}")
  })

  it("neutralises CSS and markup injection through theme and provider colours", () => {
    const attacks = [
      "red;}</style><script>alert(1)</script><style>",
      "red; background-image: url(https://evil.example/track)",
      "#fff}body{display:none",
      "var(--x)",
      "expression(alert(1))",
      "rgb(0,0,0);}",
      "#fff\n}",
    ]
    for (const attack of attacks) {
      const html = renderSignInPage({
        providers: [{ ...github, style: { bg: attack, text: attack, brandColor: attack } }],
        theme: { brandColor: attack, buttonText: attack },
      }).html
      expect(html.match(/<\/style>/g)).toHaveLength(1)
      expect(html).not.toMatch(/<script|evil\.example|display:none|expression|var\(--x\)/)
      expect(styleOf(html)).not.toContain("--brand-color:red")
      expect(firstTag(html, "button")).toEqual({ type: "submit", class: "button neutral" })
    }
  })

  it("shows the theme logo with alt text", () => {
    const html = renderVerifyRequestPage({ url: ORIGIN, theme: { logo: "/logo.svg" } }).html
    expect(firstTag(html, "img")).toMatchObject({ class: "logo", src: "/logo.svg", alt: "Logo" })
    expect(renderVerifyRequestPage({ url: ORIGIN, theme: {} }).html).not.toContain("<img")
  })
})

describe("renderSignOutPage", () => {
  const page = renderSignOutPage({ url: `${BASE}/signout`, csrfToken: CSRF, theme: {} })

  it("asks for confirmation and posts the CSRF token back to the request URL", () => {
    expect(page.status).toBe(200)
    expect(textOf(page.html)).toContain("Are you sure you want to sign out?")
    expect(page.html).toMatch(/<h1>Sign out<\/h1>/)
    const [form] = formsOf(page.html)
    expect(form!.attributes).toMatchObject({ action: `${BASE}/signout`, method: "post" })
    expect(form!.inputs).toEqual([{ type: "hidden", name: "csrfToken", value: CSRF }])
    expect(form!.buttons).toEqual(["Sign out"])
  })
})

describe("renderErrorPage", () => {
  const signinUrl = `${BASE}/signin`
  const cases = [
    { error: "Configuration", status: 500, heading: "Server error", texts: ["There is a problem with the server configuration.", "Check the server logs for more information."], signIn: false },
    { error: "AccessDenied", status: 403, heading: "Access Denied", texts: ["You do not have permission to sign in."], signIn: true },
    { error: "Verification", status: 403, heading: "Unable to sign in", texts: ["The sign in link is no longer valid.", "It may have been used already or it may have expired."], signIn: true },
  ]

  for (const { error, status, heading, texts, signIn } of cases) {
    it(`${error}: ${status} "${heading}"`, () => {
      const page = renderErrorPage({ error, url: `${BASE}/error?error=${error}`, signinUrl, host: ORIGIN, theme: {} })
      expect(page.status).toBe(status)
      expect(titleOf(page.html)).toBe("Error")
      expect(page.html).toContain(`<h1>${heading}</h1>`)
      for (const text of texts) expect(textOf(page.html)).toContain(text)
      const links = [...page.html.matchAll(/<a\b[^>]*>([\s\S]*?)<\/a>/g)]
      if (signIn) {
        expect(links).toHaveLength(1)
        expect(links[0]![1]).toBe("Sign in")
        // Fixed quirk: Auth.js appends /signin to the request URL, query included.
        expect(firstTag(links[0]![0], "a")!.href).toBe(signinUrl)
      } else {
        expect(links).toHaveLength(0)
      }
    })
  }

  for (const error of [undefined, "", "Default", "OAuthCallbackError", "toString", "__proto__"]) {
    it(`${JSON.stringify(error)}: the generic page (200) linking to the site`, () => {
      const page = renderErrorPage({ error, url: `${BASE}/error`, signinUrl, host: ORIGIN, theme: {} })
      expect(page.status).toBe(200)
      expect(page.html).toContain("<h1>Error</h1>")
      const link = /<a\b[^>]*>([\s\S]*?)<\/a>/.exec(page.html)!
      expect(firstTag(link[0], "a")!.href).toBe(ORIGIN)
      expect(textOf(link[1]!)).toContain("app.example")
    })
  }
})

describe("renderVerifyRequestPage", () => {
  it("tells the user to check their email and links to the site", () => {
    const page = renderVerifyRequestPage({ url: ORIGIN, theme: {} })
    expect(page.status).toBe(200)
    expect(page.html).toContain("<h1>Check your email</h1>")
    expect(textOf(page.html)).toContain("A sign in link has been sent to your email address.")
    const link = /<a\b[^>]*>([\s\S]*?)<\/a>/.exec(page.html)!
    expect(firstTag(link[0], "a")!.href).toBe(ORIGIN)
    expect(textOf(link[1]!)).toContain("app.example")
  })
})
