import { afterEach, describe, expect, it, vi } from "vitest"
import * as authjs from "@auth/core/jwt"
import { SALT, SECRET } from "./helpers.js"

afterEach(() => {
  vi.unstubAllGlobals()
  vi.resetModules()
})

// Load the modules fresh, as a runtime without process.getBuiltinModule (an edge worker) would.
async function loadWithout(getBuiltinModule: unknown) {
  vi.resetModules()
  vi.stubGlobal("process", { ...process, getBuiltinModule })
  const runtime = await import("../../../src/core/jwt/runtime.js")
  const jwt = await import("../../../src/jwt.js")
  vi.unstubAllGlobals()
  return { runtime, jwt }
}

describe("runtime detection", () => {
  it.each([
    ["missing", undefined],
    ["throwing", () => { throw new Error("not allowed") }],
    ["returning nothing", () => undefined],
  ])("with getBuiltinModule %s, the modules load and use the portable path", async (_case, getBuiltinModule) => {
    const { runtime, jwt } = await loadWithout(getBuiltinModule)
    expect(runtime.nodeRuntime()).toBeUndefined()
    expect(runtime.useNodeCrypto(true)).toBe(false) // cannot be forced on
    const token = await jwt.encode({ token: { sub: "edge" }, secret: SECRET, salt: SALT })
    expect((await jwt.decode({ token, secret: SECRET, salt: SALT }))!.sub).toBe("edge")
    expect((await authjs.decode({ token, secret: SECRET, salt: SALT }))!.sub).toBe("edge")
    const fromAuthjs = await authjs.encode({ token: { sub: "core" }, secret: SECRET, salt: SALT })
    expect((await jwt.decode({ token: fromAuthjs, secret: SECRET, salt: SALT }))!.sub).toBe("core")
  })

  it("on Node the fast path is detected and on by default", async () => {
    vi.resetModules()
    const runtime = await import("../../../src/core/jwt/runtime.js")
    expect(runtime.nodeRuntime()?.crypto.createCipheriv).toBeTypeOf("function")
  })
})
