/**
 * The flow machines, pure xstate v5 definitions: draw them, inspect them, test them, or run them
 * with your own effects through `runFlow`.
 *
 * @example
 * ```ts
 * import { credentialsSignInMachine, signOutMachine } from "authflow/machines"
 * ```
 * @module
 */
export { credentialsSignInMachine } from "./credentials-sign-in.js"
export type { CredentialsSignInContext, CredentialsSignInEffect, CredentialsSignInEvent } from "./credentials-sign-in.js"
export { signOutMachine } from "./sign-out.js"
export type { SignOutContext, SignOutEffect, SignOutEvent } from "./sign-out.js"
export { runFlow, effectOf } from "./run-flow.js"
export type { FlowEffects, FlowRunOptions } from "./run-flow.js"
