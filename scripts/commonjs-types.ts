/**
 * Writes the CommonJS declarations: beside each `exports` entry's `.d.ts` in `dist`, a `.d.cts` that
 * re-exports it (`./providers/*` expands to every provider). package.json points the `require`
 * condition's `types` at them, so a CommonJS TypeScript project sees the same declarations as an ES
 * module one, while Node loads the same ES module through `require()` (Node ≥ 20.19 or ≥ 22.12).
 *
 * TypeScript's `module: node16` and `node18` model a Node that cannot `require()` an ES module and
 * report TS1479 on the re-export; the `@ts-ignore` above it keeps that out of a project that checks
 * library files (`skipLibCheck: false`). `nodenext` and `node20` raise nothing.
 *
 * Run after the declarations are built: `npm run build` and `npm pack` (prepack) do.
 *
 * @example
 * ```sh
 * tsc -p tsconfig.build.json && node --import tsx scripts/commonjs-types.ts
 * ```
 * @module
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { basename, dirname, join } from "node:path"
import ts from "typescript"

const root = new URL("..", import.meta.url).pathname

/** The `types` of a `require` condition, a `.d.cts`, for the `.d.ts` beside it. */
function commonjsTypes(declaration: string): string {
  return declaration.replace(/\.d\.ts$/, ".d.cts")
}

/** Whether a declaration file has a default export. */
function hasDefaultExport(file: string): boolean {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest)
  return source.statements.some(
    (statement) =>
      (ts.isExportAssignment(statement) && !statement.isExportEquals) ||
      (ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword)) ||
      (ts.isExportDeclaration(statement) && !!statement.exportClause && ts.isNamedExports(statement.exportClause) && statement.exportClause.elements.some((element) => element.name.text === "default")),
  )
}

/** The `.d.cts` that re-exports a `.d.ts` (a path in `dist`). */
function reexport(declaration: string): string {
  const target = JSON.stringify(`./${basename(declaration).replace(/\.d\.ts$/, ".js")}`)
  const ignore = "// @ts-ignore TS1479 under module node16/node18: Node ≥ 20.19 loads this ES module through require()."
  const lines = [ignore, `export * from ${target}`]
  if (hasDefaultExport(declaration)) lines.push(ignore, `export { default } from ${target}`)
  return `${lines.join("\n")}\n`
}

/** Every `.d.ts` the `exports` map names, wildcards expanded from `dist`. */
function declarations(): string[] {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, { types?: string } | string> }
  const files: string[] = []
  for (const target of Object.values(manifest.exports)) {
    const types = typeof target === "string" ? undefined : target.types
    if (!types) continue
    const path = join(root, types)
    if (!basename(path).includes("*")) files.push(path)
    else {
      const [prefix, suffix] = basename(path).split("*") as [string, string]
      files.push(...readdirSync(dirname(path)).filter((name) => name.startsWith(prefix) && name.endsWith(suffix)).map((name) => join(dirname(path), name)))
    }
  }
  return files
}

const files = declarations()
const missing = files.filter((file) => !existsSync(file))
if (missing.length || files.length === 0) {
  process.stderr.write(`commonjs-types: build the declarations first (tsc -p tsconfig.build.json); missing: ${missing.join(", ") || "dist"}\n`)
  process.exit(1)
}
for (const file of files) writeFileSync(commonjsTypes(file), reexport(file))
