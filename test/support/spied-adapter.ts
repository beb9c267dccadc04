/** A MemoryAdapter for the email tests, seen through a wrapper that records the verification tokens it is asked to store. */
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { Adapter, VerificationToken } from "../../src/adapters.js"

/** The MemoryAdapter (`memory`), the wrapper to configure (`adapter`) and what it stored (`storedTokens`). */
export function spiedAdapter() {
  const memory = MemoryAdapter()
  const storedTokens: VerificationToken[] = []
  const adapter: Adapter = {
    ...memory,
    async createVerificationToken(token) {
      storedTokens.push({ ...token })
      return memory.createVerificationToken(token)
    },
  }
  return { memory, adapter, storedTokens }
}
