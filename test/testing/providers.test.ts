/**
 * The kit on configurations other than the demo's: built-in providers with their own endpoints
 * (GitHub, OAuth 2) and with discovery (Google, OpenID Connect, `client_secret_post`), JWT
 * sessions without an adapter, and callbacks of the user's own that the kit observes.
 */
import { describe, expect, it } from "vitest"
import { authflowModelTests, describeDifference, type CaseOutcome, type CaseResult } from "../../src/testing/index.js"
import { oauthMachine } from "../../src/machines/oauth.js"
import GitHub from "../../src/providers/github.js"
import Google from "../../src/providers/google.js"
import type { AuthConfig } from "../../src/types.js"
import { cookieNames } from "../helpers.js"

const config: AuthConfig = {
  secret: "providers-test-secret",
  providers: [GitHub({ clientId: "gh-id", clientSecret: "gh-secret" }), Google({ clientId: "g-id", clientSecret: "g-secret", client: { token_endpoint_auth_method: "client_secret_post" } })],
  callbacks: {
    signIn: ({ user }) => user.email !== "blocked@example.test",
    jwt: ({ token }) => token,
  },
}

describe("authflow/testing with GitHub and Google, JWT sessions, no adapter", async () => {
  const suite = await authflowModelTests(config, { users: { newEmail: "octo@example.test" } })
  const results = new Map<string, CaseResult>()
  for (const testCase of suite.cases) results.set(testCase.name, await testCase.run())
  const final = (name: string) => results.get(name)?.outcome.final

  it("signs in through GitHub's own endpoints and userinfo request, answered by the stand-in", () => {
    const signedIn = results.get("oauth github: account.new.noUser")!.outcome
    expect(signedIn.final).toBe("signedIn")
    expect(signedIn.responses.map((response) => response.redirect)).toEqual(["https://github.com/login/oauth/authorize", "/"])
    expect(signedIn.session?.user).toEqual({ name: "Stand-in User", email: "octo@example.test" })
    expect(signedIn.responses[1]!.cookiesSet).toContain(cookieNames.https.sessionToken)
    expect(signedIn.responses[1]!.cookiesCleared).toEqual(expect.arrayContaining([cookieNames.https.flow]))
    expect(final("oauth github: profile.failed")).toBe("profileFailed")
    expect(final("oauth github: tokens.invalid")).toBe("tokensRejected")
    expect(final("oauth github: response.received(iss of another issuer)")).toBe("responseRejected")
  })

  it("tells each ID token fault of an OpenID Provider apart, with client_secret_post at the token endpoint", () => {
    expect(final("oauth google: account.new.noUser")).toBe("signedIn")
    for (const fault of ["badSignature", "wrongIssuer", "wrongAudience", "expired", "nonceMismatch"]) expect(final(`oauth google: idToken.${fault}`)).toBe("idTokenRejected")
    expect(final("oauth google: response.received(iss missing)")).toBe("responseRejected")
    expect(final("oauth google: discovery.failed")).toBe("signInFailed")
    expect(final("oauth google: response.unreadable")).toBe("responseRejected")
  })

  it("lists what this configuration cannot reach, with why", () => {
    const reasons = new Set(suite.unreachable.map((entry) => entry.why))
    for (const why of [
      "github has explicit endpoints: nothing is discovered",
      "github is an OAuth 2 provider: it issues no ID token",
      "no adapter: accounts are never linked",
      "sessions are jwt sessions: no session row is deleted",
      "no credentials provider",
      "no email provider",
    ]) {
      expect(reasons, why).toContain(why)
    }
    expect(suite.cases.some((testCase) => testCase.name.includes("account.linkedToUser"))).toBe(false)
  })

  it("covers every reachable transition; what the user's own callbacks never chose is reported, not counted", () => {
    const [oauth, signOut] = suite.coverage()
    expect(oauth).toMatchObject({ machine: "oauth", missing: [] })
    expect(oauth!.covered).toBe(oauth!.reachable)
    expect(oauth!.notTaken).toEqual(
      expect.arrayContaining([
        // The signIn callback's refusal (a falsy answer: the last choice of signIn.answered), and the jwt callback throwing.
        { transition: "oauth.checkingSignIn:signIn.answered:3", decidedBy: "callbacks.signIn" },
        { transition: "oauth.encodingToken:encode.failed:0", decidedBy: "callbacks.jwt" },
      ]),
    )
    expect(signOut).toMatchObject({ machine: "sign-out", missing: [] })
  })
})

describe("the hint of a difference names the configuration piece most likely responsible", () => {
  const base: CaseOutcome = {
    final: "signedIn",
    states: ["validatingInput", "resolvingAccount", "checkingSignIn", "issuingSession", "signedIn"],
    responses: [{ request: "GET /callback/github", status: 302, redirect: "/", cookiesSet: [cookieNames.https.sessionToken], cookiesCleared: [] }],
    session: { user: { name: "Ada", email: "ada@example.test" }, fields: ["expires", "user"] },
    events: ["signIn"],
    adapterWrites: { createSession: 1 },
    errors: [],
  }
  const headline = (after: Partial<CaseOutcome>) => describeDifference(oauthMachine, "github", "oauth github: account.new.noUser", base, { ...base, ...after })?.split("\n")[0]

  it("a changed decision: the effect of the state where the paths part", () => {
    expect(headline({ final: "accessDenied", states: ["validatingInput", "resolvingAccount", "checkingSignIn", "accessDenied"] })).toBe(
      "oauth github: account.new.noUser → now ends in accessDenied (was signedIn): callbacks.signIn changed?",
    )
    expect(headline({ final: "accountNotLinked", states: ["validatingInput", "resolvingAccount", "accountNotLinked"] })).toMatch(/providers\.github\.allowDangerousEmailAccountLinking or the adapter changed\?$/)
  })

  it("a changed target, session, events or writes", () => {
    expect(headline({ responses: [{ ...base.responses[0]!, redirect: "/welcome" }] })).toBe("oauth github: account.new.noUser → now redirects to /welcome (was /): callbacks.redirect or pages changed?")
    expect(headline({ session: { user: { name: "Ada", email: "ada@example.test" }, fields: ["expires", "role", "user"] } })).toMatch(/callbacks\.session or callbacks\.jwt changed\?$/)
    expect(headline({ events: ["createUser", "signIn"] })).toBe("oauth github: account.new.noUser → now fires [createUser, signIn] (was [signIn]): events changed?")
    expect(headline({ adapterWrites: { createSession: 1, updateUser: 1 } })).toBe("oauth github: account.new.noUser → now writes other rows: the adapter changed?")
    expect(describeDifference(oauthMachine, "github", "same", base, { ...base })).toBeUndefined()
  })
})
