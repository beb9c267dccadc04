/**
 * The floor plan of src/, checked: every module sits on a floor, imports only its own floor or the
 * floors below, and no chain of imports comes back to where it started. Every import counts: `import`,
 * `import type`, `export … from`, `import("…")` and `import("…").Type`.
 *
 * A failure names each upward import as `from:line → to (floor → floor)` and each circle as its path
 * `a → b → … → a`. Fix it by moving the module (or the declaration both sides share) to the floor where
 * it belongs, never by adding an exception here.
 */
import { readFileSync, readdirSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const src = join(new URL("..", import.meta.url).pathname, "src")

/**
 * The floors, bottom first. A module's floor is the first entry whose path is the module's path or a
 * folder above it, so a file listed alone goes before its folder.
 *
 * - definitions: the types every floor speaks (users, accounts, sessions, JWTs, cookies, the logger:
 *   `base-types.ts`) and the Adapter contract. They name nothing above them.
 * - core: primitives (crypto, JWT, cookies, origin, CSRF, errors, options, logger and redaction,
 *   stores, the OAuth protocol steps), the provider definitions they are written for, the pages they
 *   render, and the configuration's types (`types.ts`: `AuthConfig` names the stores, the providers
 *   and the errors of this floor, and the options of this floor read `AuthConfig`). None of them runs
 *   a flow.
 * - machines: pure xstate definitions; every decision lives here.
 * - actions: route handlers and the effects their machines name.
 * - router: `Auth()` and the dispatch, which loads an action when its route is first hit.
 * - entries: the public entry files and the adapters built on the contract.
 * - integrations: what is built on `Auth()`: framework wrappers, the browser client, the inspector.
 * - testing: `authflow/testing`, which drives `Auth()` and reads the machines and the inspector.
 * - cli: the `authflow` command, on top of everything.
 */
const floors: ReadonlyArray<{ name: string; paths: string[] }> = [
  { name: "definitions", paths: ["base-types.ts", "adapters.ts"] },
  { name: "core", paths: ["types.ts", "core", "providers", "pages"] },
  { name: "machines", paths: ["machines"] },
  { name: "actions", paths: ["actions"] },
  { name: "router", paths: ["auth.ts"] },
  { name: "entries", paths: ["index.ts", "jwt.ts", "errors.ts", "rate-limit.ts", "adapters"] },
  { name: "integrations", paths: ["frameworks", "client", "inspect"] },
  { name: "testing", paths: ["testing"] },
  { name: "cli", paths: ["cli.ts"] },
]

/** The floor of a module (a path relative to src), by its index in `floors`. */
function floorOf(module: string): number {
  const index = floors.findIndex(({ paths }) => paths.some((path) => module === path || module.startsWith(`${path}/`)))
  if (index < 0) throw new Error(`${module} is on no floor: add it to \`floors\` in test/floors.test.ts`)
  return index
}

/** One import: the importing module, its line, and the module imported (paths relative to src). */
interface Arrow {
  from: string
  line: number
  to: string
}

/** The TypeScript modules under src, tests excluded, relative to src. */
function modulesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.endsWith(".d.ts"))
    .map((file) => file.split("\\").join("/"))
    .sort()
}

/** The module a relative specifier names (`./x.js` is `x.ts`, `x.tsx` or `x/index.ts`). */
function resolveSpecifier(known: Set<string>, from: string, specifier: string): string {
  const base = relative(src, resolve(src, dirname(from), specifier)).split("\\").join("/").replace(/\.js$/, "")
  const found = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((candidate) => known.has(candidate))
  if (!found) throw new Error(`${from} imports ${specifier}, which is no module under src`)
  return found
}

/** Every relative import of every module under src, read with the TypeScript parser. */
function arrowsOf(folder: string): Arrow[] {
  const modules = modulesUnder(folder)
  const known = new Set(modules)
  const arrows: Arrow[] = []
  for (const from of modules) {
    const file = ts.createSourceFile(from, readFileSync(join(folder, from), "utf8"), ts.ScriptTarget.Latest, true)
    const visit = (node: ts.Node): void => {
      let specifier: string | undefined
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        specifier = node.moduleSpecifier.text
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
        specifier = node.arguments[0].text
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
        specifier = node.argument.literal.text
      } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
        specifier = node.moduleReference.expression.text
      }
      if (specifier?.startsWith(".")) {
        const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1
        arrows.push({ from, line, to: resolveSpecifier(known, from, specifier) })
      }
      ts.forEachChild(node, visit)
    }
    visit(file)
  }
  return arrows
}

