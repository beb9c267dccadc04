/**
 * `authflow test <config module> [--update]`: runs {@link authflowModelTests} on a configuration
 * module, prints the coverage per machine and each path whose outcome differs from the snapshot,
 * and exits 1 on any difference (`--update` rewrites the snapshot instead), 2 on a configuration
 * `Auth()` refuses (its error's type and message on stderr) or a package the module needs and
 * the project lacks (its name and the install command, in one line).
 *
 * The module is your own configuration module (`export const config`, and `export const fixtures`
 * for what only you know), or one that exports a {@link AuthflowTestModule} by default (or a
 * function, possibly async, returning one). A `.ts` module is loaded with `tsx` from the module's
 * own project.
 *
 * @module
 */
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { basename, dirname, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { authflowModelTests } from "./suite.js"
import { formatCoverage } from "./report.js"
import { AuthError } from "../core/errors.js"
import type { AuthflowFixtures } from "./fixtures.js"
import type { AuthConfig } from "../types.js"

/**
 * What a module for `authflow test` exports: these three as named exports (your configuration
 * module, which your server imports too: `export const config`, `export const fixtures`), or all
 * of them as its default export (or a function, possibly async, that returns them). A default
 * export that is the configuration itself is read as `config`, beside a named `fixtures`.
 *
 * @example
 * ```ts
 * // auth.test-config.ts: a module of its own, when the fixtures need imports of their own
 * import type { AuthflowTestModule } from "authflow/testing"
 * export default { config, fixtures: { freshAdapter: () => MemoryAdapter() } } satisfies AuthflowTestModule
 * ```
 */
export interface AuthflowTestModule {
  config: AuthConfig
  fixtures?: AuthflowFixtures
  /** The snapshot file, relative to the module. Default: the module's name without `.config` and its extension, plus `.snap.json` (`auth.config.ts` → `auth.snap.json`). */
  snapshotFile?: string
}

/** The help text of `authflow test`. */
export const testUsage = `Usage: authflow test <config module> [--update]

Drives every path of every flow machine the configuration uses through Auth(), with the OAuth
providers and the mailer replaced by stand-ins, and compares each path's outcome with the snapshot
file beside the module (auth.config.ts → auth.snap.json). Exits 1 when an outcome differs, and 2
when Auth() would refuse the configuration (its error's type and message, as Auth() logs them) or
the module needs a package the project lacks (its name and the command that installs it).
  --update   rewrite the snapshot with this run's outcomes
The module: your configuration module (export const config, and export const fixtures for the
credentials your authorize accepts), or a default export { config, fixtures?, snapshotFile? } (or
a function returning it). A .ts module needs tsx in its project (npm install -D tsx), or compile
it to .js first.
`

/**
 * Where the snapshot of a configuration module goes by default.
 *
 * @example
 * ```ts
 * defaultSnapshotFile("/app/auth.config.ts") // "/app/auth.snap.json"
 * ```
 */
export function defaultSnapshotFile(modulePath: string): string {
  const name = basename(modulePath).replace(/\.[cm]?[jt]s$/, "").replace(/\.config$/, "")
  return resolve(dirname(modulePath), `${name}.snap.json`)
}

const loaderFlag = "AUTHFLOW_TEST_LOADER"

/** A configuration, as far as a module's exports can tell: an object with a list of providers. */
function isConfig(value: unknown): value is AuthConfig {
  return typeof value === "object" && value !== null && Array.isArray((value as { providers?: unknown }).providers)
}

/** The test module a module's exports make up, by the forms {@link AuthflowTestModule} lists; undefined when they hold no configuration. */
async function testModuleOf(exports: Record<string, unknown>): Promise<AuthflowTestModule | undefined> {
  const named = (config: AuthConfig): AuthflowTestModule => ({
    config,
    ...(typeof exports.fixtures === "object" && exports.fixtures !== null && { fixtures: exports.fixtures as AuthflowFixtures }),
    ...(typeof exports.snapshotFile === "string" && { snapshotFile: exports.snapshotFile }),
  })
  const whole = (value: unknown) => (typeof value === "object" && value !== null && isConfig((value as { config?: unknown }).config) ? (value as AuthflowTestModule) : undefined)
  if (whole(exports.default)) return whole(exports.default)
  if (isConfig(exports.config)) return named(exports.config)
  const value = typeof exports.default === "function" ? await (exports.default as () => unknown)() : exports.default
  return whole(value) ?? (isConfig(value) ? named(value) : undefined)
}

/**
 * authflow's package folder: the nearest folder above this module with authflow's package.json
 * (this module is `src/testing/cli.ts` in the repository, inside a chunk under `dist/` when published).
 */
function packageRoot(): URL {
  for (let folder = new URL(".", import.meta.url); ; folder = new URL("..", folder)) {
    const manifest = new URL("package.json", folder)
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "authflow") return folder
    if (new URL("..", folder).href === folder.href) throw new Error("authflow test: authflow's package.json was not found above " + import.meta.url)
  }
}

/** authflow's own optional packages (its optional peer dependencies), read from its package.json. */
function optionalPackages(): Set<string> {
  try {
    const manifest = JSON.parse(readFileSync(new URL("package.json", packageRoot()), "utf8")) as { peerDependenciesMeta?: Record<string, { optional?: boolean }> }
    return new Set(Object.entries(manifest.peerDependenciesMeta ?? {}).flatMap(([name, meta]) => (meta.optional ? [name] : [])))
  } catch {
    return new Set()
  }
}

/**
 * The package a failure to load a module names, when the failure (or its cause) is a package that
 * is not installed: `kysely` from Node's "Cannot find package 'kysely' imported from …",
 * `better-sqlite3` from a `require` of it, `@scope/name` from `@scope/name/sub`.
 *
 * @example
 * ```ts
 * missingPackageOf(await import("kysely").catch((error) => error)) // "kysely", when it is not installed
 * ```
 */
