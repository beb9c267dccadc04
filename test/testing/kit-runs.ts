/**
 * What the kit's tests on a Password provider share: fresh SQLite databases behind the Kysely
 * adapter, and one run of the kit's cases of some machines, with what they ended in and covered.
 */
import { afterAll } from "vitest"
import { authflowModelTests, type AuthflowFixtures, type CaseResult } from "../../src/testing/index.js"
import { KyselyAdapter, createSqliteDatabase, migrateToLatest } from "../../src/adapters/kysely/index.js"
import type { Adapter } from "../../src/adapters.js"
import type { AuthConfig } from "../../src/types.js"

/**
 * A maker of fresh SQLite databases in memory, migrated, each behind the Kysely adapter; every
 * database it made is destroyed after the calling file's tests. Call it at a test file's top level.
 */
export function sqliteAdapters(): () => Promise<Adapter> {
  const databases: { destroy(): Promise<void> }[] = []
  afterAll(async () => {
    for (const database of databases) await database.destroy()
  })
  return async () => {
    const database = createSqliteDatabase(":memory:")
    databases.push(database)
    await migrateToLatest(database)
    return KyselyAdapter(database)
  }
}

/**
 * Runs the kit's cases of `machines` on `config` with `fixtures`: the suite, each case's result by
 * name, a machine's coverage, and the final state a case ended in.
 */
export async function runKitCases(config: AuthConfig, fixtures: AuthflowFixtures, machines: readonly string[]) {
  const suite = await authflowModelTests(config, fixtures)
  const results = new Map<string, CaseResult>()
  for (const testCase of suite.cases) if (machines.includes(testCase.machine)) results.set(testCase.name, await testCase.run())
  const coverage = (machine: string) => suite.coverage().find((each) => each.machine === machine)!
  const final = (name: string) => results.get(name)?.outcome.final
  return { suite, results, coverage, final }
}
