/**
 * QR codes as inline SVG, drawn on the server (no outside service ever sees the secret), from the
 * matrix of `uqr`: no dependencies, any runtime.
 *
 * @module
 */
import { encode } from "uqr"

/**
 * Modules of light margin around the code: ISO/IEC 18004 asks for 4, and phone cameras fail
 * more often with less.
 *
 * @example
 * ```ts
 * encode(text, { border: QR_QUIET_ZONE }) // uqr's matrix, as qrCodeSvg draws it
 * ```
 * @see https://www.iso.org/standard/62021.html (ISO/IEC 18004:2015, the quiet zone)
 */
export const QR_QUIET_ZONE = 4

/**
 * Error correction: M recovers 15% of the modules, enough for a screen with a glare or a
 * scratched one, while an `otpauth://` URI still fits a version a phone reads easily.
 *
 * @example
 * ```ts
 * encode(text, { ecc: QR_ERROR_CORRECTION }) // uqr's matrix, as qrCodeSvg draws it
 * ```
 * @see https://www.iso.org/standard/62021.html (ISO/IEC 18004:2015, the error correction levels)
 */
export const QR_ERROR_CORRECTION = "M"

/**
 * Options of {@link qrCodeSvg}.
 *
 * @example
 * ```ts
 * qrCodeSvg(uri, { label: "QR code to add Acme to your authenticator app" })
 * ```
 * @see https://www.w3.org/TR/wai-aria-1.2/#img
 */
export interface QrCodeSvgOptions {
  /**
   * The image's accessible name. Never the encoded text: an `otpauth://` URI holds the secret.
   * @default "QR code"
   */
  label?: string
}

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

// One subpath per horizontal run of dark modules, a module being one unit of the viewBox: about
// half the size of uqr's own renderSVG, which draws a square per module.
function darkRuns(modules: boolean[][]): string {
  let path = ""
  modules.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) {
      if (!row[x]) continue
      const start = x
      while (row[x + 1]) x++
      const width = x - start + 1
      path += `M${start},${y}h${width}v1h-${width}z`
    }
  })
  return path
}

/**
 * Draws `text` as a QR code: an `<svg>` string with a {@link QR_QUIET_ZONE}-module quiet zone,
 * error correction {@link QR_ERROR_CORRECTION}, black on white whatever the theme (scanners need
 * the contrast), `role="img"` and an `aria-label`, ready to put in a page as it is. Its viewBox
 * counts modules and it has no width or height: it fills its container, so size it with CSS.
 *
 * @example
 * ```ts
 * const svg = qrCodeSvg(otpauthUri({ issuer: "Acme", accountName: "ada@example.com", secret }), {
 *   label: "QR code to add Acme to your authenticator app",
 * })
 * // '<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="QR code to add…" viewBox="0 0 57 57" …'
 * ```
 * @see https://www.iso.org/standard/62021.html (ISO/IEC 18004:2015, the quiet zone)
 */
export function qrCodeSvg(text: string, options: QrCodeSvgOptions = {}): string {
  const { label = "QR code" } = options
  const { size, data } = encode(text, { ecc: QR_ERROR_CORRECTION, border: QR_QUIET_ZONE })
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${escapeAttribute(label)}" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges">` +
    `<rect fill="#fff" width="${size}" height="${size}"/><path fill="#000" d="${darkRuns(data)}"/></svg>`
  )
}
