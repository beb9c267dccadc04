/**
 * Password hashing bundled and run inside the `edge-runtime` VM (no Node built-ins, so PBKDF2 on
 * WebCrypto). `run()` answers what it computed, for the test in Node to compare.
 */
import { dummyVerify, hashPassword, verifyPassword } from "../../../src/core/password/index.js"

/** Hashes and verifies on the edge; `fromNode` is a PBKDF2 hash of "café au lait" made by Node, `scryptFromNode` an scrypt one. */
export async function run(fromNode: string, scryptFromNode: string) {
  const stored = await hashPassword("cafe\u0301 au lait")
  const plain = (result: { valid: boolean; needsRehash: boolean }) => ({ valid: result.valid, needsRehash: result.needsRehash })
  return {
    hasGetBuiltinModule: typeof (globalThis as { process?: { getBuiltinModule?: unknown } }).process?.getBuiltinModule === "function",
    stored,
    ownVerified: plain(await verifyPassword("caf\u00e9 au lait", stored)),
    wrongRefused: plain(await verifyPassword("cafe au lait", stored)),
    nodeVerified: plain(await verifyPassword("cafe\u0301 au lait", fromNode)),
    scryptError: (await verifyPassword("pw", scryptFromNode)).error?.type,
    dummy: plain(await dummyVerify("anything")),
  }
}
