/**
 * The flow machines, pure xstate v5 definitions: draw them, inspect them, test them, or run them
 * with your own effects through `runFlow`.
 *
 * @example
 * ```ts
 * import { credentialsSignInMachine, oauthMachine } from "authflow/machines"
 * ```
 * @module
 */
export { credentialsSignInMachine } from "./credentials-sign-in.js"
export type { CredentialsSignInContext, CredentialsSignInEffect, CredentialsSignInEvent } from "./credentials-sign-in.js"
export { signOutMachine } from "./sign-out.js"
export type { SessionStrategy, SignOutContext, SignOutEffect, SignOutEvent } from "./sign-out.js"
export { oauthMachine } from "./oauth.js"
export type { AccountPlan, AuthorizationResponseParams, NotLinkedReason, OAuthCallbackPolicy, OAuthContext, OAuthEffect, OAuthEvent, OAuthFailedCheck, OAuthFlowChecks } from "./oauth.js"
export { emailSignInMachine } from "./email-sign-in.js"
export type { EmailSignInContext, EmailSignInEffect, EmailSignInEvent, EmailSignInInput, MailedToken } from "./email-sign-in.js"
export { EMAIL_CODE_MAX_ATTEMPTS, emailCodeMachine } from "./email-code.js"
export type { EmailCodeContext, EmailCodeEffect, EmailCodeEvent, EmailCodeStart } from "./email-code.js"
export { allowedEmailSignIn, currentSessionStates, emailUserActions, emailUserGuards, emailUserStates, plannedUser } from "./email-user.js"
export type { EmailUserContext, EmailUserEffect, EmailUserEvent } from "./email-user.js"
export { emailVerificationMachine } from "./email-verification.js"
export type { EmailUserPlan, EmailVerificationContext, EmailVerificationEffect, EmailVerificationEvent, VerificationTokenRow } from "./email-verification.js"
export { webAuthnMachine } from "./webauthn.js"
export type { CeremonyFindings, NewAuthenticator, RegistrationUndo, WebAuthnCandidate, WebAuthnCeremony, WebAuthnContext, WebAuthnEffect, WebAuthnEvent, WebAuthnFailedCheck, WebAuthnFlow, WebAuthnSignIn } from "./webauthn.js"
export { tokenRefreshContext, tokenRefreshMachine } from "./token-refresh.js"
export type { ProviderTokens, RefreshFailure, RefreshLock, RefreshResult, TokenRefreshContext, TokenRefreshEffect, TokenRefreshEvent, TokenRefreshInput } from "./token-refresh.js"
export { backchannelLogoutEvent, backchannelLogoutMachine } from "./backchannel-logout.js"
export type { BackchannelLogoutContext, BackchannelLogoutEffect, BackchannelLogoutEvent, BackchannelLogoutPolicy, LogoutTokenClaims, LogoutTokenVerifyFailure } from "./backchannel-logout.js"
export { secondFactorMachine } from "./second-factor.js"
export type { FirstFactor, SecondFactorContext, SecondFactorEffect, SecondFactorEvent, SecondFactorPolicy, SecondFactorSubmission } from "./second-factor.js"
export { factorsMachine } from "./factors.js"
export type { FactorsAction, FactorsContext, FactorsEffect, FactorsEvent, FactorsRequest, FactorSummary, PendingEnrolment } from "./factors.js"
export { stepUpMachine } from "./step-up.js"
export type { StepUpAuthContext, StepUpContext, StepUpDemand, StepUpEffect, StepUpEvent, StepUpFound } from "./step-up.js"
export { runFlow, effectOf } from "./run-flow.js"
export type { EffectNameOf, FlowEffects, FlowMeta, FlowRunOptions } from "./run-flow.js"
export { checkingSignInStates, contextFromInput, flowActions, issuingSessionStates, persistingUserStates, signInTailGuards } from "./sign-in-tail.js"
export type { IssuingSessionOptions, SecondFactorFound, SecondFactorMethod, SessionFailureTransition, SignInCallbackEffect, SignInCallbackEvent, SignInOutcomeContext, SignInTailEffect, SignInTailEvent, SignInTailPolicy } from "./sign-in-tail.js"
export { Concealed } from "../core/concealed.js"
export { accountLinkingActions, accountLinkingGuards, resolvingAccountStates } from "./account-linking.js"
export type { AccountLinkingContext, AccountLinkingEffect, AccountLinkingEvent, AccountLinkingPolicy } from "./account-linking.js"
export { limitingState, rateLimitActions, rateLimitedState, rateLimitGuards } from "./rate-limit.js"
export type { RateLimitContext, RateLimitEffect, RateLimitEvent, RateLimitHit } from "./rate-limit.js"
export { csrfCheckEffect, csrfCheckingState, csrfRejectedState } from "./csrf-check.js"
export type { CsrfEffect, CsrfEvent } from "./csrf-check.js"
