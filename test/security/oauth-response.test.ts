/**
 * The provider's redirect back, refused by oauth4webapi after every check the OAuth machine names
 * (`iss`, `state`, a provider `error`) passed: the response is refused as such (`responseRejected`,
 * check "response"), before any code is sent to the token endpoint, and not mistaken for a failed
 * code exchange (check "code").
 */
import { describe, expect, it } from "vitest"
import { CookieJar, send } from "../helpers.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { oauthMachine } from "../../src/machines/oauth.js"
import { consent, oauthApp, refusedWith, sessionUserOf, startSignIn } from "../support/oauth-harness.js"

/** The callback URL of a consent, with `change` applied to its parameters. */
function bent(callbackUrl: string, change: (params: URLSearchParams) => void): string {
  const url = new URL(callbackUrl)
  change(url.searchParams)
  return url.href
}

const refusals: [string, (params: URLSearchParams) => void, RegExp][] = [
  ["an id_token along with the code (a hybrid answer)", (params) => params.set("id_token", "eyJhbGciOiJub25lIn0.e30."), /implicit and hybrid flows are not supported/],
  ["a JARM response parameter", (params) => params.set("response", "eyJhbGciOiJub25lIn0.e30."), /JARM/],
  ["the state twice", (params) => params.append("state", params.get("state")!), /only once/],
]

describe("a redirect back oauth4webapi refuses after the machine's checks passed", () => {
  for (const [name, change, reason] of refusals) {
    it(`${name}: the response is refused (check "response"), no code is exchanged, nobody signs in`, async () => {
      const recorder = new TransitionRecorder([oauthMachine])
      const app = oauthApp()
      const config = { ...app.config, inspect: recorder.inspect }
      const jar = new CookieJar()
      const callbackUrl = bent(consent(app.op, await startSignIn(config, jar)), change)
      recorder.reset()
      const response = await send(config, jar, callbackUrl)

      const cause = refusedWith(response, app.errors)
      expect(cause.message).toMatch(reason)
      expect(app.errors.at(-1)).toMatchObject({ name: "OAuthCallbackError" })
      expect((app.errors.at(-1)!.cause as { check?: unknown }).check).toBe("response")
      expect(recorder.runs.map((run) => run.states.at(-1))).toEqual(["responseRejected"])
      expect(app.op.seen).not.toContain(`POST ${app.op.issuer}/token`)
      expect(await sessionUserOf(config, jar)).toBeNull()
    })
  }

  it("the same redirect without the change signs in: the refusal is the change's", async () => {
    const app = oauthApp()
    const jar = new CookieJar()
    const response = await send(app.config, jar, consent(app.op, await startSignIn(app.config, jar)))
    expect(response.status).toBe(302)
    expect(app.op.seen).toContain(`POST ${app.op.issuer}/token`)
    expect(await sessionUserOf(app.config, jar)).not.toBeNull()
  })
})
