/**
 * The browser client of authflow (`authflow/client`): sign in, sign out, read and update the
 * session from any framework, against authflow or any Auth.js v5 server.
 *
 * Requests go to `/api/auth` unless {@link configure} says otherwise (or `NEXT_PUBLIC_AUTH_URL`
 * is inlined by the bundler; see `config.ts`). Session changes are announced to the other tabs on
 * the `next-auth` BroadcastChannel. Passkeys sign in through `signIn` of `authflow/client/passkey`,
 * a separate entry so that only apps using them need `@simplewebauthn/browser`. Second factors
 * (managing authenticator apps, passing the second factor of a sign-in) are functions of this entry.
 *
 * @example
 * ```ts
 * import { configure, getSession, signIn, signOut } from "authflow/client"
 *
 * configure({ basePath: "/auth" })
 * const session = await getSession()
 * if (!session) await signIn("github")
 * ```
 * @module
 */
export { configure, clientConfig, authUrl, type ClientConfig } from "./config.js"
export { getSession, getCsrfToken, getProviders, update, type GetSessionOptions } from "./session.js"
export { signIn } from "./sign-in.js"
export { signOut } from "./sign-out.js"
export { addAccount, listAccounts, switchAccount, type Accounts, type AddAccountOptions, type OtherAccount } from "./accounts.js"
export { onSessionChange, announceSessionChange, channelName, type SessionMessage, type SessionTrigger } from "./broadcast.js"
export {
  listFactors,
  enrolAuthenticatorApp,
  confirmAuthenticatorApp,
  renameFactor,
  removeFactor,
  regenerateBackupCodes,
  submitSecondFactor,
  requestEmailCode,
  type ConfirmAuthenticatorAppOptions,
  type RemoveFactorOptions,
} from "./second-factor.js"
export { secondFactorMethods } from "./second-factor-methods.js"
export { changeEmail, type ChangeEmailOptions, type ChangeEmailResponse } from "./change-email.js"
export { changePassword, requestPasswordReset, resetPassword, type PasswordResponse } from "./password.js"
export { emailCodeProvider, submitEmailCode, type EmailCodeResponse, type SubmitEmailCodeOptions } from "./email-code.js"
export { ClientFetchError } from "./fetch.js"
export type {
  ClientSafeProvider,
  FactorsRefusal,
  FactorsResult,
  SecondFactorMethod,
  SecondFactorRefusal,
  SecondFactorResponse,
  SecondFactorSummary,
  Session,
  SignInAuthorizationParams,
  SignInOptions,
  SignInResponse,
  SignOutOptions,
  SubmitSecondFactorOptions,
} from "./types.js"
