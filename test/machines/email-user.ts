/**
 * The effects of the steps after an email sign-in knows who it signs in (`emailUserStates` in
 * src/machines/email-user.ts, then the sign-in tail's `issuingSessionStates(true)`), by state: the
 * link (email verification) and the emailed code spread the same steps in, so their tests expect
 * these effects alike.
 *
 * @example
 * ```ts
 * expect(effectsByState(emailCodeMachine)).toEqual({ claimingFlow: "claimFlow", …, ...emailUserEffects })
 * ```
 */
export const emailUserEffects = {
  checkingSignIn: "askSignIn",
  resolvingRedirect: "resolveRedirect",
  findingCurrentSession: "findCurrentSession",
  endingOtherSession: "endOtherSession",
  persistingUser: "persistUser",
  checkingSecondFactor: "findSecondFactor",
  creatingSession: "createSession",
  encodingToken: "encodeToken",
} as const
