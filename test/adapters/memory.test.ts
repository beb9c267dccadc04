import { describe, expect, it } from "vitest"
import type { Adapter } from "../../src/adapters.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { describeAdapterConformance } from "./conformance.js"

// reset() swaps in a fresh adapter; the suite keeps one reference, so it goes through a proxy (over
// an adapter of the same shape, so that Auth() finds its methods when it lists them).
describeAdapterConformance("memory", async () => {
  let current = MemoryAdapter()
  const adapter = new Proxy(MemoryAdapter() as Required<Adapter>, {
    get: (_, method: keyof Adapter) => current[method],
  })
  return {
    adapter,
    reset: async () => {
      current = MemoryAdapter()
    },
    close: async () => {},
  }
})

describe("MemoryAdapter", () => {
  it("keeps the data of two instances apart", async () => {
    const first = MemoryAdapter()
    const second = MemoryAdapter()
    const user = await first.createUser({ id: "u1", email: "ada@example.test", emailVerified: null })
    expect(await first.getUser(user.id)).toEqual(user)
    expect(await second.getUser(user.id)).toBeNull()
  })

  it("does not store account keys the SQL adapter would drop", async () => {
    const adapter = MemoryAdapter()
    await adapter.createUser({ id: "u1", email: "ada@example.test", emailVerified: null })
    await adapter.linkAccount({ userId: "u1", type: "oauth", provider: "github", providerAccountId: "1", expires_in: 3600 })
    expect(await adapter.getAccount("1", "github")).toEqual({ userId: "u1", type: "oauth", provider: "github", providerAccountId: "1" })
  })
})
