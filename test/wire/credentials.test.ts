import { describe, expect, it } from "vitest"
import { Duo, credentialsConfig, decodeSession, expectSameWire, recorder, sessionCookieName, sides, typesOf, type Side, type SideName } from "./harness.js"
import type { AuthConfig } from "../../src/types.js"

const name = sessionCookieName()
const ada = { id: "1", name: "Ada", email: "ada@example.test" }

type Authorize = (credentials: Record<string, unknown>, request: Request) => unknown

/** A credentials setup per side with a recording logger; `authorize` and `extra` may depend on the side. */
function setup(authorize: (side: Side) => Authorize, extra: (side: Side) => Partial<AuthConfig> = () => ({})) {
  const logs = { authflow: recorder(), authjs: recorder() }
  const duo = new Duo((side) => credentialsConfig(side, { logger: logs[side.name].logger, ...extra(side) }, authorize(side)))
  return { duo, logs }
}

const signIn = (duo: Duo, form: Record<string, string> = { username: "ada", password: "pw" }) => duo.post("/callback/credentials", form)

describe("credentials sign-in outcomes", () => {
  it("success: 302 to the callback URL with the session cookie; the token carries the user", async () => {
    const { duo, logs } = setup(() => () => ({ ...ada, image: "https://img.test/a.png" }))
    const pair = await signIn(duo, { username: "ada", callbackUrl: "/welcome" })
    const wire = await expectSameWire(pair)
    expect(wire).toMatchObject({ status: 302, location: "https://app.test/welcome" })
    expect(wire.cookies[name]).toMatchObject({ value: "<jwe>" })
    for (const side of sides) {
      expect(logs[side.name].errors).toEqual([])
      const token = await decodeSession(duo.jars[side.name].get(name)!)
      expect(token).toMatchObject({ name: "Ada", email: "ada@example.test", picture: "https://img.test/a.png", sub: "1" })
    }
  })

  it("authorize returning null → /signin?error=CredentialsSignin&code=credentials, CredentialsSignin logged, no session", async () => {
    const { duo, logs } = setup(() => () => null)
    const wire = await expectSameWire(await signIn(duo))
    expect(wire.location).toBe("https://app.test/auth/signin?error=CredentialsSignin&code=credentials")
    expect(wire.cookies).toEqual({})
    for (const side of sides) expect(typesOf(logs[side.name].errors)).toEqual(["CredentialsSignin"])
  })

  it("a thrown CredentialsSignin subclass carries its code into the URL", async () => {
    const { duo, logs } = setup((side) => () => {
      class InvalidLogin extends side.errors.CredentialsSignin {
        override code = "invalid_login"
      }
      throw new InvalidLogin("wrong password")
    })
    const wire = await expectSameWire(await signIn(duo))
    expect(wire.location).toBe("https://app.test/auth/signin?error=CredentialsSignin&code=invalid_login")
    for (const side of sides) {
      expect(typesOf(logs[side.name].errors)).toEqual(["CredentialsSignin"])
      // Auth.js appends "Read more at https://errors.authjs.dev#…" to every message; authflow does not.
      expect(logs[side.name].errors[0]!.message).toMatch(/^wrong password/)
    }
  })

  it("a generic throw → /error?error=Configuration, CallbackRouteError logged with the original error", async () => {
    const { duo, logs } = setup(() => () => {
      throw new Error("database down")
    })
    const wire = await expectSameWire(await signIn(duo))
    expect(wire.location).toBe("https://app.test/auth/error?error=Configuration")
    for (const side of sides) {
      expect(typesOf(logs[side.name].errors)).toEqual(["CallbackRouteError"])
      expect((logs[side.name].errors[0]!.cause as { err: Error }).err.message).toBe("database down")
    }
  })

  it("a rejected promise is a generic throw too", async () => {
    const { duo } = setup(() => () => Promise.reject(new RangeError("nope")))
    expect((await expectSameWire(await signIn(duo))).location).toBe("https://app.test/auth/error?error=Configuration")
  })

  it("another AuthError thrown by authorize keeps its type: AccessDenied → /error?error=AccessDenied", async () => {
    const { duo } = setup((side) => () => {
      throw new side.errors.AccessDenied("not today")
    })
    expect((await expectSameWire(await signIn(duo))).location).toBe("https://app.test/auth/error?error=AccessDenied")
  })

  it("a numeric id becomes a string sub; a missing id becomes a random UUID", async () => {
    const numeric = setup(() => () => ({ id: 42, name: "N" }))
    await signIn(numeric.duo)
    for (const side of sides) expect((await decodeSession(numeric.duo.jars[side.name].get(name)!))!.sub).toBe("42")
    const anonymous = setup(() => () => ({ name: "A" }))
    await signIn(anonymous.duo)
    for (const side of sides) {
      expect((await decodeSession(anonymous.duo.jars[side.name].get(name)!))!.sub).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    }
  })
})

