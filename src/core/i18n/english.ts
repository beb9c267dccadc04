/**
 * English by area. The core (what the sign-in, sign-out, error and verify-request pages and the
 * JSON answers say) is always here; the Password provider's pages, the second factor's pages and
 * the emails each have their own, loaded when a page or an email of that area is first written (a
 * bundler puts each in a chunk of its own), so a credentials-only app's routes carry only the core.
 *
 * @example
 * ```ts
 * import { english, englishOf } from "./english.js"
 * english.t("signOutQuestion") // "Are you sure you want to sign out?"
 * (await englishOf(["password"])).signUpTitle // "Create an account": that area is loaded now
 * ```
 * @module
 */
import { onFirstUse } from "../on-first-use.js"
import { messages as core } from "./english/core.js"
import type { AreaKeys, CoreKey, KeysOf, MessageArea, MessageKey } from "./messages.js"
import { translatorOver, type Translator } from "./translate.js"

/**
 * The English translator of the core messages: what the sign-in, sign-out, error and
 * verify-request pages write with when they are given none.
 *
 * @example
 * ```ts
 * english.t("returnTo", { host: "app.test" }) // "Return to app.test"
 * ```
 */
export const english: Translator<CoreKey> = translatorOver("en", [], core)

/**
 * The English translator of the core and `area`'s messages: what a page or email of that area
 * writes with when it is given none (it imports its area's English, and is itself loaded only when
 * written).
 *
 * @example
 * ```ts
 * import { messages as password } from "./english/password.js"
 * englishWith(password).t("signUpTitle") // "Create an account"
 * ```
 */
export function englishWith<K extends MessageKey>(area: Readonly<Record<K, string>>): Translator<CoreKey | K> {
  return translatorOver("en", [], { ...core, ...area })
}

// Each area's English, loaded when first asked for.
const areas: { readonly [A in MessageArea]: () => Promise<{ messages: Readonly<Record<AreaKeys[A], string>> }> } = {
  password: /* @__PURE__ */ onFirstUse(() => import("./english/password.js")),
  secondFactor: /* @__PURE__ */ onFirstUse(() => import("./english/second-factor.js")),
  emails: /* @__PURE__ */ onFirstUse(() => import("./english/emails.js")),
}

/** Every area of messages loaded on first use. */
export const MESSAGE_AREAS: readonly MessageArea[] = Object.freeze(Object.keys(areas) as MessageArea[])

/**
 * The English of the core and of `wanted`, each area loaded now if it is not yet.
 *
 * @example
 * ```ts
 * const text = await englishOf(["secondFactor"])
 * text.secondFactorTitle // "Two-step verification"
 * ```
 */
export async function englishOf<A extends MessageArea>(wanted: readonly A[]): Promise<Readonly<Record<KeysOf<A>, string>>> {
  const loaded = await Promise.all(wanted.map((area) => areas[area]()))
  return Object.assign({}, core, ...loaded.map((module) => module.messages))
}