export function missingPackageOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code
    if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") continue
    const specifier = /Cannot find (?:package|module) '([^']+)'/.exec(current.message)?.[1]
    if (!specifier || /^[./]|^[a-z]+:/i.test(specifier)) return undefined
    return specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/")
  }
  return undefined
}

/**
 * The one line `authflow test` prints for a package the configuration module needs and the
 * project lacks: which package, and the command that installs it.
 *
 * @example
 * ```ts
 * missingPackageMessage("auth.config.mjs", "kysely")
 * // "authflow test: auth.config.mjs needs kysely (an optional package of authflow, not installed with it): npm install kysely"
 * ```
 */
export function missingPackageMessage(module: string, name: string): string {
  const whose = optionalPackages().has(name) ? "an optional package of authflow, not installed with it" : "not installed"
  return `authflow test: ${module} needs ${name} (${whose}): npm install ${name}`
}

/** Loads the module; a `.ts` one Node cannot load is run again under tsx, when the module's project has it. */
async function load(modulePath: string, args: string[]): Promise<AuthflowTestModule | number> {
  let exports: Record<string, unknown>
  try {
    exports = (await import(pathToFileURL(modulePath).href)) as Record<string, unknown>
  } catch (error) {
    const missing = missingPackageOf(error)
    if (missing) {
      process.stderr.write(`${missingPackageMessage(basename(modulePath), missing)}\n`)
      return 2
    }
    const unknownExtension = (error as { code?: string }).code === "ERR_UNKNOWN_FILE_EXTENSION"
    if (!unknownExtension || process.env[loaderFlag]) throw error
    let tsx: string
    try {
      tsx = createRequire(modulePath).resolve("tsx")
    } catch {
      process.stderr.write(`authflow test: ${basename(modulePath)} is TypeScript: install tsx in its project (npm install -D tsx) or compile it to JavaScript first\n`)
      return 2
    }
    const cli = fileURLToPath(new URL("dist/cli.js", packageRoot()))
    const script = existsSync(cli) ? cli : fileURLToPath(new URL("src/cli.ts", packageRoot()))
    const child = spawnSync(process.execPath, ["--import", pathToFileURL(tsx).href, script, "test", ...args], { stdio: "inherit", env: { ...process.env, [loaderFlag]: "1" } })
    return child.status ?? 1
  }
  const module = await testModuleOf(exports)
  if (!module) {
    process.stderr.write(
      `authflow test: ${basename(modulePath)} exports no configuration: export it as \`export const config\` (with \`export const fixtures\`, if any), or as \`export default { config, fixtures? }\`\n`,
    )
    return 2
  }
  return module
}

/**
 * Runs `authflow test` with the arguments after `test`; resolves with the exit code.
 *
 * @example
 * ```ts
 * process.exit(await testCommand(["./auth.config.ts", "--update"]))
 * ```
 */
export async function testCommand(args: string[]): Promise<number> {
  const update = args.includes("--update")
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(testUsage)
    return 0
  }
  const unknown = args.find((arg) => arg.startsWith("-") && arg !== "--update")
  const files = args.filter((arg) => !arg.startsWith("-"))
  if (unknown !== undefined || files.length !== 1) {
    process.stderr.write(`authflow test: ${unknown !== undefined ? `unknown option "${unknown}"` : "give one configuration module"}\n\n${testUsage}`)
    return 2
  }
  const modulePath = resolve(files[0]!)
  if (!existsSync(modulePath)) {
    process.stderr.write(`authflow test: ${files[0]} does not exist\n`)
    return 2
  }
  const module = await load(modulePath, args)
  if (typeof module === "number") return module

  try {
    return await run(module, modulePath, update)
  } catch (error) {
    // A package the configuration reaches for only once it runs (a database driver its fresh adapter opens).
    const missing = missingPackageOf(error)
    if (!missing) throw error
    process.stderr.write(`${missingPackageMessage(basename(modulePath), missing)}\n`)
    return 2
  }
}

/** Runs every path of the module's configuration and reports; resolves with the exit code. */
async function run(module: AuthflowTestModule, modulePath: string, update: boolean): Promise<number> {
  const snapshotFile = module.snapshotFile ? resolve(dirname(modulePath), module.snapshotFile) : defaultSnapshotFile(modulePath)
  const existed = existsSync(snapshotFile)
  let suite: Awaited<ReturnType<typeof authflowModelTests>>
  try {
    suite = await authflowModelTests(module.config, module.fixtures ?? {}, { snapshotFile, update })
  } catch (error) {
    // A configuration Auth() refuses: said as Auth() says it, and no path runs.
    if (!(error instanceof AuthError)) throw error
    process.stderr.write(`authflow test: ${error.type}: ${error.message}\n`)
    return 2
  }
  const differences: string[] = []
  for (const testCase of suite.cases) {
    const result = await testCase.run()
    if (result.difference) differences.push(result.difference)
  }
  process.stdout.write(`${formatCoverage(suite.coverage(), suite.unreachable)}\n\n`)
  for (const warning of suite.warnings) process.stdout.write(`warning: ${warning}\n\n`)
  try {
    const report = await suite.finish()
    const what = update ? "updated" : existed ? "unchanged" : "recorded"
    process.stdout.write(`${suite.cases.length} paths ${what}${report.written ? `: wrote ${snapshotFile}` : ""}\n`)
    return 0
  } catch (error) {
    const found = (error as { differences?: string[] }).differences ?? differences
    process.stdout.write(`${found.join("\n\n")}\n\n${found.length} of ${suite.cases.length} paths differ from ${snapshotFile} (run with --update to accept them)\n`)
    return 1
  }
}
