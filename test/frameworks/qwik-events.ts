/**
 * What the server-side tests of `QwikAuth$`'s runners share: request events from a browser, an
 * action posted from the account page, whose `event.cookie.set` writes go back into the browser's
 * jar; and what `configFor` does for each request.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { setQwikEnvDefaults } from "../../src/frameworks/qwik/env.js"
import type { AuthConfig } from "../../src/types.js"
import { buildRequest, type CookieJar } from "../helpers.js"
import { keep } from "./factors-scenario.js"

/** The origin of the app the events come to. */
export const qwikOrigin = "http://app.test"

/** The request events of an app whose environment has `secret` as AUTH_SECRET and trusts its host: one from the browser `jar`, an action posted from the account page. */
export function qwikActionEvents(secret: string): (jar: CookieJar) => RequestEventCommon {
  const env = { get: (name: string) => ({ AUTH_SECRET: secret, AUTH_TRUST_HOST: "true" })[name] }
  return (jar) => {
    const url = new URL(`${qwikOrigin}/account/?qaction=abc`)
    const request = buildRequest(url, { method: "POST", headers: { origin: qwikOrigin } }, jar)
    const cookie = { set: (name: string, value: string, options: object) => keep(jar, [{ name, value: decodeURIComponent(value), options }]) }
    return { url, request, cookie, env, clientConn: { ip: "203.0.113.9" } } as unknown as RequestEventCommon
  }
}

/** What `configFor` does for each request: a completed copy of the app's configuration. */
export function qwikConfigOf(config: Omit<AuthConfig, "raw">) {
  return async (event: RequestEventCommon) => {
    const copy = { ...config }
    setQwikEnvDefaults(event.env, copy)
    return copy
  }
}
