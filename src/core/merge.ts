function isPlainObject(value: unknown): value is Record<string | symbol, unknown> {
  if (value === null || typeof value !== "object") return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/**
 * Deep-merges plain objects into a new object: later sources win, arrays and class instances are
 * replaced whole, `undefined` never overrides, symbol keys are copied too.
 *
 * @example
 * ```ts
 * merge({ a: { x: 1, y: 2 } }, { a: { y: 3 }, b: undefined }) // { a: { x: 1, y: 3 } }
 * ```
 */
export function merge<T extends object>(target: T, ...sources: (object | undefined)[]): T {
  const result: Record<string | symbol, unknown> = { ...(target as Record<string | symbol, unknown>) }
  for (const source of sources) {
    if (!source) continue
    for (const key of Reflect.ownKeys(source)) {
      const value = (source as Record<string | symbol, unknown>)[key]
      if (value === undefined) continue
      const existing = result[key]
      result[key] = isPlainObject(existing) && isPlainObject(value) ? merge(existing, value) : value
    }
  }
  return result as T
}