/** The imports that point to a higher floor, as `from:line → to (floor → floor)`. */
function upwardImports(arrows: Arrow[]): string[] {
  return arrows
    .filter(({ from, to }) => floorOf(to) > floorOf(from))
    .map(({ from, line, to }) => `${from}:${line} → ${to} (${floors[floorOf(from)]!.name} → ${floors[floorOf(to)]!.name})`)
}

/**
 * The circles among the modules, one path per strongly connected component (Tarjan), each written
 * from its first module in path order back to itself.
 */
function circles(arrows: Arrow[]): string[] {
  const next = new Map<string, string[]>()
  for (const { from, to } of arrows) {
    const targets = next.get(from) ?? []
    if (!targets.includes(to)) targets.push(to)
    next.set(from, targets.sort())
  }
  const order = new Map<string, number>()
  const lowest = new Map<string, number>()
  const stack: string[] = []
  const components: string[][] = []
  const connect = (module: string): void => {
    order.set(module, order.size)
    lowest.set(module, order.get(module)!)
    stack.push(module)
    for (const target of next.get(module) ?? []) {
      if (!order.has(target)) {
        connect(target)
        lowest.set(module, Math.min(lowest.get(module)!, lowest.get(target)!))
      } else if (stack.includes(target)) {
        lowest.set(module, Math.min(lowest.get(module)!, order.get(target)!))
      }
    }
    if (lowest.get(module) === order.get(module)) {
      const component = stack.splice(stack.indexOf(module))
      if (component.length > 1 || next.get(module)?.includes(module)) components.push(component.sort())
    }
  }
  for (const module of [...next.keys()].sort()) if (!order.has(module)) connect(module)
  return components.map((component) => {
    // The shortest way back to the start, inside the component (breadth first).
    const members = new Set(component)
    const start = component[0]!
    const cameFrom = new Map<string, string>()
    const queue = [start]
    while (queue.length > 0) {
      const module = queue.shift()!
      const target = (next.get(module) ?? []).find((candidate) => candidate === start)
      if (target) {
        const path = [start]
        for (let step: string | undefined = module; step !== undefined && step !== start; step = cameFrom.get(step)) path.splice(1, 0, step)
        const others = component.filter((member) => !path.includes(member))
        return [...path, start].join(" → ") + (others.length ? ` (more circles run through it and ${others.join(", ")})` : "")
      }
      for (const candidate of next.get(module) ?? []) {
        if (members.has(candidate) && candidate !== start && !cameFrom.has(candidate)) {
          cameFrom.set(candidate, module)
          queue.push(candidate)
        }
      }
    }
    return component.join(" → ")
  })
}

describe("the floors of src", () => {
  const arrows = arrowsOf(src)

  it("reads the imports of every module", () => {
    expect(arrows.length).toBeGreaterThan(500)
    expect(arrows).toContainEqual(expect.objectContaining({ from: "index.ts", to: "types.ts" }))
  })

  it("puts every module on a floor", () => {
    for (const module of modulesUnder(src)) expect(floorOf(module)).toBeGreaterThanOrEqual(0)
  })

  it("has no import to a higher floor", () => {
    expect(upwardImports(arrows)).toEqual([])
  })

  it("has no circle of imports", () => {
    expect(circles(arrows)).toEqual([])
  })

  it("finds an upward import and a circle when there is one", () => {
    const planted: Arrow[] = [
      { from: "core/a.ts", line: 3, to: "actions/b.ts" },
      { from: "actions/b.ts", line: 1, to: "machines/c.ts" },
      { from: "machines/c.ts", line: 2, to: "core/a.ts" },
    ]
    expect(upwardImports(planted)).toEqual(["core/a.ts:3 → actions/b.ts (core → actions)"])
    expect(circles(planted)).toEqual(["actions/b.ts → machines/c.ts → core/a.ts → actions/b.ts"])
  })
})
