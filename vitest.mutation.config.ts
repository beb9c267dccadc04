import { defineConfig } from "vitest/config"
import { BaseSequencer, type TestSpecification } from "vitest/node"

/**
 * The tests Stryker runs against each mutant (`npm run mutation`, see stryker.config.mjs): for each
 * scope, the in-process suites that exercise its code. Every mutant re-imports the files of the tests
 * covering it, so a scope lists only the files that test its code directly (the flow-level suites such
 * as test/model/oauth.test.ts cost seconds per mutant); no browser, database, Redis or child process
 * (test/security/flows.test.ts shares a Redis replay store, so it stays out).
 */
const scopes: Record<string, string[]> = {
  security: [
    "test/core/csrf.test.ts",
    "test/actions/account-linking.test.ts",
    "test/actions/flow-cookie.test.ts",
    "test/core/redirect.test.ts",
    "test/core/origin.test.ts",
    "test/core/crypto.test.ts",
    "test/core/cookies.test.ts",
    "test/core/jwt/*.test.ts",
    "test/security/cookies.test.ts",
    "test/wire/cookies.test.ts",
  ],
  machines: ["test/model/*.test.ts", "test/machines/*.test.ts"],
}

const scope = process.env.AUTHFLOW_MUTATION_SCOPE ?? "security"
const include = scopes[scope]
if (!include) throw new Error(`AUTHFLOW_MUTATION_SCOPE must be one of ${Object.keys(scopes).join(", ")}, not "${scope}": fix the variable or unset it`)

/**
 * Runs the direct machine tests (test/machines: milliseconds each) before the flow-level suites
 * (test/model: seconds each), otherwise in vitest's order. Stryker stops a mutant's run at its first
 * failing test, so a mutant a direct test kills never loads the model suites: the order changes how
 * long a run takes, not which mutants are killed.
 */
class DirectMachineTestsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const direct = (file: TestSpecification) => file.moduleId.replaceAll("\\", "/").includes("/test/machines/")
    return [...sorted.filter(direct), ...sorted.filter((file) => !direct(file))]
  }
}

export default defineConfig({
  test: {
    include,
    sequence: { sequencer: DirectMachineTestsFirst },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
