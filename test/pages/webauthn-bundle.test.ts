/** The inlined `@simplewebauthn/browser` bundle is the installed package's, byte for byte. */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { expect, it } from "vitest"
import { SIMPLEWEBAUTHN_BROWSER_BUNDLE, SIMPLEWEBAUTHN_BROWSER_BUNDLE_VERSION } from "../../src/pages/webauthn-browser.js"

it("equals the installed @simplewebauthn/browser UMD bundle (regenerate src/pages/webauthn-browser.ts when it does not)", () => {
  const root = join(dirname(createRequire(import.meta.url).resolve("@simplewebauthn/browser")), "..")
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }
  expect(SIMPLEWEBAUTHN_BROWSER_BUNDLE_VERSION).toBe(version)
  expect(SIMPLEWEBAUTHN_BROWSER_BUNDLE).toBe(readFileSync(join(root, "dist/bundle/index.umd.min.js"), "utf8"))
})