describe("authorize(credentials, request)", () => {
  it("receives the whole body (csrfToken and callbackUrl included) and a POST Request on the callback URL with the query", async () => {
    const seen: Record<SideName, { credentials: Record<string, unknown>; url: string; method: string; body: unknown; cookie: boolean; agent: string | null }> = {} as never
    const { duo } = setup((side) => async (credentials, request) => {
      seen[side.name] = {
        credentials,
        url: request.url,
        method: request.method,
        body: await request.json(),
        cookie: Boolean(request.headers.get("cookie")),
        agent: request.headers.get("user-agent"),
      }
      return ada
    })
    const tokens = await duo.csrf()
    await duo.send("/callback/credentials?from=query", (side) => ({
      form: { csrfToken: tokens[side.name], username: "ada", password: "pw", callbackUrl: "/x" },
      headers: { "user-agent": "wire-test" },
    }))
    for (const side of sides) {
      const { credentials, ...rest } = seen[side.name]
      expect(credentials).toEqual({ csrfToken: tokens[side.name], username: "ada", password: "pw", callbackUrl: "/x" })
      expect(rest).toEqual({
        url: "https://app.test/auth/callback/credentials?from=query",
        method: "POST",
        body: credentials,
        cookie: true,
        agent: "wire-test",
      })
    }
  })

  it("a JSON body arrives the same way", async () => {
    const seen: Record<SideName, unknown> = { authflow: undefined, authjs: undefined }
    const { duo } = setup((side) => (credentials) => ((seen[side.name] = credentials), ada))
    const tokens = await duo.csrf()
    await duo.send("/callback/credentials", (side) => ({ json: { csrfToken: tokens[side.name], username: "ada", remember: true } }))
    expect(seen.authflow).toMatchObject({ username: "ada", remember: true })
    expect(seen.authjs).toMatchObject({ username: "ada", remember: true })
  })

  it("authflow differs: the Request given to authorize says content-type application/json (its body is JSON; Auth.js keeps the form's type)", async () => {
    const types: Record<SideName, string | null> = { authflow: null, authjs: null }
    const { duo } = setup((side) => (_, request) => ((types[side.name] = request.headers.get("content-type")), ada))
    await signIn(duo)
    expect(types.authflow).toBe("application/json")
    expect(types.authjs).toBe("application/x-www-form-urlencoded")
  })
})

