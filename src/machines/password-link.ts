/**
 * Opening a link the Password provider mailed (verify an address, confirm a new one), defined once:
 * a state whose effect (`openLink`) reports whether the token opened, and why not (missing,
 * invalid, expired), and the final states each refusal ends in. The machines that follow a mailed
 * link spread these in, so the inspector and the model tests see the same refusals everywhere.
 *
 * @module
 */
import { assign } from "xstate"

/** Who a mailed link names: the user and the address it was sent for, and the new address of an email change. */
export interface OpenedLink {
  userId: string
  email: string
  /** The new address, for an email change. @default none */
  newEmail?: string
}

/** What the `openLink` effect reports: the token's claims, or why it cannot be used. */
export type LinkEvent = { type: "link.opened"; link: OpenedLink } | { type: "link.missing" } | { type: "link.invalid" } | { type: "link.expired" }

/** The effect a link-opening state names. */
export type LinkEffect = "openLink"

/** Context of a machine that follows a mailed link. */
export interface LinkContext {
  link?: OpenedLink
}

/**
 * A state that opens the request's link token (`openLink`) and goes on to `next` with its claims
 * recorded (`recordLink`), or ends in `linkMissing`, `linkInvalid` or `linkExpired`. Spread
 * {@link linkRefusedStates} once into the machine as well, and {@link linkActions} into its setup.
 *
 * @param next - The state an opened link goes to.
 * @example
 * ```ts
 * createMachine({ initial: "openingLink", states: { openingLink: openingLinkState("findingUser"), ...linkRefusedStates, … } })
 * ```
 */
export function openingLinkState<const TNext extends string>(next: TNext) {
  return {
    meta: { effect: "openLink" },
    on: {
      "link.opened": { target: next, actions: "recordLink" },
      "link.missing": "linkMissing",
      "link.invalid": "linkInvalid",
      "link.expired": "linkExpired",
    },
  } as const
}

/**
 * The final states of a link that cannot be used: no token, one this server did not seal for this
 * purpose (or tampered with), one past its lifetime, and one no longer bound to its account (the
 * address changed since, or the user is gone).
 */
export const linkRefusedStates = {
  linkMissing: { type: "final" },
  linkInvalid: { type: "final" },
  linkExpired: { type: "final" },
  linkStale: { type: "final" },
} as const

/**
 * The named action of a link-following machine, for its `setup({ actions })`: `recordLink` keeps
 * the opened link's claims.
 *
 * @example
 * ```ts
 * setup({ actions: { ...linkActions<MyContext, MyEvent>() } })
 * ```
 */
export function linkActions<TContext extends LinkContext, TEvent extends { type: string }>() {
  return {
    recordLink: assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => ({ link: (event as { link?: OpenedLink }).link }) as Partial<TContext>),
  }
}
