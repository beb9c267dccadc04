import { readFileSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import * as errors from "../../src/errors.js"
import { AuthError, ClientFetchError, LogoutTokenRefused, MissingElk, type ErrorType } from "../../src/errors.js"
import { ClientFetchError as ClientsClientFetchError } from "../../src/client/index.js"
import { MissingElk as InspectorsMissingElk } from "../../src/inspect/index.js"

const src = join(new URL("../..", import.meta.url).pathname, "src")

describe("the AuthError hierarchy", () => {
  it("every error class of authflow/errors is an AuthError whose type is its name", () => {
    const classes = Object.entries(errors).filter((entry): entry is [string, typeof AuthError] => typeof entry[1] === "function" && entry[1].prototype instanceof Error)
    expect(classes.length).toBeGreaterThan(40)
    for (const [name, ErrorClass] of classes) {
      expect(ErrorClass === AuthError || ErrorClass.prototype instanceof AuthError, name).toBe(true)
      // The two abstract bases carry their parent's type; every concrete error names itself.
      if (name !== "AuthError" && name !== "SignInError") expect(ErrorClass.type, name).toBe(name)
    }
  })

  it("no error class under src extends Error but AuthError (and the CLI's usage error, which never leaves cli.ts)", () => {
    const outside: string[] = []
    for (const file of readdirSync(src, { recursive: true, encoding: "utf8" })) {
      // The vendored browser bundle of @simplewebauthn is not authflow's code.
      if (!/\.tsx?$/.test(file) || file.endsWith("webauthn-browser.ts")) continue
      for (const match of readFileSync(join(src, file), "utf8").matchAll(/class (\w+) extends (?:Error|TypeError|RangeError)\b/g)) outside.push(`${file}: ${match[1]}`)
    }
    expect(outside.sort()).toEqual(["cli.ts: UsageError", "core/errors.ts: AuthError"])
  })

  it("a refused logout token says which check refused it, in its message and its cause", () => {
    const error = new LogoutTokenRefused("issued-at", "issued 11 minutes ago")
    expect(error).toBeInstanceOf(AuthError)
    expect([error.type, error.name, error.reason, error.cause]).toEqual(["LogoutTokenRefused", "LogoutTokenRefused", "issued-at", { reason: "issued-at" }])
    expect(error.message).toBe("Back-channel logout token refused: issued-at (issued 11 minutes ago)")
    expect(new LogoutTokenRefused("missing").message).toBe("Back-channel logout token refused: missing")
  })

  it("the client's fetch error is the one authflow/errors exports, with the answer's status", () => {
    expect(ClientsClientFetchError).toBe(ClientFetchError)
    const error = new ClientFetchError("/api/auth/session answered HTTP 502", 502)
    expect([error instanceof AuthError, error.type, error.name, error.status, error.message]).toEqual([true, "ClientFetchError", "ClientFetchError", 502, "/api/auth/session answered HTTP 502"])
  })

  it("a missing elkjs is the one authflow/errors exports, keeping the import's error as its cause", () => {
    expect(InspectorsMissingElk).toBe(MissingElk)
    const notFound = Object.assign(new Error("Cannot find package 'elkjs'"), { code: "ERR_MODULE_NOT_FOUND" })
    const error = new MissingElk(notFound)
    expect([error instanceof AuthError, error.type, error.name, error.cause?.err]).toEqual([true, "MissingElk", "MissingElk", notFound])
    expect(error.message).toMatch(/npm install elkjs/)
    const types: ErrorType[] = ["LogoutTokenRefused", "ClientFetchError", "MissingElk"]
    expect(types.every((type) => (errors as Record<string, unknown>)[type] !== undefined)).toBe(true)
  })
})
