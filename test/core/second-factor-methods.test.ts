import { describe, expect, it } from "vitest"
import type { Adapter } from "../../src/adapters.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { SECOND_FACTOR_METHODS, missingSecondFactorMethods } from "../../src/core/second-factor-methods.js"

describe("second factor's adapter methods", () => {
  it("lists the eight methods a second factor stores its data with", () => {
    expect([...SECOND_FACTOR_METHODS]).toEqual([
      "createFactor", "listFactorsByUserId", "renameFactor", "deleteFactor",
      "useFactorStep", "replaceBackupCodes", "useBackupCode", "countBackupCodes",
    ])
  })

  it("finds none missing from authflow's memory adapter", () => {
    expect(missingSecondFactorMethods(MemoryAdapter())).toEqual([])
  })

  it("names the missing ones in the list's order, ignoring properties that are not functions", () => {
    const { useFactorStep: _, countBackupCodes: __, ...partial } = MemoryAdapter()
    expect(missingSecondFactorMethods(partial)).toEqual(["useFactorStep", "countBackupCodes"])
    expect(missingSecondFactorMethods({ ...partial, useFactorStep: true } as unknown as Adapter)).toEqual(["useFactorStep", "countBackupCodes"])
    expect(missingSecondFactorMethods({})).toEqual([...SECOND_FACTOR_METHODS])
  })

  it("counts methods an adapter class inherits", () => {
    class FactorStore {
      async createFactor() {}
      async listFactorsByUserId() { return [] }
    }
    class ClassAdapter extends FactorStore {
      async renameFactor() { return null }
    }
    expect(missingSecondFactorMethods(new ClassAdapter() as unknown as Adapter)).toEqual([
      "deleteFactor", "useFactorStep", "replaceBackupCodes", "useBackupCode", "countBackupCodes",
    ])
  })
})
