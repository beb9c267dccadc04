/**
 * Provider parity with @auth/core: every OAuth/OIDC provider the installed @auth/core ships has an
 * authflow provider with the same id (read from node_modules at test time, so an @auth/core upgrade
 * that adds one fails here, naming it), and each has a case in the provider tests.
 */
import { readFileSync, readdirSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
import { cases } from "./cases.js"

const root = new URL("../..", import.meta.url).pathname
const authjsProviders = join(dirname(createRequire(import.meta.url).resolve("@auth/core/providers/github")), ".")
/** Modules that are not providers. */
const notProviders = new Set(["index", "oauth", "provider-types"])

type Definition = { id?: unknown; type?: unknown }

async function definitions(directory: string, extension: ".js" | ".ts", load: (file: string) => Promise<{ default?: unknown }>) {
  const found: { module: string; id: string; type: string }[] = []
  for (const file of readdirSync(directory).filter((name) => name.endsWith(extension) && !name.endsWith(".d.ts")).sort()) {
    const module = file.slice(0, -extension.length)
    if (notProviders.has(module)) continue
    const factory = (await load(join(directory, file))).default
    if (typeof factory !== "function") continue
    let definition: Definition
    try {
      // Some email providers refuse to be built without a server; they are not OAuth anyway.
      definition = (factory as (options: object) => Definition)({ clientId: "id", clientSecret: "secret" })
    } catch {
      continue
    }
    if (typeof definition?.id === "string" && typeof definition.type === "string") found.push({ module, id: definition.id, type: definition.type })
  }
  return found
}

const isOAuth = (type: string) => type === "oauth" || type === "oidc"

describe("provider parity with @auth/core", () => {
  it("has every OAuth/OIDC provider of @auth/core, under the same id and type", async () => {
    const theirs = (await definitions(authjsProviders, ".js", (path) => import(path))).filter((p) => isOAuth(p.type))
    const ours = (await definitions(join(root, "src/providers"), ".ts", (path) => import(path))).filter((p) => isOAuth(p.type))
    const ourIds = new Map(ours.map((p) => [p.id, p]))
    // Email, credentials and WebAuthn providers are not OAuth/OIDC and are left out above.
    expect(theirs.length).toBeGreaterThan(80)
    const missing = theirs.filter((p) => !ourIds.has(p.id)).map((p) => `${p.id} (@auth/core/providers/${p.module})`)
    expect(missing, "OAuth/OIDC providers of @auth/core that authflow lacks").toEqual([])
    const retyped = theirs.filter((p) => ourIds.get(p.id)!.type !== p.type).map((p) => `${p.id}: ${p.type} in Auth.js, ${ourIds.get(p.id)!.type} here`)
    expect(retyped).toEqual([])
    // The same module name too, so `@auth/core/providers/x` becomes `authflow/providers/x`.
    const moved = theirs.filter((p) => ourIds.get(p.id)!.module !== p.module).map((p) => `${p.id}: ${p.module} vs ${ourIds.get(p.id)!.module}`)
    expect(moved).toEqual([])
  })

  it("runs every authflow OAuth/OIDC provider through a case of the provider tests", async () => {
    const ours = (await definitions(join(root, "src/providers"), ".ts", (path) => import(path))).filter((p) => isOAuth(p.type))
    const tested = new Set(cases.map((c) => c.id))
    expect(ours.filter((p) => !tested.has(p.id)).map((p) => p.id)).toEqual([])
  })
})

describe("the provider reference (docs/reference/providers.md)", () => {
  const page = readFileSync(join(root, "docs/reference/providers.md"), "utf8")

  it("lists every OAuth/OIDC provider with its module and type, each with a case", async () => {
    const table = /<!-- provider-reference-table -->\n([\s\S]*?)<!-- \/provider-reference-table -->/.exec(page)
    expect(table, "the table between <!-- provider-reference-table --> markers").not.toBeNull()
    const rows = table![1]!.split("\n").filter((line) => line.startsWith("| `")).map((line) => line.split(" | ").slice(0, 4).join(" | "))
    const ours = (await definitions(join(root, "src/providers"), ".ts", (path) => import(path))).filter((p) => isOAuth(p.type))
    const tested = new Set(cases.map((c) => c.id))
    expect(rows).toEqual(ours.map((p) => `| \`${p.id}\` | \`authflow/providers/${p.module}\` | ${p.type} | ${tested.has(p.id) ? "tested" : "untested"}`))
  })

  it("states the counts as they are", async () => {
    const theirs = (await definitions(authjsProviders, ".js", (path) => import(path))).filter((p) => isOAuth(p.type))
    const ours = (await definitions(join(root, "src/providers"), ".ts", (path) => import(path))).filter((p) => isOAuth(p.type))
    const { version } = JSON.parse(readFileSync(join(authjsProviders, "../package.json"), "utf8")) as { version: string }
    expect(page).toContain(`authflow ${ours.length} vs @auth/core ${theirs.length}: every OAuth/OIDC provider of \`@auth/core\` ${version}`)
  })
})
