/**
 * Loading a module when it is first needed: the router loads each flow's action module this way
 * when its route is first hit, an action loads what only some requests need (the pages, the
 * refresh of provider tokens) when one first does, so a bundler splits them and an app carries only
 * what it serves.
 *
 * A module-level call carries the `@__PURE__` annotation comment: dist's files hold many modules each
 * (scripts/bundle-dist.ts), and the mark lets an app's bundler drop the call, and what it would
 * load, when the app uses nothing of it.
 *
 * @module
 */

/**
 * A module loaded when it is first asked for, then kept. A failed load is not kept: the next call
 * tries again.
 *
 * @example
 * ```ts
 * const pages = onFirstUse(() => import("../pages/index.js"))
 * const { renderErrorPage } = await pages() // loaded now; later calls get the same module
 * ```
 */
export function onFirstUse<Module>(load: () => Promise<Module>): () => Promise<Module> {
  let loading: Promise<Module> | undefined
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined
      throw error
    }))
}
