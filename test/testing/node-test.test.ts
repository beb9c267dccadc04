/**
 * `authflow/testing` with `node:test` instead of vitest: a tiny test file, run by `node --test` in
 * a child process, hands each case to `test()` and the snapshot comparison to `after()`.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { afterAll, describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../..", import.meta.url))
const src = (path: string) => JSON.stringify(pathToFileURL(join(root, "src", path)).href)

function testFile(snapshotFile: string, refuse: string): string {
  return `import { after, test } from "node:test"
import assert from "node:assert/strict"
import { authflowModelTests } from ${src("testing/index.js")}
import Credentials from ${src("providers/credentials.js")}

const config = {
  secret: "node-test-secret",
  providers: [Credentials({ authorize: ({ username }) => (username === ${JSON.stringify(refuse)} ? null : { id: "1", name: String(username) }) })],
}
const fixtures = { credentials: { credentials: { accepted: { username: "ada" }, rejected: { username: "mallory" } } } }
const suite = await authflowModelTests(config, fixtures, { snapshotFile: ${JSON.stringify(snapshotFile)} })

for (const { name, run } of suite.cases) {
  test(name, async () => {
    const result = await run()
    assert.equal(result.difference, undefined, result.difference)
  })
}
after(() => suite.finish())
`
}

function nodeTest(file: string) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-reporter", "tap", file], { cwd: root, encoding: "utf8", timeout: 60_000 })
  return { status: result.status, output: result.stdout + result.stderr }
}

describe("authflow/testing under node:test", () => {
  const dir = mkdtempSync(join(tmpdir(), "authflow-node-test-"))
  const snapshot = join(dir, "auth.snap.json")
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("each path is a node:test test; the first run records the snapshot", () => {
    const file = join(dir, "auth.test.mts")
    writeFileSync(file, testFile(snapshot, "mallory"))
    const { status, output } = nodeTest(file)
    expect(output).toContain("ok 1 - credentials-sign-in credentials: accepted credentials")
    expect(output).toMatch(/# fail 0/)
    expect(status).toBe(0)
    expect(Object.keys(JSON.parse(readFileSync(snapshot, "utf8")).paths)).toContain("credentials-sign-in credentials: rejected credentials")
  })

  it("a changed outcome fails its own test, with the diff as the message", () => {
    const file = join(dir, "auth-changed.test.mts")
    writeFileSync(file, testFile(snapshot, "ada"))
    const { status, output } = nodeTest(file)
    expect(status).toBe(1)
    expect(output).toContain("not ok 1 - credentials-sign-in credentials: accepted credentials")
    expect(output).toContain("credentials-sign-in credentials: accepted credentials → now ends in credentialsRejected (was signedIn): providers.credentials.authorize changed?")
    expect(output).toMatch(/# pass [1-9]/)
  })
})
