/**
 * The English messages of the second factor: the /second-factor page, and /factors with its
 * enrolment and backup-code pages. Loaded when one of them is first written.
 *
 * @example
 * ```ts
 * import { messages } from "./second-factor.js"
 * messages.secondFactorTitle // "Two-step verification"
 * ```
 * @module
 */

/** The English of the second-factor and /factors pages. */
export const messages = {
  // Second-factor page
  secondFactorTitle: "Two-step verification",
  totpLabel: "Code from your authenticator app",
  totpHint: "Open your authenticator app and type the 6-digit code it shows.",
  backupCodeLabel: "Backup code",
  backupCodeHint: "Type one of the backup codes you saved. Each works once.",
  emailCodeHint: "Type the 6-digit code we emailed you.",
  secondFactorReplayedCode: "That code was used already. Wait for the next one and try again.",
  secondFactorUnknownBackupCode: "That backup code is not valid, or was used already.",
  secondFactorExpiredEmailCode: "That code has expired. Ask for a new one.",
  secondFactorNoEmailCode: "Ask for a code by email first.",
  secondFactorRefused: "That code was refused. Try again.",
  rememberDevice: "Don't ask again on this device for {duration}",
  emailMeCode: "Email me a code",
  emailMeNewCode: "Email me a new code",
  secondFactorEmailSent: "We emailed you a code. It works for {duration}.",
  useTotpInstead: "Use your authenticator app instead",
  useBackupCodeInstead: "Use a backup code instead",
  useEmailInstead: "Get a code by email instead",
  // Second-factor management (/factors)
  factorsNone: "No authenticator app yet.",
  nameLabel: "Name",
  renameButton: "Rename",
  removeLastFactorLabel: "A current code from {name}, to remove your last app",
  removeButton: "Remove {name}",
  addAppButton: "Add an authenticator app",
  backupCodesLeft: "Backup codes left: {count}",
  newBackupCodesButton: "Make new backup codes",
  factorsNoticeEnrolled: "Your authenticator app was added.",
  factorsNoticeSaved: "Saved.",
  factorsNoticeUnknownFactor: "That app is not one of yours.",
  factorsNoticeInvalidRequest: "That request was not understood.",
  factorsNoticeAttemptsExhausted: "Too many wrong codes: start adding the app again.",
  factorsNoticeRemovalRefused: "That code is not right: your last app stays.",
  factorsNoticeEnrolmentOfOtherUser: "That enrolment was started by someone else.",
  factorsNoticeEnrolmentEnded: "That enrolment has ended: start adding the app again.",
  enrolLead: "Scan this code with your authenticator app, or type the key below into it.",
  enrolKey: "Key:",
  enrolCodeWrong: "That code is not right. Check the app and try again.",
  enrolDefaultName: "Authenticator app",
  enrolCodeLabel: "Code from the app",
  addButton: "Add",
  backupCodesTitle: "Backup codes",
  backupCodesHeading: "Your backup codes",
  backupCodesLead: "Keep them somewhere safe. Each one works once, when your app is not at hand. They are not shown again.",
  doneButton: "Done",
} satisfies Record<string, string>
