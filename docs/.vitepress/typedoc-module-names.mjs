// @ts-check
/**
 * A TypeDoc plugin: names each reference module by the import path users write (`authflow/next`),
 * from package.json `exports`, instead of its source path (`frameworks/next`); and leaves out members
 * a class or interface only inherits (each error class would repeat `Error`'s and `AuthError`'s):
 * the page of the parent documents them once. A machine's type (xstate's `StateMachine` with every
 * state, event and guard spelt out, 170 KB for the eight) is shown by its name: the machine itself is
 * on the "Flows as machines" page, and `npx authflow machines` prints it.
 */
import { readFileSync } from "node:fs"
import { Converter, ReflectionKind, UnknownType } from "typedoc"

const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"))

/** TypeDoc's module name (its path under src, without `/index`) → the import path. */
const importPaths = new Map()
for (const [subpath, target] of Object.entries(manifest.exports)) {
  const types = typeof target === "string" ? undefined : target.types
  if (!types) continue
  const name = types.replace(/^\.\/dist\//, "").replace(/\.d\.ts$/, "").replace(/\/index$/, "")
  importPaths.set(name, subpath === "." ? "authflow" : `authflow/${subpath.slice(2)}`)
}

/** @param {import("typedoc").Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.getReflectionsByKind(ReflectionKind.Module)) {
      const name = importPaths.get(module.name) ?? (module.name.startsWith("providers/") ? `authflow/${module.name}` : undefined)
      if (name) module.name = name
    }
  })
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => {
    for (const reflection of Object.values(context.project.reflections)) {
      if (reflection.isDeclaration() && reflection.type?.type === "reference" && reflection.type.name === "StateMachine") reflection.type = new UnknownType("StateMachine<…>")
      if (reflection.isDeclaration() && reflection.inheritedFrom && reflection.parent?.kindOf(ReflectionKind.ClassOrInterface)) context.project.removeReflection(reflection)
    }
  })
}
