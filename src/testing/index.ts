/**
 * `authflow/testing`: model-based regression tests of your own auth configuration. Every path
 * through every flow machine your configuration uses is driven through the real `Auth()`, with
 * the outside world (OAuth providers, mail) replaced by stand-ins and your own code untouched;
 * each path's outcome is kept in a snapshot file, so a change that alters who gets in fails as a
 * named path.
 *
 * @example
 * ```ts
 * import { authflowModelTests } from "authflow/testing"
 * const suite = await authflowModelTests(config, fixtures, { snapshotFile: "auth.snap.json" })
 * for (const { name, run } of suite.cases) test(name, async () => assert.equal((await run()).difference, undefined))
 * ```
 * @module
 */
export { authflowModelTests } from "./suite.js"
export type { ModelTestCase, ModelTestOptions, ModelTestSuite, UnreachablePath } from "./suite.js"
export type { CaseResult, FinishReport } from "./compare.js"
export type { MachineCoverage } from "./coverage.js"
export type { AuthflowFixtures, CredentialsFixture } from "./fixtures.js"
export type { CaseOutcome } from "./outcome.js"
export { describeDifference, stableJson } from "./outcome.js"
export type { ResponseSummary } from "./browser.js"
export { StandInProvider } from "./stand-in.js"
export type { RedirectBackOptions, StandInFaults, StandInOptions } from "./stand-in/options.js"
export { formatCoverage } from "./report.js"
export { SoftCredential, cbor } from "./authenticator.js"
export type { AuthenticationOptionsJSON, Bend, Cbor, RegistrationOptionsJSON } from "./authenticator.js"
export { softwareTotp, totpFromUri } from "./totp.js"
export type { SoftwareTotp, SoftwareTotpFromUri } from "./totp.js"
export { faultyAdapter, malformedAnswer } from "./faulty-adapter.js"
export type { AdapterCall, FaultMode, FaultPlan, FaultyAdapter } from "./faulty-adapter.js"
export type { AuthflowTestModule } from "./cli.js"
