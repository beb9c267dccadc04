import { execFileSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { beforeAll, describe, expect, it } from "vitest"

const root = new URL("../..", import.meta.url).pathname
const manifest = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { exports: Record<string, unknown> }

/**
 * Entries that only load inside their framework's bundler: Qwik City imports `@qwik-city-plan`, a
 * virtual module its Vite plugin provides. They are checked by resolution here and run for real in
 * their example apps (test/frameworks).
 */
const bundlerOnly = new Set(["./qwik"])

/** Where Node resolves a specifier of this package to, as a user's import would. */
function resolvedFile(specifier: string): string {
  const script = `console.log(new URL(import.meta.resolve(${JSON.stringify(specifier)})).pathname)`
  return execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" }).trim()
}

/** Imports a specifier in a plain Node process, as a user of the published package would. */
function exportsOf(specifier: string): string[] {
  const script = `const m = await import(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(m).sort()))`
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" })) as string[]
}

describe("the published package", () => {
  beforeAll(() => {
    if (!existsSync(`${root}dist/index.js`)) execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" })
  }, 120_000)

  it("every subpath of package.json exports resolves in plain Node", () => {
    const subpaths = Object.keys(manifest.exports).filter((key) => key !== "./package.json" && !key.includes("*"))
    for (const subpath of subpaths) {
      const specifier = subpath === "." ? "authflow" : `authflow/${subpath.slice(2)}`
      if (bundlerOnly.has(subpath)) expect(existsSync(resolvedFile(specifier)), specifier).toBe(true)
      else if (subpath === "./types") expect(exportsOf(specifier), "types only: nothing at run time").toEqual([])
      else expect(exportsOf(specifier).length, specifier).toBeGreaterThan(0)
    }
  })

  it("the root entry exposes the core functions and symbols", () => {
    expect(exportsOf("authflow")).toEqual(
      expect.arrayContaining(["Auth", "raw", "skipCSRFCheck", "customFetch", "setEnvDefaults", "createActionURL", "isAuthAction"]),
    )
  })

  it("authflow/jwt and authflow/errors expose their API", () => {
    expect(exportsOf("authflow/jwt")).toEqual(expect.arrayContaining(["encode", "decode", "getToken"]))
    expect(exportsOf("authflow/rate-limit")).toEqual(expect.arrayContaining(["RateLimited", "defaultRateLimits", "memoryStore", "redisStore", "withClientAddress"]))
    expect(exportsOf("authflow/errors")).toEqual(expect.arrayContaining(["AuthError", "CredentialsSignin", "MissingSecret", "AccessDenied"]))
  })

  it("authflow/testing exposes the model-test kit", () => {
    expect(exportsOf("authflow/testing")).toEqual(expect.arrayContaining(["authflowModelTests", "StandInProvider", "describeDifference", "faultyAdapter", "formatCoverage", "malformedAnswer", "softwareTotp", "stableJson", "totpFromUri"]))
  })

  it("providers are default-exported factories", () => {
    expect(exportsOf("authflow/providers/credentials")).toEqual(["default"])
  })
})
