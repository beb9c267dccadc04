/**
 * The replay and refresh stores as the package's entry exports them (`src/core/stores.ts`): made
 * at once, their code loaded with the first call of a method, they answer as the stores they stand
 * for; `adapterReplayStore` still refuses an adapter without `createVerificationToken` when it is
 * called, has `issue`/`claim` exactly when the adapter has `useVerificationToken`, and uses the
 * adapter's methods as they were when it was called.
 */
import { describe, expect, it } from "vitest"
import { adapterReplayStore, isUniqueViolation, memoryRefreshStore, memoryReplayStore, redisRefreshStore, redisReplayStore } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { Adapter } from "../../src/adapters.js"

const later = () => Date.now() + 60_000

describe("the entry's replay stores", () => {
  it("memoryReplayStore: a key is used once, and each store remembers its own keys", async () => {
    const one = memoryReplayStore()
    const other = memoryReplayStore()
    expect(await one.markUsed("flow-1", later())).toBe(true)
    expect(await one.markUsed("flow-1", later())).toBe(false)
    expect(await other.markUsed("flow-1", later())).toBe(true)
    expect("issue" in one).toBe(false)
  })

  it("redisReplayStore: SET … NX with the prefix, true only for OK", async () => {
    const calls: unknown[][] = []
    const store = redisReplayStore({ set: async (...args) => (calls.push(args), calls.length === 1 ? "OK" : null) }, { prefix: "p:" })
    expect(calls).toEqual([]) // nothing is sent before a method is called
    expect(await store.markUsed("k", 1000.2)).toBe(true)
    expect(await store.markUsed("k", 1000.2)).toBe(false)
    expect(calls).toEqual([
      ["p:k", "1", "PXAT", 1001, "NX"],
      ["p:k", "1", "PXAT", 1001, "NX"],
    ])
  })

  it("adapterReplayStore: an adapter without createVerificationToken is refused when it is called", () => {
    const { createVerificationToken: _, ...adapter } = MemoryAdapter()
    expect(() => adapterReplayStore(adapter)).toThrow(new TypeError("adapterReplayStore needs an adapter with createVerificationToken: add it to the adapter, or pass replayStore: redisReplayStore(client)"))
  })

  it("adapterReplayStore: issue and claim exactly when the adapter has useVerificationToken; a flow is claimed once", async () => {
    const { useVerificationToken: _, ...insertOnly } = MemoryAdapter()
    expect(Object.keys(adapterReplayStore(insertOnly)).sort()).toEqual(["markUsed"])

    const store = adapterReplayStore(MemoryAdapter())
    expect(Object.keys(store).sort()).toEqual(["claim", "issue", "markUsed"])
    await store.issue!("flow-1", later())
    expect(await store.claim!("flow-1")).toBe(true)
    expect(await store.claim!("flow-1")).toBe(false)
    expect(await store.claim!("never-issued")).toBe(false)
    // The memory adapter refuses a duplicate token: markUsed is exactly-once in the database.
    expect(await store.markUsed("jti-1", later())).toBe(true)
    expect(await store.markUsed("jti-1", later())).toBe(false)
  })

  it("adapterReplayStore uses the adapter's methods as they were when it was called", async () => {
    const adapter: Adapter = MemoryAdapter()
    const created: string[] = []
    const create = adapter.createVerificationToken!.bind(adapter)
    adapter.createVerificationToken = async (token) => (created.push(token.identifier), create(token))
    const store = adapterReplayStore(adapter)
    adapter.createVerificationToken = async () => {
      throw new Error("replaced after the store was made")
    }
    await store.issue!("flow-1", later())
    expect(created).toEqual(["authflow:flow"])
  })

  it("isUniqueViolation reads the codes of the drivers' duplicate errors, through causes", () => {
    expect(isUniqueViolation(Object.assign(new Error("duplicate"), { code: "23505" }))).toBe(true)
    expect(isUniqueViolation(new Error("wrapped", { cause: { errno: 1062 } }))).toBe(true)
    expect(isUniqueViolation(new Error("other"))).toBe(false)
  })
})

describe("the entry's refresh stores", () => {
  it("memoryRefreshStore: a claim is won once, then read as busy, then as done once published", async () => {
    const store = memoryRefreshStore()
    expect(await store.read("k")).toBeUndefined()
    expect(await store.claim("k", later())).toEqual({ state: "won" })
    expect(await store.claim("k", later())).toEqual({ state: "busy" })
    await store.publish("k", "sealed", later())
    expect(await store.read("k")).toEqual({ state: "done", result: "sealed" })
    expect(await memoryRefreshStore().read("k")).toBeUndefined()
  })

  it("redisRefreshStore: SET … NX to claim, SET to publish, GET to read, with the prefix", async () => {
    const values = new Map<string, string>()
    const client = {
      set: async (key: string, value: string, _expiry: "PXAT", _at: number, mode?: "NX") => {
        if (mode === "NX" && values.has(key)) return null
        values.set(key, value)
        return "OK"
      },
      get: async (key: string) => values.get(key) ?? null,
    }
    const store = redisRefreshStore(client, { prefix: "r:" })
    expect(await store.claim("k", later())).toEqual({ state: "won" })
    expect(await store.claim("k", later())).toEqual({ state: "busy" })
    await store.publish("k", "sealed", later())
    expect(await store.read("k")).toEqual({ state: "done", result: "sealed" })
    expect([...values.keys()]).toEqual(["r:k"])
  })
})
