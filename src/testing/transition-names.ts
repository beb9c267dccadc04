/**
 * Human names for the transitions of the flow machines the kit drives, as `authflow test` prints
 * them: what happened, in words, then where the machine went (`the signIn callback answered false
 * (checkingSignIn → accessDenied)`), instead of a transition key with its index.
 *
 * The words come from {@link transitionWords}, a table by event name, and by guard name where
 * guards tell an event's transitions apart (by state, or by machine and state, where one guard
 * means something else there). test/testing/transition-names.test.ts fails for any
 * transition of those machines the table does not name.
 *
 * @module
 */
import { guardName } from "../inspect/describe.js"
import type { AnyStateMachine } from "xstate"
import type { TransitionKey } from "./transitions.js"

/**
 * What an event says happened. A string when the event has one transition per state; else one
 * entry per guard name (as `authflow machines` prints it) and `otherwise` for the transition
 * without a guard, `<guard> in <state>` for one state's and `<guard> in <machine>.<state>` for one
 * machine's state's. `always` holds the eventless transitions.
 */
export const transitionWords: Readonly<Record<string, string | Readonly<Record<string, string>>>> = {
  // Shared by every flow: the CSRF check, the rate limiter, the sign-in tail.
  "csrf.valid": "the CSRF token matched",
  "csrf.invalid": "the CSRF token was missing or wrong",
  "rateLimit.counted": { overLimit: "the request went over a rate limit", otherwise: "the request was within the rate limits" },
  "rateLimit.failed": { limiterFailsOpen: "the rate-limit store failed, and the limiter fails open", otherwise: "the rate-limit store failed, and the limiter fails closed" },
  "signIn.answered": {
    answeredTrue: "the signIn callback answered true",
    "and(answeredTrue, planWrites)": "the signIn callback answered true, and the user or account is to be written",
    "and(answeredTrue, registering)": "the signIn callback answered true for a new passkey, to be written",
    "and(answeredTrue, verifiesOnDatabaseSessions)": "the signIn callback answered true, for an existing user with database sessions",
    "and(answeredTrue, codeInstead)": "the signIn callback answered true, and the provider mails a code instead of the link",
    answeredUrl: "the signIn callback answered a URL",
    otherwise: "the signIn callback answered false",
  },
  "signIn.threw": { threwAuthError: "the signIn callback threw an AuthError", otherwise: "the signIn callback threw another error" },
  "redirect.resolved": "the redirect callback answered a URL",
  "redirect.threw": { threwAuthError: "the redirect callback threw an AuthError", otherwise: "the redirect callback threw another error" },
  always: {
    secondFactorEnabled: "second factors are on",
    databaseSessions: "sessions are database sessions",
    otherwise: "sessions are JWTs",
    // The second-factor flow's eventless choices: an `otherwise` of its own per state.
    "not(methodOffered)": "the form names a method this user does not have",
    "otherwise in choosingMethod": "the form names a method this user has",
    requestsEmailCode: "a code by email was asked for",
    submittedTotp: "an authenticator app's code was typed",
    submittedBackupCode: "a backup code was typed",
    noEmailCodeSent: "an emailed code was typed, and none was sent",
    "otherwise in verifying": "an emailed code was typed",
    attemptsLeft: "the code was refused, and attempts are left",
    "otherwise in refusing": "the code was refused, and it was the last attempt",
    "otherwise in refusingCode": "the code was refused, and it was the last attempt",
    stepsUp: "the factor passed in a step-up of a signed-in user",
    remembersDevice: "the factor passed, and the device is to be remembered",
    "otherwise in passed": "the factor passed",
    // The email code flow's: a right code uses up the link mailed beside it.
    linkMailed: "the code was right, and the link mailed beside it is to be used up",
    "otherwise in codeAccepted": "the code was right",
    // The Password provider's: how a forgotten password is reset, and what follows a new password.
    resetsByCode: "the reset is by code",
    "otherwise in deciding": "the reset is by link",
    endsOtherSessions: "the user's other sessions are to be ended",
    "otherwise in decidingSessions": "every session is kept (endOtherSessions is false)",
    mailsNotice: "the provider mails, so the account is told",
    "otherwise in decidingNotice": "the provider does not mail, so the account is not told",
  },
  "secondFactor.found": {
    passkeyCountsAsTwoFactors: "the first factor was a passkey verified with user verification, which counts as both",
    deviceTrusted: "the browser is a trusted device of the user, whose factors did not change",
    hasSecondFactor: "the user has an authenticator app or backup codes",
    requiredByEmailCode: "a second factor is required of the user, who has none, and a code can be emailed",
    requiredWithoutMethod: "a second factor is required of the user, who has no way to pass one",
    otherwise: "the user has no second factor, and none is required",
  },
  "secondFactor.failed": "looking up the user's second factor failed",
  "authContext.renewed": "when and how the user authenticated was renewed",
  "session.created": {
    renewsStoredTokens: "the session row was created, and the sign-in brought provider tokens to store",
    newUserPage: "the session row was created, for a new user with pages.newUser set",
    otherwise: "the session row was created",
  },
  "storedTokens.renewed": { newUserPage: "the provider tokens were stored, for a new user with pages.newUser set", otherwise: "the provider tokens were stored" },
  "storedTokens.failed": { newUserPage: "storing the provider tokens failed, for a new user with pages.newUser set", otherwise: "storing the provider tokens failed" },
  "session.failed": { "otherwise in findingSession": "looking up who is signed in failed", otherwise: "creating the session row failed" },
  "token.encoded": { newUserPage: "the session JWT was encoded, for a new user with pages.newUser set", otherwise: "the session JWT was encoded" },
  "encode.failed": "encoding the session JWT failed",
  "user.persisted": "the user was written",
  "persist.failed": { planCreatesUser: "writing the new user failed", otherwise: "writing the user failed" },
  "lookup.failed": "a database lookup failed",
  "undo.failed": "undoing the half-written user failed",
  "user.undone": "the half-written user was removed",
  // Credentials.
  "credentials.read": {
    declaredFieldNotString: "a declared credentials field was not a string",
    identityUnread: "the credentials leave the identity field empty",
    otherwise: "the credentials name a user",
  },
  "authorize.returned": { returnedUser: "authorize returned a user", otherwise: "authorize returned no user" },
  "authorize.threw": { threwCredentialsSignin: "authorize threw CredentialsSignin", otherwise: "authorize threw another error" },
  "attempt.refunded": "the accepted attempt was taken off the rate-limit budget",
  // OAuth and OpenID Connect.
  "discovery.done": "the provider's endpoints were found",
  "discovery.failed": "reading the provider's discovery document failed",
  "authorization.ready": "the authorization URL was built",
  "authorization.failed": "building the authorization URL failed",
  "callback.received": "the provider sent the browser back",
  "response.received": {
    issuerMissing: "the provider's answer has no iss, though one is required",
    issuerMismatch: "the provider's answer names another issuer",
    stateMismatch: "the provider's answer carries a forged state",
    providerError: "the provider answered with an error",
    responseRefused: "the provider's answer was refused (a hybrid or JARM answer)",
    otherwise: "the provider answered with a code",
  },
  "response.unreadable": "the provider's answer could not be read",
  "code.exchanged": "the code was exchanged for tokens",
  "code.refused": "the token endpoint refused the code",
  "exchange.failed": "the token endpoint could not be reached",
  "tokens.valid": "the tokens checked out",
  "tokens.invalid": "the token response was invalid",
  "idToken.badSignature": "the ID token's signature was bad",
  "idToken.expired": "the ID token had expired",
  "idToken.nonceMismatch": "the ID token carried another nonce",
  "idToken.wrongAudience": "the ID token was for another client",
  "idToken.wrongIssuer": "the ID token came from another issuer",
  "profile.received": { adapterPresent: "the profile was read, and there is a database to look the account up in", otherwise: "the profile was read, and there is no database" },
  "profile.failed": "reading the profile failed",
  "account.linked": { signedInAsOther: "the account is linked to a user, and the browser is signed in as another", otherwise: "the account is linked to a user" },
  "account.new": {
    startedBySignedInUser: "the account is new, and the signed-in user started this sign-in",
    signedIn: "the account is new, and the browser is signed in as someone who did not start this sign-in",
    otherwise: "the account is new, and nobody is signed in",
  },
  "emailOwner.found": { emailLinkingAllowed: "a user has the account's email, and the provider allows linking to them", otherwise: "a user has the account's email, and the provider does not allow linking" },
  "emailOwner.none": "no user has the account's email",
  // Email links.
  "email.normalized": { addressInGrammar: "the address was normalized", otherwise: "the normalized address is not a valid address" },
  "normalizer.threw": "normalizeIdentifier threw",
  "user.lookedUp": { userExists: "a user has the address", otherwise: "no user has the address" },
  "token.stored": { codeBeside: "the link's token was stored, and a code goes beside the link", otherwise: "the link's token was stored" },
  "store.failed": "storing the link's token failed",
  "code.made": "the code for the mail was made",
  "link.sent": { codeMailed: "the mail with the code was sent", otherwise: "the link was sent" },
  "send.failed": { tokenStored: "sending the mail failed, after its link's token was stored", otherwise: "sending the code failed (no link's token was stored)" },
  "token.revoked": "the unsent link's token was deleted",
  "revoke.failed": "deleting the unsent link's token failed",
  "link.read": { linkHasToken: "the link carries a token", otherwise: "the link carries no token" },
  "token.used": {
    noTokenRow: "the link's token is unknown (never issued, or used already)",
    tokenExpired: "the link's token had expired",
    identifierMismatch: "the link names another address than its token's",
    identifierOutsideGrammar: "the token's address is not a valid address",
    otherwise: "the link's token was used",
  },
  "token.failed": "using the link's token failed",
  "currentSession.found": { sessionOfOtherUser: "the browser is signed in as another user", otherwise: "the browser is signed in as this user" },
  "currentSession.none": "the browser has no database session",
  "currentSession.failed": "looking up the browser's session failed",
  "otherSession.ended": "the other user's session was deleted",
  "otherSession.failed": "deleting the other user's session failed",
  "token.restored": { failedLookingUp: "the token was put back after the user lookup failed", failedPersisting: "the token was put back after writing the user failed", otherwise: "the token was put back after the session failed" },
  "restore.failed": { failedLookingUp: "putting the token back failed, after the user lookup failed", failedPersisting: "putting the token back failed, after writing the user failed", otherwise: "putting the token back failed, after the session failed" },
  // WebAuthn and passkeys.
  "options.requested": { actionInvalid: "the options request asked for an unknown action", otherwise: "the options were requested" },
  "user.found": {
    authenticateAsked: "authentication was asked for",
    registerAllowed: "registration was asked for, and is allowed",
    registerAsked: "registration was asked for, and is not allowed",
    signedInWithoutAction: "someone is signed in, and no action was given",
    newEmail: "no action was given, for an email nobody has",
    otherwise: "no action was given, for a known user or none",
    // The Password provider's mailed links and codes: the user they were sent for.
    linkUnbound: "the user's address changed since the link was sent",
    codeUnbound: "the account at the address is not the one the code was sent for",
    alreadyVerified: "the user was found, with the address verified already",
    "otherwise in password-verify-email.findingUser": "the user was found, with the address not verified yet",
    "otherwise in password-verify-code.findingUser": "the user was found, with the address not verified yet",
    "otherwise in password-confirm-email.findingUser": "the user still has the address the change was asked from",
  },
  "options.ready": "the ceremony's options were issued",
  "options.failed": "issuing the ceremony's options failed",
  "ceremony.received": "the authenticator's answer was posted",
  "challenge.fresh": { actionMismatch: "the answer was posted for the other ceremony", registering: "the challenge was fresh, for a registration", otherwise: "the challenge was fresh, for an authentication" },
  "challenge.replayed": "the challenge was used already",
  "challenge.failed": "claiming the challenge failed",
  "response.malformed": "the authenticator's answer was malformed",
  "credential.unknown": "the passkey is unknown",
  "response.checked": {
    wrongCeremonyType: "the answer was made for the other ceremony type",
    challengeMismatch: "the answer signs another challenge",
    wrongOrigin: "the answer comes from another origin",
    wrongRpId: "the answer is for another RP ID",
    userNotPresent: "the user was not present",
    userNotVerified: "the user was not verified, though verification is required",
    counterRegressed: "the passkey's counter went backwards",
    notVerified: "the answer's signature did not verify",
    credentialTaken: "the passkey belongs to another user already",
    signedInAsOther: "the passkey belongs to a user, and the browser is signed in as another",
    otherwise: "every check of the answer passed",
  },
  "counter.updated": "the passkey's counter was stored",
  "counter.failed": "storing the passkey's counter failed",
  "registration.undone": "the half-written registration was removed",
  // The second factor.
  "code.submitted": "a code was posted",
  "emailCode.requested": "a code by email was asked for",
  "flow.fresh": "the waiting flow was claimed",
  "flow.replayed": "the waiting flow was used already (its cookie sent again)",
  "flow.claimFailed": {
    isAdapterError: "claiming the waiting flow failed in the adapter's database",
    "otherwise in oauth.claimingFlow": "claiming the waiting flow failed, in a replay store other than the adapter's",
    otherwise: "claiming the waiting flow failed",
  },
  "totp.matched": "the code matched an authenticator app",
  "totp.unmatched": "the code matched no authenticator app",
  "totp.failed": "reading the user's authenticator apps failed",
  "step.claimed": "the code's time step was claimed",
  "step.taken": "the code's time step was used already",
  "step.failed": "claiming the code's time step failed",
  "backupCode.used": "the backup code was used up",
  "backupCode.unknown": "the backup code is unknown (never issued, or used already)",
  "backupCode.failed": "using the backup code failed",
  "emailCode.hashed": { emailCodeExpired: "the emailed code had expired", emailCodeMatches: "the typed code is the emailed one", otherwise: "the typed code is not the emailed one" },
  "emailCode.sent": "a code was emailed",
  "emailCode.failed": "emailing the code failed",
  "device.trusted": "the device was remembered",
  "device.failed": "remembering the device failed",
  // Sign-out.
  "session.found": { jwtSession: "a JWT session was found", otherwise: "a database session was found" },
  "session.none": "there was no session",
  "token.decoded": { providerEndsSession: "the JWT was read, and its provider ends its own session too", otherwise: "the JWT was read" },
  "decode.failed": "reading the JWT failed",
  "session.deleted": {
    "and(providerEndsSession, accountsReadable)": "the session row was deleted, its provider ends its own session too, and the user's accounts can be listed",
    providerEndsSession: "the session row was deleted, and its provider ends its own session too",
    otherwise: "the session row was deleted",
  },
  "delete.failed": "deleting the session row failed",
  "accounts.listed": { oneIdToken: "the user has one ID token at the provider", otherwise: "the user has no ID token, or several, at the provider" },
  "accounts.failed": "listing the user's accounts failed",
  "endSession.found": "the provider's end-session endpoint was found",
  "endSession.missing": "the provider has no end-session endpoint",
  // Password accounts: sign-up, sign-in, the mailed links, resets and changes.
  "signUp.read": { emailInvalid: "the address typed is missing or not a valid address", passwordRefused: "the password was refused, by the length rules or checkPassword", otherwise: "the address and the password were accepted" },
  "user.exists": { requiresVerifiedEmail: "a user has the address, and verification is required", otherwise: "a user has the address" },
  "user.absent": "no user has the address",
  "account.created": { mailsVerification: "the user and their password account were written, and the address is mailed its verification", otherwise: "the user and their password account were written" },
  "create.failed": {
    "and(addressTakenMeanwhile, requiresVerifiedEmail)": "another sign-up took the address meanwhile, and verification is required",
    addressTakenMeanwhile: "another sign-up took the address meanwhile",
    otherwise: "writing the user and their password account failed",
  },
  "mail.sent": {
    "verifiesByCode in mailingVerification": "the verification code was mailed",
    "requiresVerifiedEmail in mailingVerification": "the verification link was mailed, and verification is required",
    "otherwise in mailingVerification": "the verification link was mailed",
    "verifiesByCode in notifyingOwner": "the address's owner was told of the attempt, and addresses are verified by code",
    "otherwise in notifyingOwner": "the address's owner was told of the attempt",
    "otherwise in mailingCode": "a fresh verification code was mailed",
    "otherwise in mailingResetLink": "the reset mail was sent",
    "otherwise in notifying": "the account was told its password changed",
    "otherwise in mailingConfirmation": "the confirmation link was mailed to the new address",
    "otherwise in notifyingOldAddress": "the old address was told of the change",
  },
  "mail.failed": {
    "and(verifiesByCode, requiresVerifiedEmail) in mailingVerification": "mailing the verification code failed, and verification is required",
    "requiresVerifiedEmail in mailingVerification": "mailing the verification link failed, and verification is required",
    "otherwise in mailingVerification": "mailing the verification failed, and verification is optional",
    "verifiesByCode in notifyingOwner": "telling the address's owner of the attempt failed, and addresses are verified by code",
    "otherwise in notifyingOwner": "telling the address's owner of the attempt failed",
    "otherwise in mailingCode": "mailing a fresh verification code failed",
    "otherwise in mailingResetLink": "sending the reset mail failed",
    "otherwise in notifying": "telling the account its password changed failed",
    "otherwise in mailingConfirmation": "mailing the confirmation link failed",
    "otherwise in notifyingOldAddress": "telling the old address of the change failed",
  },
  "account.found": { linkUnbound: "the password changed since the mail was sent", otherwise: "the password account was found" },
  "account.unknown": "no password account has the address",
  "account.failed": "looking up the password account failed",
  "account.missing": "the user or their password account is gone",
  "account.none": "the signed-in user has no password account",
  "password.checked": {
    "not(passwordMatched)": "the password was wrong",
    "and(emailUnverified, verifiesByCode)": "the password was right, for an unverified address verified by code",
    emailUnverified: "the password was right, for an unverified address, and verification is required",
    hashOutdated: "the password was right, and its hash was made with older parameters",
    "otherwise in password-sign-in.checkingPassword": "the password was right",
    passwordValid: "the password was right",
    otherwise: "the password was wrong",
  },
  "check.failed": "checking the password failed",
  "dummyPassword.checked": "the password was checked against a dummy hash",
  "password.rehashed": "the password was hashed again with the current parameters",
  "rehash.failed": "storing the password's new hash failed",
  "link.opened": "the link's token was good",
  "link.missing": "the link carries no token",
  "link.invalid": "the link's token was not sealed here for this, or was tampered with",
  "link.expired": "the link's token had expired",
  "user.missing": "the user the mail was sent for is gone",
  "email.verified": "the address was marked verified",
  "update.failed": { "otherwise in markingVerified": "marking the address verified failed", "otherwise in changingEmail": "writing the new address failed" },
  "request.read": { emailInvalid: "the address typed is missing or not a valid address", otherwise: "the address was read" },
  "dummyLink.sealed": "a link nobody is sent was sealed, the same work as a real one",
  "session.user": "a user is signed in",
  "newPassword.read": { passwordRefused: "the new password was refused, by the length rules or checkPassword", otherwise: "the new password was accepted" },
  "password.written": { alreadyVerified: "the new password's hash was written, and the address was verified already", otherwise: "the new password's hash was written" },
  "password.raced": "another change of the password won meanwhile",
  "write.failed": "writing the new password's hash failed",
  "verify.failed": "marking the address verified failed",
  "sessions.ended": "the user's other sessions were ended",
  "sessions.failed": "ending the user's other sessions failed",
  "change.read": { emailInvalid: "the new address is missing or not a valid address", sameEmail: "the new address is the account's own", otherwise: "the new address was read" },
  "newEmail.free": "no user has the new address",
  "newEmail.taken": "a user has the new address already",
  "email.changed": "the new address was written, verified",
}

