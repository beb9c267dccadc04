/**
 * What an app's bundle loads, read from esbuild's metafile: the output files its entry imports, and
 * those the `import()`s of chosen modules bring. Shared by bench/cold.ts and
 * test/package/bundle-layout.test.ts.
 *
 * @example
 * ```ts
 * const files = loadedFrom(result.metafile, (entryPoint) => entryPoint.includes("app-"), (module) => module.endsWith("src/actions/session.ts"))
 * ```
 * @module
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import type { Metafile } from "esbuild"

/** The source modules of an input file: a file of dist's, by its source map; a module of src's, itself. */
function sourcesOf(input: string): string[] {
  const map = `${input}.map`
  if (!input.endsWith(".js") || !existsSync(map)) return [input]
  return (JSON.parse(readFileSync(map, "utf8")) as { sources: string[] }).sources.map((source) => join(input, "..", source))
}

/**
 * The output files loaded from the entry (the output whose entry point `isEntry` accepts): its
 * static imports, and the dynamic imports `follow` accepts (by a source module of the file each one
 * loads), each with its own imports, recursively. A package left external is not a file of the bundle.
 */
export function loadedFrom(metafile: Metafile, isEntry: (entryPoint: string) => boolean, follow: (module: string) => boolean): Set<string> {
  const entry = Object.keys(metafile.outputs).find((path) => isEntry(metafile.outputs[path]!.entryPoint ?? ""))!
  const loaded = new Set<string>()
  const pending = [entry]
  while (pending.length) {
    const output = pending.pop()!
    if (loaded.has(output)) continue
    loaded.add(output)
    for (const { path, kind, external } of metafile.outputs[output]!.imports) {
      if (external) continue
      if (kind === "import-statement" || (kind === "dynamic-import" && sourcesOf(metafile.outputs[path]?.entryPoint ?? "").some(follow))) pending.push(path)
    }
  }
  return loaded
}
