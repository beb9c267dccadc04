/**
 * A configuration `Auth()` refuses is refused by the kit too, before any path runs, with the same
 * error (its `type` and one-line message) instead of failing inside a driver.
 */
import { describe, expect, it } from "vitest"
import Credentials from "../../src/providers/credentials.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import { authflowModelTests } from "../../src/testing/index.js"
import { CookieJar, recordingLogger, send } from "../helpers.js"
import type { AuthConfig } from "../../src/types.js"

/** Email sign-in without an adapter: Auth() logs MissingAdapter for it. */
const emailWithoutAdapter = (): AuthConfig => ({
  secret: "config-errors-secret",
  trustHost: true,
  providers: [Nodemailer({ server: "smtp://127.0.0.1:1", from: "auth@example.test" })],
})

describe("authflowModelTests on a configuration Auth() refuses", () => {
  it("rejects with the configuration error Auth() logs (MissingAdapter for email sign-in without an adapter)", async () => {
    const { logger, errors } = recordingLogger()
    const response = await send({ ...emailWithoutAdapter(), logger }, new CookieJar(), "/signin/nodemailer")
    expect(response.status).toBe(500)
    const logged = errors[0] as Error & { type?: string }
    expect({ type: logged.type, message: logged.message }).toEqual({ type: "MissingAdapter", message: "Email login requires an adapter" })

    const refused = await authflowModelTests(emailWithoutAdapter()).then(
      () => undefined,
      (error: unknown) => error as Error & { type?: string },
    )
    expect(refused).toBeInstanceOf(Error)
    expect({ name: refused!.name, type: refused!.type, message: refused!.message }).toEqual({ name: logged.name, type: logged.type, message: logged.message })
  })

  it("checks the configuration as the kit runs it: a missing secret, which the kit supplies, is no error", async () => {
    // Auth() refuses this one (MissingSecret, the secret coming from the environment at run time); the kit runs it with its own.
    const config: AuthConfig = { trustHost: true, providers: [Credentials({ credentials: { username: {} }, authorize: () => null })] }
    const { logger, errors } = recordingLogger()
    await send({ ...config, logger }, new CookieJar(), "/providers")
    expect(errors.map((error) => (error as Error & { type?: string }).type)).toEqual(["MissingSecret"])
    const suite = await authflowModelTests(config)
    expect(suite.cases.some((testCase) => testCase.name.startsWith("credentials-sign-in credentials"))).toBe(true)
  })
})