/** One declared transition, found by its key. */
interface Found {
  /** The machine's id. */
  machine: string
  event: string
  guard: string | undefined
  source: string
  targets: string[]
  /** How many transitions its state has for the same event. */
  siblings: number
}

type StateNode = AnyStateMachine["root"]

function find(machine: AnyStateMachine, key: TransitionKey): Found | undefined {
  const match = /^(.*):([^:]*):(\d+)$/.exec(key)
  if (!match) return undefined
  // The pattern has three groups, and none is optional.
  const [, id, event, index] = match as RegExpExecArray & [string, string, string, string]
  let node: StateNode | undefined
  const visit = (candidate: StateNode): void => {
    if (candidate.id === id) node = candidate
    else for (const child of Object.values(candidate.states)) if (!node) visit(child)
  }
  visit(machine.root)
  const list = event === "always" ? node?.always : node?.transitions.get(event)
  const transition = list?.[Number(index)]
  if (!node || !list || !transition) return undefined
  return { machine: machine.id, event, guard: guardName(transition.guard), source: node.path.join("."), targets: (transition.target ?? []).map((target) => target.path.join(".")), siblings: list.length }
}

/**
 * The words of a transition from the table, or undefined when the table does not name it. An
 * entry `<guard> in <state>` names the transition of that state before the plain `<guard>` does
 * (for the eventless choices, whose `otherwise` means something else in each state), and
 * `<guard> in <machine>.<state>` that machine's before either (a state name two machines share).
 */
