import type { AnyStateMachine } from "xstate"
import { credentialsSignInMachine } from "../machines/credentials-sign-in.js"
import { emailSignInMachine } from "../machines/email-sign-in.js"
import { emailVerificationMachine } from "../machines/email-verification.js"
import { emailCodeMachine } from "../machines/email-code.js"
import { oauthMachine } from "../machines/oauth.js"
import { signOutMachine } from "../machines/sign-out.js"
import { webAuthnMachine } from "../machines/webauthn.js"
import { tokenRefreshMachine } from "../machines/token-refresh.js"
import { backchannelLogoutMachine } from "../machines/backchannel-logout.js"
import { secondFactorMachine } from "../machines/second-factor.js"
import { factorsMachine } from "../machines/factors.js"
import { stepUpMachine } from "../machines/step-up.js"
import { passwordSignInMachine } from "../machines/password-sign-in.js"
import { passwordVerifyEmailMachine } from "../machines/password-verify-email.js"
import { passwordVerifyCodeMachine } from "../machines/password-verify-code.js"
import { passwordChangeEmailMachine } from "../machines/password-change-email.js"
import { passwordConfirmEmailMachine } from "../machines/password-confirm-email.js"
import { passwordResetRequestMachine } from "../machines/password-reset-request.js"
import { passwordResetMachine } from "../machines/password-reset.js"
import { passwordResetCodeMachine } from "../machines/password-reset-code.js"
import { passwordChangeMachine } from "../machines/password-change.js"
import { passwordSignUpMachine } from "../machines/password-sign-up.js"
import { multiSessionMachine } from "../machines/multi-session.js"

/**
 * Every authflow flow machine, in the order a user meets them: the ones the inspector draws and
 * the CLI prints.
 *
 * @example
 * ```ts
 * import { authflowMachines, describeMachine } from "authflow/inspect"
 * authflowMachines.map((machine) => machine.id) // ["credentials-sign-in", "oauth", …]
 * ```
 */
export const authflowMachines: readonly AnyStateMachine[] = [
  credentialsSignInMachine,
  oauthMachine,
  emailSignInMachine,
  emailVerificationMachine,
  emailCodeMachine,
  webAuthnMachine,
  signOutMachine,
  tokenRefreshMachine,
  backchannelLogoutMachine,
  secondFactorMachine,
  factorsMachine,
  stepUpMachine,
  passwordSignUpMachine,
  passwordVerifyEmailMachine,
  passwordVerifyCodeMachine,
  passwordChangeEmailMachine,
  passwordConfirmEmailMachine,
  passwordSignInMachine,
  passwordResetRequestMachine,
  passwordResetMachine,
  passwordResetCodeMachine,
  passwordChangeMachine,
  multiSessionMachine,
]

/**
 * Final states that mean the flow did what the user asked. Other final states are shown as ended
 * without success (a refusal or a failure); the state's name says which.
 */
export const successStates: ReadonlySet<string> = new Set(["signedIn", "signedInNewUser", "signedOut", "linkSent", "fresh", "joined", "persisted", "loggedOut", "listed", "enrolled", "backupCodesShown", "done", "recent", "steppedUp", "emailVerified", "changeRequested", "emailChanged", "resetSent", "passwordReset", "passwordChanged", "verificationRequired", "codeSent", "added", "replaced", "switched", "endAll", "promoteNext", "otherEnded"])

/**
 * Waiting states, per machine, in which a flow that has seen one request has only handed the
 * browser something a page asks for without anyone acting: a WebAuthn flow in `awaitingCeremony`
 * has issued passkey options, which the sign-in page fetches on every view for the browser's
 * autofill. The recorder keeps such a flow whole; the inspector's unfiltered list leaves it out
 * (and counts it) until a later request restores it (the browser answers the ceremony), and a
 * filter on the machine or the status shows it.
 *
 * @example
 * ```ts
 * unlistedWaits.get("webauthn")?.has("awaitingCeremony") // true
 * ```
 */
export const unlistedWaits: ReadonlyMap<string, ReadonlySet<string>> = new Map([["webauthn", new Set(["awaitingCeremony"])]])
