/**
 * `authflow test <config module> [--update]`: runs {@link authflowModelTests} on a configuration
 * module, prints the coverage per machine and each path whose outcome differs from the snapshot,
 * and exits 1 on any difference (`--update` rewrites the snapshot instead), 2 on a configuration
 * `Auth()` refuses (its error's type and message on stderr).
 *
 * The module's default export is a {@link AuthflowTestModule}, or a function (possibly async)
 * returning one. A `.ts` module is loaded with `tsx` from the module's own project.
 *
 * @module
 */
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import { basename, dirname, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { authflowModelTests } from "./suite.js"
import { formatCoverage } from "./report.js"
import { AuthError } from "../core/errors.js"
import type { AuthflowFixtures } from "./fixtures.js"
import type { AuthConfig } from "../types.js"

/**
 * What a configuration module for `authflow test` exports by default (or a function, possibly
 * async, that returns it).
 *
 * @example
 * ```ts
 * // auth.config.ts
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
when Auth() would refuse the configuration (its error's type and message, as Auth() logs them).
  --update   rewrite the snapshot with this run's outcomes
The module's default export: { config, fixtures?, snapshotFile? }, or a function returning it.
A .ts module needs tsx in its project (npm install -D tsx), or compile it to .js first.
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

/** Loads the module; a `.ts` one Node cannot load is run again under tsx, when the module's project has it. */
async function load(modulePath: string, args: string[]): Promise<AuthflowTestModule | number> {
  try {
    const loaded = (await import(pathToFileURL(modulePath).href)) as { default?: unknown }
    const value = typeof loaded.default === "function" ? await (loaded.default as () => unknown)() : loaded.default
    const module = value as Partial<AuthflowTestModule> | undefined
    if (!module || typeof module !== "object" || !module.config || !Array.isArray(module.config.providers)) {
      process.stderr.write(`authflow test: ${modulePath} must export default { config, fixtures? } (or a function returning it)\n`)
      return 2
    }
    return module as AuthflowTestModule
  } catch (error) {
    const unknownExtension = (error as { code?: string }).code === "ERR_UNKNOWN_FILE_EXTENSION"
    if (!unknownExtension || process.env[loaderFlag]) throw error
    let tsx: string
    try {
      tsx = createRequire(modulePath).resolve("tsx")
    } catch {
      process.stderr.write(`authflow test: ${basename(modulePath)} is TypeScript: install tsx in its project (npm install -D tsx) or compile it to JavaScript first\n`)
      return 2
    }
    const cli = fileURLToPath(new URL("../cli.js", import.meta.url))
    const script = existsSync(cli) ? cli : fileURLToPath(new URL("../cli.ts", import.meta.url))
    const child = spawnSync(process.execPath, ["--import", pathToFileURL(tsx).href, script, "test", ...args], { stdio: "inherit", env: { ...process.env, [loaderFlag]: "1" } })
    return child.status ?? 1
  }
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