function wordsOf(found: Found): string | undefined {
  const entry = transitionWords[found.event]
  if (typeof entry === "string") return found.siblings === 1 ? entry : undefined
  const guard = found.guard ?? "otherwise"
  return entry?.[`${guard} in ${found.machine}.${found.source}`] ?? entry?.[`${guard} in ${found.source}`] ?? entry?.[guard]
}

/**
 * A transition's human name: what happened, then the state it left and the one it entered. A
 * transition the table does not name yet is named by its event and guard, never by its index.
 *
 * @example
 * ```ts
 * transitionName(credentialsSignInMachine, "credentials-sign-in.checkingSignIn:signIn.answered:2")
 * // "the signIn callback answered false (checkingSignIn → accessDenied)"
 * ```
 */
export function transitionName(machine: AnyStateMachine, key: TransitionKey): string {
  const found = find(machine, key)
  if (!found) return key
  const words = wordsOf(found) ?? `${found.event}${found.guard ? ` [${found.guard}]` : ""}`
  return `${words} (${found.source} → ${found.targets.join(", ") || found.source})`
}

/**
 * The transitions of `machine` the table of words does not name, by key: what a test checks stays
 * empty.
 *
 * @example
 * ```ts
 * unnamedTransitions(signOutMachine, declaredTransitions(signOutMachine)) // []
 * ```
 */
export function unnamedTransitions(machine: AnyStateMachine, keys: Iterable<TransitionKey>): TransitionKey[] {
  return [...keys].filter((key) => {
    const found = find(machine, key)
    return !found || wordsOf(found) === undefined
  })
}
