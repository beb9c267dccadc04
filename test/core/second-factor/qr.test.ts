import { encode } from "uqr"
import { describe, expect, it } from "vitest"
import { otpauthUri } from "../../../src/core/second-factor/otpauth.js"
import { QR_ERROR_CORRECTION, QR_QUIET_ZONE, qrCodeSvg } from "../../../src/core/second-factor/qr.js"

const uri = otpauthUri({ issuer: "Acme Co", accountName: "ada.lovelace@example.com", secret: new Uint8Array(20).fill(7) })

/** The dark modules the SVG draws, read back from its path (`M{x},{y}h{w}v1h-{w}z` per run), as "row,col". */
function drawnModules(svg: string): Set<string> {
  const path = /<path[^>]* d="([^"]*)"/.exec(svg)![1]!
  expect(path).toMatch(/^(M\d+,\d+h\d+v1h-\d+z)+$/)
  const modules = new Set<string>()
  for (const [, x, y, width] of path.matchAll(/M(\d+),(\d+)h(\d+)/g)) {
    for (let dx = 0; dx < Number(width); dx++) {
      const module = `${y},${Number(x) + dx}`
      expect(modules.has(module), `${module} drawn twice`).toBe(false)
      modules.add(module)
    }
  }
  return modules
}

describe("QR codes as inline SVG", () => {
  it("is one <svg> element with role img and an accessible name that is not the secret", () => {
    const svg = qrCodeSvg(uri, { label: 'Scan with your "authenticator" app' })
    expect(svg).toMatch(/^<svg [^>]*>.*<\/svg>$/s)
    expect(svg.match(/<svg/g)).toHaveLength(1)
    expect(svg).toContain('role="img"')
    expect(svg).toContain('aria-label="Scan with your &quot;authenticator&quot; app"')
    expect(svg).not.toContain("secret=")
    expect(qrCodeSvg(uri)).toContain('aria-label="QR code"')
  })

  it("a typical otpauth URI is a version 8 code (49 modules and the quiet zone), which phones read at a glance", () => {
    const matrix = encode(uri, { ecc: QR_ERROR_CORRECTION, border: QR_QUIET_ZONE })
    expect(matrix.version).toBe(8)
    expect(matrix.size).toBe(17 + 4 * 8 + 2 * QR_QUIET_ZONE)
    const svg = qrCodeSvg(uri)
    expect(svg).toContain(`viewBox="0 0 ${matrix.size} ${matrix.size}"`)
    expect(svg).toContain(`<rect fill="#fff" width="${matrix.size}" height="${matrix.size}"/>`)
    expect(svg.length).toBeLessThan(10_000) // ≈ 8.6 kB in runs; a square per module (uqr's renderSVG) is ≈ 19 kB
  })

  it("draws exactly the dark modules of the code's matrix", () => {
    const matrix = encode(uri, { ecc: QR_ERROR_CORRECTION, border: QR_QUIET_ZONE })
    const expected = new Set<string>()
    matrix.data.forEach((row, r) => row.forEach((dark, c) => dark && expected.add(`${r},${c}`)))
    const drawn = drawnModules(qrCodeSvg(uri))
    expect(drawn.size).toBe(expected.size)
    expect([...drawn].filter((m) => !expected.has(m))).toEqual([])
  })

  it("keeps a 4-module quiet zone and draws the three finder patterns inside it", () => {
    const size = encode(uri, { ecc: QR_ERROR_CORRECTION, border: QR_QUIET_ZONE }).size
    const drawn = drawnModules(qrCodeSvg(uri))
    const dark = (r: number, c: number) => drawn.has(`${r},${c}`)
    for (const module of drawn) {
      const [r, c] = module.split(",").map(Number) as [number, number]
      expect(Math.min(r, c, size - 1 - r, size - 1 - c), module).toBeGreaterThanOrEqual(4)
    }
    // A finder pattern: a dark 7×7 ring, a light ring inside it, a dark 3×3 centre.
    const inner = size - 8
    for (const [top, left] of [[4, 4], [4, 4 + inner - 7], [4 + inner - 7, 4]] as const) {
      for (let r = 0; r < 7; r++) {
        for (let c = 0; c < 7; c++) {
          const ring = Math.min(r, c, 6 - r, 6 - c)
          expect(dark(top + r, left + c), `finder at ${top},${left} (${r},${c})`).toBe(ring !== 1)
        }
      }
    }
  })
})
