/**
 * The provider's redirect back to the app in every way the OAuth machine tells apart: the
 * parameters the model's `response.received` events carry, how a path names them, and how the
 * stand-in's redirect differs for each.
 *
 * @module
 */
import type { RedirectBackOptions } from "../stand-in/options.js"
import type { MachineEvent } from "../transitions.js"

/** The issuer the model's events name; the stand-in's own takes its place in a real redirect. */
export const modelIssuer = "https://issuer.model"

/** The ways the provider's redirect back can differ from a correct one. */
export type ResponseVariant = "ok" | "no-iss" | "wrong-iss" | "forged-state" | "error" | "hybrid"

/** The parameters of each variant, as the model's `response.received` events carry them. */
export const responseParams: Record<ResponseVariant, { state: string; iss?: string; error?: string }> = {
  ok: { state: "S", iss: modelIssuer },
  "no-iss": { state: "S" },
  "wrong-iss": { state: "S", iss: "https://impostor.model" },
  "forged-state": { state: "forged", iss: modelIssuer },
  error: { state: "S", iss: modelIssuer, error: "access_denied" },
  hybrid: { state: "S", iss: modelIssuer },
}

/** What oauth4webapi says of a variant whose parameters pass every named check (a hybrid answer: an `id_token` with the code). */
export const responseRefusals: Partial<Record<ResponseVariant, string>> = { hybrid: "implicit and hybrid flows are not supported" }

/** How each variant is named in a path's conditions (the correct one is not). */
export const responseLabels: Record<ResponseVariant, string | undefined> = {
  ok: undefined,
  "no-iss": "response.received(iss missing)",
  "wrong-iss": "response.received(iss of another issuer)",
  "forged-state": "response.received(forged state)",
  error: "response.received(error=access_denied)",
  hybrid: "response.received(hybrid answer, refused)",
}

/** The variant of a `response.received` event. */
export function variantOf(event: MachineEvent): ResponseVariant {
  const params = event.params as { state?: string; iss?: string; error?: string }
  if (params.error) return "error"
  if (event.error !== undefined) return "hybrid"
  if (params.state !== "S") return "forged-state"
  if (params.iss === undefined) return "no-iss"
  return params.iss === modelIssuer ? "ok" : "wrong-iss"
}

/** How the stand-in's redirect back differs for a variant. */
export function redirectBackFor(variant: ResponseVariant): RedirectBackOptions {
  return {
    ...(variant === "error" && { error: "access_denied" }),
    ...(variant === "forged-state" && { state: "forged-state" }),
    ...(variant === "no-iss" && { iss: "omit" }),
    ...(variant === "wrong-iss" && { iss: "https://impostor.stand-in.test" }),
    ...(variant === "hybrid" && { hybrid: true }),
  }
}
