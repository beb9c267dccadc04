/**
 * The second factor's primitives on the edge runtime: the bundle imports no Node built-in, and
 * inside the `edge-runtime` VM (WebCrypto only) they give the RFC 6238 codes and the same hashes
 * and seals as Node, each side opening what the other sealed.
 */
import { EdgeRuntime } from "edge-runtime"
import { describe, expect, it } from "vitest"
import { hashBackupCode, hashEmailCode, openFactorSecret, qrCodeSvg, sealFactorSecret } from "../../src/core/second-factor/index.js"
import { bundleForEdge } from "./bundle.js"

const secret = "edge-runtime-secret-0123456789abcdef"

describe("the second factor's primitives inside the edge-runtime VM", () => {
  it("compute what Node computes, and seals cross between the two", async () => {
    const { code, nodeImports } = await bundleForEdge("test/edge/second-factor-scenarios.ts", { format: "iife", globalName: "secondFactor" })
    expect(nodeImports).toEqual([])
    const seed = new Uint8Array(20).fill(9)
    const sealedInNode = await sealFactorSecret(seed, secret)
    const runtime = new EdgeRuntime({ initialCode: code })
    const edge = await runtime.evaluate<Promise<any>>(`secondFactor.run(${JSON.stringify(secret)}, ${JSON.stringify(sealedInNode)})`)

    expect(edge.hasNodeCrypto).toBe(false)
    expect(edge.rfc6238Sha512).toBe("90693936")
    expect(edge.verified).toEqual({ step: 1 })
    expect(edge.reopened).toHaveLength(64)
    expect(edge.openedFromNode).toEqual(Array.from(seed))
    expect(Array.from((await openFactorSecret(edge.sealed, secret))!)).toEqual(edge.reopened)
    expect(edge.backupCodeHash).toBe(await hashBackupCode("k7m2q-x9c4h", secret))
    expect(edge.emailCodeHash).toBe(await hashEmailCode("038114", secret))
    expect(edge.emailCodeMatches).toBe(true)
    expect(edge.qrLength).toBe(qrCodeSvg("otpauth://totp/Acme:ada?secret=GEZDGNBVGY3TQOJQ").length)
  })
})
