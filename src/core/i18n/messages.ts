/**
 * The English messages of the built-in pages and emails: the complete catalog, whose keys every
 * other catalog and every app override uses. A message names its parameters in braces
 * (`Sign in with {provider}`); numbers, durations and times arrive formatted for the locale.
 *
 * The text lives in areas (`english/*.ts`): the core, what the sign-in, sign-out, error and
 * verify-request pages and the JSON answers say, loads with the pages; the Password provider's
 * pages, the second factor's and the emails each load their own when first written (see
 * `english.ts`). This module joins them all: import it only where every message is wanted.
 *
 * @example
 * ```ts
 * import { en, type Catalog } from "./messages.js"
 * en.signInWith // "Sign in with {provider}"
 * const german: Catalog = { signInWith: "Anmelden mit {provider}" } // a missing key falls back to English
 * ```
 * @module
 */
import { messages as core } from "./english/core.js"
import { messages as emails } from "./english/emails.js"
import { messages as password } from "./english/password.js"
import { messages as secondFactor } from "./english/second-factor.js"

/** The key of a message every app's pages may show: the core area, always loaded. */
export type CoreKey = keyof typeof core

/** The keys of each area loaded when a page or email of it is first written. */
export interface AreaKeys {
  /** The Password provider's pages: sign-up, forgot, reset and change password, change email. */
  password: keyof typeof password
  /** The /second-factor page and /factors with its enrolment and backup-code pages. */
  secondFactor: keyof typeof secondFactor
  /** The built-in emails. */
  emails: keyof typeof emails
}

/** An area of messages loaded on first use. */
export type MessageArea = keyof AreaKeys

/** The keys a translator loaded with `A` (and the core) can write. */
export type KeysOf<A extends MessageArea> = CoreKey | AreaKeys[A]

/** The key of a message of the built-in pages and emails. */
export type MessageKey = KeysOf<MessageArea>

/** Every message, as the English catalog has them: the shape an app's complete catalog takes. */
export type Messages = Record<MessageKey, string>

/**
 * A catalog of some of the messages: a shipped translation or an app's overrides. A message left out
 * is taken from the next catalog down, and in the end from English, so a key is never shown.
 */
export type Catalog = Partial<Messages>

/**
 * The English messages of every area, complete by type: a key added to the pages must be given its
 * English text in its area.
 *
 * @example
 * ```ts
 * en.signOutQuestion // "Are you sure you want to sign out?"
 * ```
 */
export const en: Readonly<Messages> = Object.freeze({ ...core, ...password, ...secondFactor, ...emails })
