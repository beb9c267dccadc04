/**
 * QR codes as inline SVG, drawn on the server (no outside service ever sees the secret), with
 * `uqr`: no dependencies, any runtime.
 *
 * @module
 */
import { renderSVG } from "uqr"

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
 * qrCodeSvg(uri, { label: "QR code to add Acme to your authenticator app", moduleSize: 8 })
 * ```
 * @see https://www.w3.org/TR/wai-aria-1.2/#img
 */
export interface QrCodeSvgOptions {
  /**
   * The image's accessible name. Never the encoded text: an `otpauth://` URI holds the secret.
   * @default "QR code"
   */
  label?: string
  /**
   * SVG units per module (the image scales; this only sets the viewBox).
   * @default 4
   */
  moduleSize?: number
}

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

/**
 * Draws `text` as a QR code: an `<svg>` string with a {@link QR_QUIET_ZONE}-module quiet zone,
 * error correction {@link QR_ERROR_CORRECTION}, black on white whatever the theme (scanners need the
 * contrast), `role="img"` and an `aria-label`, ready to put in a page as it is.
 *
 * @example
 * ```ts
 * const svg = qrCodeSvg(otpauthUri({ issuer: "Acme", accountName: "ada@example.com", secret }), {
 *   label: "QR code to add Acme to your authenticator app",
 * })
 * // '<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="QR code to add…" viewBox=…'
 * ```
 * @see https://www.iso.org/standard/62021.html (ISO/IEC 18004:2015, the quiet zone)
 */
export function qrCodeSvg(text: string, options: QrCodeSvgOptions = {}): string {
  const { label = "QR code", moduleSize = 4 } = options
  const svg = renderSVG(text, { ecc: QR_ERROR_CORRECTION, border: QR_QUIET_ZONE, pixelSize: moduleSize })
  // uqr opens with a bare `<svg xmlns=… viewBox=…>`; the attributes go right after the namespace.
  const open = '<svg xmlns="http://www.w3.org/2000/svg"'
  if (!svg.startsWith(open)) throw new Error("uqr's SVG no longer opens as expected")
  return `${open} role="img" aria-label="${escapeAttribute(label)}" shape-rendering="crispEdges"${svg.slice(open.length)}`
}
