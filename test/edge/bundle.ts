/**
 * Bundles authflow entries for a runtime without Node's built-ins (a browser-like target, as the
 * edge runtime is) and reports every import of a Node built-in in what would run there.
 */
import { builtinModules } from "node:module"
import { readdirSync } from "node:fs"
import { build, type Plugin } from "esbuild"

const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]))

/** The package entries that run on the edge: the core, the JWT helpers, the memory adapter, every provider, the Next.js wrapper. */
export const edgeEntries: Record<string, string> = {
  authflow: "src/index.ts",
  "authflow/jwt": "src/jwt.ts",
  "authflow/errors": "src/errors.ts",
  "authflow/adapters": "src/adapters.ts",
  "authflow/adapters/memory": "src/adapters/memory.ts",
  "authflow/next": "src/frameworks/next/index.ts",
  ...Object.fromEntries(
    readdirSync("src/providers")
      .filter((file) => file.endsWith(".ts"))
      .map((file) => [`authflow/providers/${file.slice(0, -3)}`, `src/providers/${file}`]),
  ),
}

/** The framework itself, provided by the app at run time. */
const provided = ["next", "next/*", "react", "react/*"]

/** Fails the build on an import of a Node built-in, naming the importer. */
function noNodeBuiltins(found: string[]): Plugin {
  return {
    name: "no-node-builtins",
    setup(builder) {
      builder.onResolve({ filter: /.*/ }, (args) => {
        if (!builtins.has(args.path)) return undefined
        found.push(`${args.path} imported by ${args.importer}`)
        return { path: args.path, external: true }
      })
    },
  }
}

/**
 * Bundles `entry` for the browser platform; resolves with the Node built-ins it imports (empty
 * when it runs on the edge) and the bundle's text.
 *
 * @example
 * ```ts
 * const { nodeImports } = await bundleForEdge("src/index.ts")
 * ```
 */
export async function bundleForEdge(entry: string, options: { format?: "esm" | "iife"; globalName?: string } = {}) {
  const nodeImports: string[] = []
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: "browser",
    format: options.format ?? "esm",
    globalName: options.globalName,
    target: "es2022",
    external: provided,
    conditions: ["edge-light", "worker", "browser"],
    logLevel: "silent",
    plugins: [noNodeBuiltins(nodeImports)],
  })
  return { nodeImports, code: result.outputFiles[0]!.text }
}
