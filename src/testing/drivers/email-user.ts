/**
 * What the drivers of an email provider's sign-ins share, the link (email-verification.ts) and the
 * emailed code (email-code.ts): who has the address, the browser's own session (database
 * sessions), and the writes that sign the user in: the roles of their events, the paths no world
 * produces, and the world a path needs for them.
 *
 * @module
 */
import { find, type EventRole } from "./driver.js"
import type { MachineEvent } from "../transitions.js"
import type { World } from "../world.js"

/** The model's id of the user who has the address. */
export const emailUserId = "u1"

/**
 * The role of an event of the email sign-in's user pieces (src/machines/email-user.ts): who has
 * the address, the browser's session, the database failing. `undefined` for any other event (the
 * driver's own roles come first; the sign-in tail's, `persist.failed` and `user.persisted`, after).
 *
 * @example
 * ```ts
 * emailUserRole({ type: "currentSession.found", userId: emailUserId }) // { condition: "browser signed in as that user" }
 * ```
 */
export function emailUserRole(event: MachineEvent): EventRole | undefined {
  switch (event.type) {
    case "user.lookedUp":
      return { condition: event.user ? "address of an existing user" : "new address" }
    case "lookup.failed":
    case "currentSession.failed":
    case "otherSession.failed":
      return { condition: event.type }
    case "currentSession.found":
      return { condition: event.userId === emailUserId ? "browser signed in as that user" : "browser signed in as another user" }
    case "currentSession.none":
    case "otherSession.ended":
      return {}
    default:
      return undefined
  }
}

/**
 * The events of the email sign-in's user pieces for a sign-in at `address`: who has it (the user
 * {@link emailUserId}, or nobody), the lookup failing; with database sessions, the browser signed
 * in already as that user or as another one, reading or ending its session failing; the user
 * written, or not.
 */
export function emailUserEvents(address: string): { lookup: MachineEvent[]; writes: MachineEvent[] } {
  return {
    lookup: [
      { type: "user.lookedUp", user: { id: emailUserId, email: address, emailVerified: null }, newUserId: "new-user" },
      { type: "user.lookedUp", user: null, newUserId: "new-user" },
      { type: "lookup.failed", error: "getUserByEmail threw" },
    ],
    writes: [
      { type: "currentSession.found", userId: emailUserId },
      { type: "currentSession.found", userId: "another-user" },
      { type: "currentSession.failed", error: "getSessionAndUser threw" },
      { type: "otherSession.failed", error: "deleteSession threw" },
      { type: "user.persisted", isNewUser: true },
      { type: "user.persisted", isNewUser: false },
      { type: "persist.failed", error: "createUser threw" },
    ],
  }
}

/** True for a path no world produces: a user is new exactly when nobody had the address. */
export function newUserMismatch(path: readonly MachineEvent[]): boolean {
  const persisted = find<{ type: string; isNewUser: boolean }>(path, "user.persisted")
  const lookedUp = find<{ type: string; user: unknown }>(path, "user.lookedUp")
  return persisted !== undefined && persisted.isNewUser !== (lookedUp?.user === null)
}

/** The address a path signs in with: the fixtures' existing user's, or a new one. */
export async function emailAddressOf(labels: ReadonlySet<string | undefined>, world: World): Promise<string> {
  return labels.has("address of an existing user") ? (await world.existingUser()).email! : world.users.newEmail
}

/**
 * Sets up what the path's sign-in meets once the mail is sent (not recorded): the browser that
 * signs in, signed in already as that user or as another one (database sessions), and the adapter
 * methods the path makes fail.
 */
export async function prepareEmailUser(labels: ReadonlySet<string | undefined>, world: World): Promise<void> {
  if (labels.has("lookup.failed")) world.record.failing.add("getUserByEmail")
  if (labels.has("persist.failed")) for (const method of ["createUser", "updateUser"]) world.record.failing.add(method)
  if (labels.has("session.failed") && world.strategy === "database") world.record.failing.add("createSession")
  if (labels.has("browser signed in as that user")) await world.signInAs(await world.existingUser())
  if (["browser signed in as another user", "currentSession.failed", "otherSession.failed"].some((label) => labels.has(label))) {
    await world.signInAs(await world.ensureUser(`another-${world.users.newEmail}`, "Another User"))
  }
  if (labels.has("currentSession.failed")) world.record.failing.add("getSessionAndUser")
  if (labels.has("otherSession.failed")) world.record.failing.add("deleteSession")
}