describe("the signIn callback", () => {
  it("receives {user, account, credentials}", async () => {
    const seen: Record<SideName, unknown> = { authflow: undefined, authjs: undefined }
    const { duo } = setup(
      () => () => ada,
      (side) => ({ callbacks: { signIn: (params) => ((seen[side.name] = params), true) } }),
    )
    await signIn(duo)
    for (const side of sides) {
      expect(seen[side.name]).toEqual({
        user: ada,
        account: { providerAccountId: "1", type: "credentials", provider: "credentials" },
        credentials: expect.objectContaining({ username: "ada", password: "pw" }),
      })
    }
  })

  it("false → /error?error=AccessDenied, no session", async () => {
    const { duo, logs } = setup(() => () => ada, () => ({ callbacks: { signIn: () => false } }))
    const wire = await expectSameWire(await signIn(duo))
    expect(wire.location).toBe("https://app.test/auth/error?error=AccessDenied")
    expect(wire.cookies).toEqual({})
    for (const side of sides) expect(typesOf(logs[side.name].errors)).toEqual(["AccessDenied"])
  })

  it("a throw → AccessDenied wrapping the original error", async () => {
    const { duo, logs } = setup(
      () => () => ada,
      () => ({
        callbacks: {
          signIn: () => {
            throw new Error("banned")
          },
        },
      }),
    )
    const wire = await expectSameWire(await signIn(duo))
    expect(wire.location).toBe("https://app.test/auth/error?error=AccessDenied")
    for (const side of sides) {
      expect(typesOf(logs[side.name].errors)).toEqual(["AccessDenied"])
      expect((logs[side.name].errors[0]!.cause as { err: Error }).err.message).toBe("banned")
    }
  })

  it("an AuthError it throws is kept: a CredentialsSignin with its code", async () => {
    const { duo } = setup(
      () => () => ada,
      (side) => ({
        callbacks: {
          signIn: () => {
            const error = new side.errors.CredentialsSignin()
            error.code = "locked"
            throw error
          },
        },
      }),
    )
    const wire = await expectSameWire(await signIn(duo))
    expect(wire.location).toBe("https://app.test/auth/signin?error=CredentialsSignin&code=locked")
  })

  it("a string → redirect through the redirect callback, no session written", async () => {
    const { duo } = setup(() => () => ada, () => ({ callbacks: { signIn: () => "/onboarding" } }))
    const wire = await expectSameWire(await signIn(duo))
    expect(wire.location).toBe("https://app.test/onboarding")
    expect(Object.keys(wire.cookies)).not.toContain(name)
  })

  it("an off-site string → the origin (the redirect callback refuses it)", async () => {
    const { duo } = setup(() => () => ada, () => ({ callbacks: { signIn: () => "https://evil.test/" } }))
    expect((await expectSameWire(await signIn(duo))).location).toBe("https://app.test")
  })

  it("the jwt callback at sign-in gets the default token, user, account, isNewUser false, trigger signIn", async () => {
    const seen: Record<SideName, unknown> = { authflow: undefined, authjs: undefined }
    const { duo } = setup(
      () => () => ada,
      (side) => ({ callbacks: { jwt: (params) => ((seen[side.name] = params), params.token) } }),
    )
    await signIn(duo)
    for (const side of sides) {
      expect(seen[side.name]).toEqual({
        token: { name: "Ada", email: "ada@example.test", picture: undefined, sub: "1" },
        user: ada,
        account: { providerAccountId: "1", type: "credentials", provider: "credentials" },
        isNewUser: false,
        trigger: "signIn",
      })
    }
  })

  it("a jwt callback that throws at sign-in → Configuration (CallbackRouteError)", async () => {
    const { duo, logs } = setup(
      () => () => ada,
      () => ({
        callbacks: {
          jwt: () => {
            throw new Error("jwt failed")
          },
        },
      }),
    )
    expect((await expectSameWire(await signIn(duo))).location).toBe("https://app.test/auth/error?error=Configuration")
    for (const side of sides) expect(typesOf(logs[side.name].errors)).toEqual(["CallbackRouteError"])
  })
})

describe("events.signIn", () => {
  it("receives {user, account} after the session is written", async () => {
    const seen: Record<SideName, unknown[]> = { authflow: [], authjs: [] }
    const { duo } = setup(() => () => ({ ...ada, role: "admin" }), (side) => ({ events: { signIn: (message) => void seen[side.name].push(message) } }))
    await signIn(duo)
    for (const side of sides) {
      expect(seen[side.name]).toEqual([
        {
          user: { ...ada, role: "admin" },
          account: { providerAccountId: "1", type: "credentials", provider: "credentials" },
        },
      ])
    }
  })

  it("an event that throws is logged as EventError and the sign-in still succeeds", async () => {
    const { duo, logs } = setup(
      () => () => ada,
      () => ({
        events: {
          signIn: () => {
            throw new Error("audit log down")
          },
        },
      }),
    )
    const wire = await expectSameWire(await signIn(duo))
    expect(wire).toMatchObject({ status: 302, location: "https://app.test" })
    expect(wire.cookies[name]).toMatchObject({ value: "<jwe>" })
    for (const side of sides) {
      expect(typesOf(logs[side.name].errors)).toEqual(["EventError"])
      expect((logs[side.name].errors[0]!.cause as { err: Error }).err.message).toBe("audit log down")
    }
  })

  it("is not fired when authorize refuses", async () => {
    const seen: unknown[] = []
    const { duo } = setup(() => () => null, () => ({ events: { signIn: (message) => void seen.push(message) } }))
    await signIn(duo)
    expect(seen).toEqual([])
  })
})

describe("credentials with X-Auth-Return-Redirect (what the v5 clients send)", () => {
  it("failure: 200 {url} with error and code, which the clients parse", async () => {
    const { duo } = setup(() => () => null)
    const tokens = await duo.csrf()
    const wire = await expectSameWire(
      await duo.send("/callback/credentials", (side) => ({
        form: { csrfToken: tokens[side.name], username: "x" },
        headers: { "X-Auth-Return-Redirect": "1" },
      })),
    )
    const url = new URL((wire.body as { url: string }).url)
    expect([url.searchParams.get("error"), url.searchParams.get("code")]).toEqual(["CredentialsSignin", "credentials"])
  })
})
