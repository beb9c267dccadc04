/**
 * The effects of the steps after a proven reset mail (`newPasswordStates` in
 * src/machines/password-reset.ts), by state: the reset by link and the reset by code spread the same
 * steps in, so their tests expect these effects alike.
 *
 * @example
 * ```ts
 * expect(effectsByState(passwordResetMachine)).toEqual({ validatingInput: "checkCsrf", …, ...newPasswordEffects })
 * ```
 */
export const newPasswordEffects = {
  findingAccount: "findLinkedAccount",
  readingPassword: "readNewPassword",
  writingPassword: "writePassword",
  markingVerified: "markVerified",
  endingOtherSessions: "endSessions",
  notifying: "notifyPasswordChanged",
} as const
