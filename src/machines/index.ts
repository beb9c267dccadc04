/**
 * The flow machines, pure xstate v5 definitions: draw them, inspect them, test them, or run them
 * with your own effects through `runFlow`.
 *
 * @example
 * ```ts
 * import { credentialsSignInMachine, oauthSignInMachine } from "authflow/machines"
 * ```
 * @module
 */
export { credentialsSignInMachine } from "./credentials-sign-in.js"
export type { CredentialsSignInContext, CredentialsSignInEffect, CredentialsSignInEvent } from "./credentials-sign-in.js"
export { signOutMachine } from "./sign-out.js"
export type { SignOutContext, SignOutEffect, SignOutEvent } from "./sign-out.js"
export { oauthSignInMachine } from "./oauth-sign-in.js"
export type { OAuthFlowChecks, OAuthSignInContext, OAuthSignInEvent } from "./oauth-sign-in.js"
export { oauthCallbackMachine } from "./oauth-callback.js"
export type { OAuthCallbackContext, OAuthCallbackEvent } from "./oauth-callback.js"
export { emailSignInMachine } from "./email-sign-in.js"
export type { EmailSignInContext, EmailSignInEvent } from "./email-sign-in.js"
export { emailVerificationMachine } from "./email-verification.js"
export type { EmailVerificationContext, EmailVerificationEvent } from "./email-verification.js"
export { runFlow, effectOf } from "./run-flow.js"
export type { FlowEffects, FlowRunOptions } from "./run-flow.js"
