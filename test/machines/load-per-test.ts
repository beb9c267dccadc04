/**
 * Every model test drives machines defined afresh: before each test, the machine modules a test file
 * names are imported again (a new module instance each time), and every importer, the engine's
 * actions included, reads the machines through exports that point at the running test's instance.
 *
 * Why: a machine's definition (its states, targets, effect names, the shared state configs spread
 * into it) runs once, when its module loads. Loaded once per file, at collection, it belongs to no
 * test, so a mutation testing tool cannot tell which tests check it (Stryker calls such mutants
 * static, and with `ignoreStatic` runs them against the few tests that happened to load the module,
 * with the mutant switched on only after it loaded). Loaded inside each test, it is covered by every
 * test that drives it, and a mutant in it is in the machine the test drives.
 *
 * Outside a test (at collection, where the model generates its paths) the exports read the module
 * as first loaded.
 *
 * @example
 * ```ts
 * vi.mock("../../src/machines/sign-out.js", async (load) => (await import("./load-per-test.js")).perTestExports("sign-out", await load()))
 * loadMachinesPerTest("sign-out")
 * ```
 */
import { beforeEach } from "vitest"

/** A module under src/machines, by its file name without `.ts`. */
export type MachineModule = "credentials-sign-in" | "credentials-read" | "email-sign-in" | "email-verification" | "email-code" | "email-user" | "oauth" | "webauthn" | "sign-out" | "token-refresh" | "backchannel-logout" | "second-factor" | "factors" | "step-up" | "password-sign-in" | "password-sign-up" | "password-verify-email" | "password-change-email" | "password-confirm-email" | "password-verify-code" | "emailed-code" | "password-reset-request" | "password-reset" | "password-reset-code" | "password-change" | "multi-session" | "password-link" | "password-session" | "sign-in-tail" | "rate-limit" | "csrf-check" | "flow-claim" | "account-linking" | "run-flow"

const loadedForTest = new Map<MachineModule, Record<string, unknown>>()
let generation = 0

/**
 * The exports of a machine module, each read from the instance the running test loaded (or, before
 * any test, from `loaded`). For a `vi.mock` factory.
 *
 * @param name - The module.
 * @param loaded - The module as first loaded (`importOriginal()`).
 */
export function perTestExports(name: MachineModule, loaded: Record<string, unknown>): Record<string, unknown> {
  const exports: Record<string, unknown> = {}
  for (const key of Object.keys(loaded)) {
    Object.defineProperty(exports, key, { enumerable: true, get: () => (loadedForTest.get(name) ?? loaded)[key] })
  }
  return exports
}

/**
 * Before each test, imports the named modules again, in order: a shared piece (the sign-in tail,
 * the rate limiter, the CSRF check) before the machines that spread it in. Each must be mocked with
 * {@link perTestExports} in the test file, so that the engine reads the new instance.
 *
 * @param names - The modules, shared pieces first.
 */
export function loadMachinesPerTest(...names: MachineModule[]): void {
  beforeEach(async () => {
    const query = `test=${generation++}`
    for (const name of names) loadedForTest.set(name, await import(/* @vite-ignore */ `../../src/machines/${name}.ts?${query}`))
  })
}
