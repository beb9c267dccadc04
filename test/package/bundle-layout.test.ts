/**
 * dist's JavaScript as scripts/bundle-dist.ts writes it (a few coarse files): an app's bundler sees
 * a handful of files, not two hundred modules, and still leaves out what an entry does not use.
 */
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { build } from "esbuild"
import { beforeAll, describe, expect, it } from "vitest"
import { loadedFrom } from "../../bench/loaded-files.js"

const root = new URL("../../", import.meta.url).pathname

/** Minified bytes of a bundle of everything `specifier` exports, dependencies left out, without code splitting (every `import()` inlined). */
async function bundledSize(file: string): Promise<number> {
  const result = await build({
    stdin: { contents: `export * from ${JSON.stringify(file)}`, resolveDir: root, loader: "js" },
    bundle: true,
    minify: true,
    write: false,
    format: "esm",
    platform: "node",
    packages: "external",
    tsconfig: join(root, "tsconfig.json"),
    logLevel: "silent",
  })
  return result.outputFiles[0]!.contents.length
}

describe("dist's coarse files", () => {
  beforeAll(() => {
    if (!existsSync(join(root, "dist/index.js"))) execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" })
  }, 180_000)

  // What an entry imported on its own costs from dist, against its own modules in src: the entries
  // size matters for (browsers, edge middleware). dist's shared chunk is one module to a bundler, so
  // a little of it rides along (its lazily initialised wrapper when it loads modules by `import()`).
  it.each(["jwt", "errors", "client/index", "client/passkey", "rate-limit", "adapters/memory", "adapters/kysely/index"])(
    "authflow's %s entry bundles to no more than its modules do, plus 2 kB",
    async (entry) => {
      const fromSrc = await bundledSize(join(root, "src", `${entry}.ts`))
      const fromDist = await bundledSize(join(root, "dist", `${entry}.js`))
      expect(fromDist).toBeLessThanOrEqual(fromSrc + 2000)
    },
    60_000,
  )

  it("a credentials-only app's routes load a handful of files from dist, where src's modules make dozens", async () => {
    const app = (auth: string, credentials: string) =>
      `import { Auth } from ${JSON.stringify(auth)}\nimport Credentials from ${JSON.stringify(credentials)}\nexport default (request) => Auth(request, { secret: "x".repeat(32), providers: [Credentials({ authorize: () => null })] })\n`
    const routes = /src\/(actions\/(providers|session|csrf|pages|callback|signout)\.ts|pages\/(signin|signout|error|verify-request)\.tsx|core\/jwt\/jwe-portable\.ts)$/
    const filesLoaded = async (auth: string, credentials: string) => {
      const result = await build({
        stdin: { contents: app(auth, credentials), resolveDir: root, loader: "js" },
        bundle: true,
        splitting: true,
        minify: true,
        write: false,
        metafile: true,
        outdir: "/tmp/authflow-layout-test",
        format: "esm",
        platform: "browser",
        tsconfig: join(root, "tsconfig.json"),
        logLevel: "silent",
      })
      return loadedFrom(result.metafile, (entryPoint) => entryPoint === "<stdin>", (module) => routes.test(module)).size
    }
    const fromDist = await filesLoaded(join(root, "dist/index.js"), join(root, "dist/providers/credentials.js"))
    const fromSrc = await filesLoaded(join(root, "src/index.ts"), join(root, "src/providers/credentials.ts"))
    expect(fromSrc).toBeGreaterThan(30)
    expect(fromDist).toBeLessThanOrEqual(10)
  }, 60_000)
})
