import { AccountNotLinked, AuthError, CallbackRouteError, MissingCSRF, WebAuthnVerificationError } from "../core/errors.js"
import { newFlowId, sealedFlow, type FlowCookies, type OpenedFlow } from "./flow-cookie.js"
import { randomUUID } from "../core/crypto.js"
import { askSignIn, resolveRedirect } from "./sign-in-callback.js"
import { newUserRedirect, signInTailPolicy } from "./issue-session.js"
import { sessionEffects } from "./session-effects.js"
import { secondFactorOutcomes } from "./second-factor/tail.js"
import { signedInUser } from "./account-linking.js"
import { emitEvent } from "../core/events.js"
import {
  attestedAuthData,
  credentialIdForBrowser,
  readAuthenticatorData,
  readClientData,
  rpIdHashMatches,
  type AuthenticatorData,
  type ClientData,
  storedCredentialId,
} from "../core/webauthn/response.js"
import { fromBase64Url, toBase64 } from "../core/base64.js"
import { csrfCheckEffect } from "../machines/csrf-check.js"
import { webAuthnMachine, type CeremonyFindings, type NewAuthenticator, type RegistrationUndo, type WebAuthnContext, type WebAuthnEvent } from "../machines/webauthn.js"
import { assigned, effectsReading, runFlowWithCookies, type FlowEffects } from "../machines/run-flow.js"
import { outcomeOf, type FlowOutcomes } from "./flow-outcomes.js"
import { errorAnswer, type Answer } from "../core/answer.js"
import { rateLimitedError, requestLimiter } from "./rate-limit.js"
import type { RequestLimiter } from "../core/rate-limit/limiter.js"
import { defaultGetUserInfo, relayingPartyOf, type WebAuthnConfig, type WebAuthnLibrary, type WebAuthnProviderContext, type WebAuthnRequestInfo } from "../providers/webauthn-config.js"
import type { AuthOptions } from "../core/options.js"
import type { AdapterAccount, AdapterUser } from "../adapters.js"
import type { Account, Cookie, InternalProvider, ResponseInternal } from "../types.js"
import { asError } from "../core/as-error.js"
import type { SnapshotFrom } from "xstate"

/** Bump when the WebAuthn machine's waiting state or context change shape: older challenge cookies are then refused. */
export const WEBAUTHN_FLOW_VERSION = 1

type Provider = InternalProvider<WebAuthnConfig>

/**
 * The challenge cookie (Auth.js's `webauthnChallenge`, holding the sealed flow) and its browser
 * binding. The binding has its own name, so that a passkey prompt on the sign-in page and an OAuth
 * sign-in in the same browser do not overwrite each other's.
 */
function flowCookiesOf(options: AuthOptions): FlowCookies {
  const { webauthnChallenge, flowBinding } = options.cookies
  return { flow: webauthnChallenge, binding: { name: `${flowBinding.name}.webauthn`, options: flowBinding.options } }
}

/** The WebAuthn flow, sealed between the options and the answer: only its `flow` (ceremony, challenge, the user registering) travels in the cookie. */
const webAuthnFlow = sealedFlow({ machine: webAuthnMachine, version: WEBAUTHN_FLOW_VERSION, seals: ["flow"], cookies: flowCookiesOf })

function libraryOf(provider: Provider): WebAuthnLibrary {
  if (!provider.simpleWebAuthn) throw new TypeError(`Provider "${provider.id}" has no simpleWebAuthn functions: build it with WebAuthn() or Passkey()`)
  return provider.simpleWebAuthn
}

function providerContext(options: AuthOptions, provider: Provider): WebAuthnProviderContext {
  return { ...(options.adapter && { adapter: options.adapter }), provider, url: options.request.url }
}

function requestInfo(options: AuthOptions): WebAuthnRequestInfo {
  const { method, query, body } = options.request
  return { method, query, ...(body && { body }) }
}

function listOf(value: string | string[] | undefined): string[] | undefined {
  return value === undefined ? undefined : Array.isArray(value) ? value : [value]
}

/** The relying party for options (one of each) and for verification (every configured id and origin). */
function relyingParty(options: AuthOptions, provider: Provider) {
  const party = provider.getRelayingParty?.(providerContext(options, provider), requestInfo(options)) ?? relayingPartyOf(provider, options.request.url)
  return {
    party,
    ids: listOf(provider.relayingParty?.id) ?? [party.id],
    origins: listOf(provider.relayingParty?.origin) ?? [party.origin],
  }
}

/**
 * What a ceremony's client data and authenticator data say, checked against the relying party: the
 * findings a registration and an authentication share (the machine's guards judge them).
 */
function ceremonyFacts(
  clientData: ClientData,
  data: AuthenticatorData,
  { ids, origins }: { ids: string[]; origins: string[] },
  requireUserVerification: boolean | undefined,
  signedIn: AdapterUser | null,
) {
  return {
    type: clientData.type,
    challenge: clientData.challenge,
    origin: clientData.origin,
    originExpected: origins.includes(clientData.origin),
    rpIdExpected: rpIdHashMatches(data.rpIdHash, ids),
    userPresent: data.userPresent,
    userVerified: data.userVerified,
    userVerificationRequired: requireUserVerification ?? true,
    counter: data.counter,
    verified: false,
    ...(signedIn && { signedInAs: signedIn.id }),
  }
}

function transportsOf(value: string | null | undefined): string[] | undefined {
  return value ? value.split(",") : undefined
}

/** What one request's effects are given besides the flow's context: its limiter, the flow's id, and (answering) the challenge cookie opened. */
interface WebAuthnRequest {
  limiter: RequestLimiter
  /** The flow's id: recorded in the replay store before the flow is sealed, and the inspector's actor id in both requests. */
  flowId: string
  /** The answer request's challenge cookie, opened (every check but the replay check, which `claimChallenge` makes). */
  opened?: OpenedFlow<typeof webAuthnMachine>
}

/** The passkey account a registration links: the credential, for this provider. */
function passkeyAccount(provider: Provider, registered: NewAuthenticator): Account {
  return { providerAccountId: registered.providerAccountId, provider: provider.id, type: "webauthn" }
}

function responseOf(options: AuthOptions): Record<string, unknown> {
  const data = options.request.body?.data
  const parsed: unknown = typeof data === "string" ? JSON.parse(data) : data
  if (!parsed || typeof parsed !== "object" || typeof (parsed as { id?: unknown }).id !== "string") throw new TypeError("data is not a WebAuthn response")
  const inner = (parsed as { response?: unknown }).response
  if (!inner || typeof inner !== "object") throw new TypeError("data has no response")
  return parsed as Record<string, unknown>
}

function webAuthnEffects(options: AuthOptions, provider: Provider, request: WebAuthnRequest): FlowEffects<typeof webAuthnMachine> {
  const adapter = options.adapter!
  const needs = effectsReading<WebAuthnContext>()
  const site = webAuthnFlow.site(options, provider)
  return {
    readRequest: () => {
      const action = options.request.query.action
      return { type: "options.requested", ...(action !== undefined && { action }) }
    },
    checkRateLimit: () => request.limiter.count("webauthn", options.request.method === "GET" ? options.request.query.email : undefined),
    findUser: async () => {
      try {
        const signedIn = await signedInUser(options)
        if (signedIn) return { type: "user.found", signedIn: true, exists: true, user: { id: signedIn.id, email: signedIn.email, name: signedIn.name ?? null } }
        const getUserInfo = provider.getUserInfo ?? defaultGetUserInfo
        const info = await getUserInfo(providerContext(options, provider), requestInfo(options))
        if (!info) return { type: "user.found", signedIn: false, exists: false }
        const { id, email, name } = info.user
        return { type: "user.found", signedIn: false, exists: info.exists, user: { ...(info.exists && id && { id }), email, ...(name != null && { name }) } }
      } catch (error) {
        return { type: "lookup.failed", error }
      }
    },
    prepareRegistration: needs(["user"], async ({ user }) => {
      try {
        const existing = user?.id ? await adapter.listAuthenticatorsByUserId!(user.id) : []
        const { party } = relyingParty(options, provider)
        // A random user handle: credentials are linked to users through the authenticator rows.
        const userID = globalThis.crypto.getRandomValues(new Uint8Array(32))
        const generated = await libraryOf(provider).generateRegistrationOptions({
          ...provider.registrationOptions,
          rpName: party.name,
          rpID: party.id,
          userID,
          userName: user.email,
          // As Auth.js on simplewebauthn 9: the display name defaults to the email (14 would send "").
          userDisplayName: user.name ?? user.email,
          excludeCredentials: existing.map((a) => ({ id: credentialIdForBrowser(a.credentialID), ...(a.transports && { transports: transportsOf(a.transports) }) })),
        })
        // Last: the challenge's one-time entry, claimed once when the answer resumes the flow.
        const issued = await webAuthnFlow.issue(site, request.flowId)
        return { type: "options.ready", challenge: generated.challenge, options: generated, issued }
      } catch (error) {
        return { type: "options.failed", error }
      }
    }),
    prepareAuthentication: async ({ user }) => {
      try {
        const existing = user?.id ? await adapter.listAuthenticatorsByUserId!(user.id) : undefined
        const { party } = relyingParty(options, provider)
        const generated = await libraryOf(provider).generateAuthenticationOptions({
          ...provider.authenticationOptions,
          rpID: party.id,
          ...(existing && { allowCredentials: existing.map((a) => ({ id: credentialIdForBrowser(a.credentialID), ...(a.transports && { transports: transportsOf(a.transports) }) })) }),
        })
        // Last: the challenge's one-time entry, claimed once when the answer resumes the flow.
        const issued = await webAuthnFlow.issue(site, request.flowId)
        return { type: "options.ready", challenge: generated.challenge, options: generated, issued }
      } catch (error) {
        return { type: "options.failed", error }
      }
    },
    ...csrfCheckEffect(options),
    claimChallenge: async () => {
      try {
        // Only the answer request opens a challenge cookie: without one there is nothing to claim.
        if (!request.opened) throw new TypeError("No challenge cookie was opened in this request")
        return (await webAuthnFlow.claim(site, request.opened)) ? { type: "challenge.fresh" } : { type: "challenge.replayed" }
      } catch (error) {
        // A replay store that cannot answer: the machine refuses the flow (fail closed).
        return { type: "challenge.failed", error }
      }
    },
    verifyRegistration: needs(["flow"], async ({ flow }) => {
      let response: Record<string, unknown>
      let findings: CeremonyFindings
      try {
        response = responseOf(options)
        const inner = response.response as { clientDataJSON?: unknown; attestationObject?: unknown; transports?: unknown }
        const clientData = readClientData(inner.clientDataJSON)
        if (typeof inner.attestationObject !== "string") throw new TypeError("attestationObject is missing")
        const data = readAuthenticatorData(attestedAuthData(fromBase64Url(inner.attestationObject)))
        const [taken, signedIn] = await Promise.all([adapter.getAuthenticator!(storedCredentialId(response.id as string)), signedInUser(options)])
        findings = {
          ...ceremonyFacts(clientData, data, relyingParty(options, provider), provider.verifyRegistrationOptions?.requireUserVerification, signedIn),
          credentialTaken: taken !== null,
        }
      } catch (error) {
        return { type: "response.malformed", error }
      }
      try {
        const { ids, origins } = relyingParty(options, provider)
        const verification = await libraryOf(provider).verifyRegistrationResponse({
          ...provider.verifyRegistrationOptions,
          response,
          expectedChallenge: flow.challenge,
          expectedOrigin: origins,
          expectedRPID: ids,
        })
        const info = verification.registrationInfo
        if (verification.verified && info) {
          const credentialID = storedCredentialId(info.credential.id)
          const transports = (response.response as { transports?: unknown }).transports
          const registered: NewAuthenticator = {
            providerAccountId: credentialID,
            credentialID,
            credentialPublicKey: toBase64(info.credential.publicKey),
            counter: info.credential.counter,
            credentialBackedUp: info.credentialBackedUp,
            credentialDeviceType: info.credentialDeviceType,
            transports: Array.isArray(transports) && transports.length ? transports.join(",") : null,
          }
          // The signIn callback is asked about the user the registration was started for, with the new passkey account.
          const signIn = flow.user ? { signIn: { user: flow.user, account: passkeyAccount(provider, registered) } } : {}
          return { type: "response.checked", findings: { ...findings, verified: true }, registered, ...signIn }
        }
        return { type: "response.checked", findings }
      } catch (error) {
        return { type: "response.checked", findings, error }
      }
    }),
    verifyAuthentication: needs(["flow"], async ({ flow }) => {
      let response: Record<string, unknown>
      let inner: { clientDataJSON?: unknown; authenticatorData?: unknown }
      try {
        response = responseOf(options)
        inner = response.response as typeof inner
        if (typeof inner.authenticatorData !== "string") throw new TypeError("authenticatorData is missing")
      } catch (error) {
        return { type: "response.malformed", error }
      }
      const credentialID = storedCredentialId(response.id as string)
      const authenticator = await adapter.getAuthenticator!(credentialID)
      const account = authenticator ? await adapter.getAccount!(authenticator.providerAccountId, provider.id) : null
      const user = account ? await adapter.getUser!(account.userId) : null
      if (!authenticator || !account || !user) {
        const missing = !authenticator ? "authenticator" : !account ? "account" : "user"
        return { type: "credential.unknown", error: new Error(`No ${missing} for credential ${credentialID}`) }
      }
      let findings: CeremonyFindings
      try {
        const clientData = readClientData(inner.clientDataJSON)
        const data = readAuthenticatorData(fromBase64Url(inner.authenticatorData as string))
        const signedIn = await signedInUser(options)
        findings = {
          ...ceremonyFacts(clientData, data, relyingParty(options, provider), provider.verifyAuthenticationOptions?.requireUserVerification, signedIn),
          storedCounter: authenticator.counter,
          credentialOwner: user.id,
        }
      } catch (error) {
        return { type: "response.malformed", error }
      }
      try {
        const { ids, origins } = relyingParty(options, provider)
        const verification = await libraryOf(provider).verifyAuthenticationResponse({
          ...provider.verifyAuthenticationOptions,
          response,
          expectedChallenge: flow.challenge,
          expectedOrigin: origins,
          expectedRPID: ids,
          credential: {
            id: credentialIdForBrowser(authenticator.credentialID),
            publicKey: fromBase64Url(authenticator.credentialPublicKey),
            counter: authenticator.counter,
            ...(authenticator.transports && { transports: transportsOf(authenticator.transports)! }),
          },
        })
        return { type: "response.checked", findings: { ...findings, verified: verification.verified }, signIn: { user, account }, authenticator }
      } catch (error) {
        return { type: "response.checked", findings, error, signIn: { user, account }, authenticator }
      }
    }),
    updateCounter: needs(["authenticator", "findings"], async ({ authenticator, findings }) => {
      try {
        await adapter.updateAuthenticatorCounter!(authenticator.credentialID, findings.counter)
        return { type: "counter.updated" }
      } catch (error) {
        return { type: "counter.failed", error }
      }
    }),
    askSignIn: needs(["signIn"], ({ signIn }) => askSignIn(options, signIn)),
    resolveRedirect: needs(["requestedRedirect"], ({ requestedRedirect }) => resolveRedirect(options, requestedRedirect)),
    persistUser: needs(["flow", "signIn", "registered"], async ({ flow, signIn, registered }) => {
      const candidate = flow.user
      // What the registration writes is reported when it fails, for undoRegistration.
      let undo: RegistrationUndo | undefined
      let created: AdapterUser | undefined
      try {
        if (!candidate) throw new TypeError("The registration names no user")
        let user: AdapterUser | null
        if (candidate.id) user = await adapter.getUser!(candidate.id)
        else {
          const id = randomUUID()
          undo = { userId: id }
          user = created = await adapter.createUser!({ id, email: candidate.email, emailVerified: null, ...(candidate.name != null && { name: candidate.name }) })
        }
        if (!user) throw new Error(`The user ${candidate.id} the registration was started for no longer exists`)
        const account: AdapterAccount = { ...signIn.account, userId: user.id } as AdapterAccount
        undo ??= { account }
        await adapter.linkAccount!(account)
        await adapter.createAuthenticator!({ ...registered, userId: user.id })
        if (created) await emitEvent(options.config, options.logger, "createUser", { user: created })
        await emitEvent(options.config, options.logger, "linkAccount", { user, account, profile: user })
        return { type: "user.persisted", isNewUser: created !== undefined, user, account }
      } catch (error) {
        return { type: "persist.failed", error, ...(undo && { undo }) }
      }
    }),
    undoRegistration: async ({ undo }) => {
      // A user created for this registration goes with everything linked to it (by the id it was
      // given: the row may exist though its answer was lost); for an existing user, the passkey
      // account linked for it.
      try {
        if (undo && "userId" in undo) await adapter.deleteUser?.(undo.userId)
        else if (undo) await adapter.unlinkAccount?.({ provider: undo.account.provider, providerAccountId: undo.account.providerAccountId })
        return { type: "registration.undone" }
      } catch (error) {
        return { type: "undo.failed", error }
      }
    },
    ...sessionEffects(options, webAuthnSignedIn),
  }
}

/** Who signed in with the passkey, and how: what the session (or the second factor) is issued for. */
const webAuthnSignedIn = effectsReading<WebAuthnContext>()(["signIn"], ({ signIn, isNewUser }) => ({ ...signIn, isNewUser: isNewUser ?? false }))

const json = (status: number, body: unknown, cookies: Cookie[]): ResponseInternal => ({ status, body, headers: { "Content-Type": "application/json" }, cookies })

/** Messages of the verification refusals, by final state. */
const refusals = {
  challengeReplayed: "The challenge was used before: a challenge is used once",
  wrongCeremony: "The response is for another ceremony than the one started",
  responseMalformed: "The WebAuthn response could not be read",
  unknownCredential: "The credential is not registered",
  challengeMismatch: "The response answers another challenge",
  wrongOrigin: "The response comes from an origin the relying party does not list",
  wrongRpId: "The response is scoped to another relying party ID",
  userVerificationMissing: "The authenticator did not verify the user",
  counterRegressed: "The authenticator's signature counter went backwards: the credential may be cloned",
  badSignature: "The response's signature or attestation did not verify",
} as const

/** The request a flow is answering, and what its outcomes need to build the answer. */
interface OutcomeInput {
  options: AuthOptions
  provider: Provider
  limiter: RequestLimiter
  /** The cookies every answer sets: the request's, then the ones the run minted (the session's). */
  cookies: Cookie[]
  flowId: string
  snapshot: SnapshotFrom<typeof webAuthnMachine>
}

/**
 * How each state the WebAuthn machine stops in answers the request that ends there: adding a state
 * without an answer breaks the build. A refused ceremony clears the challenge cookies with its answer.
 */
function webAuthnOutcomes({ options, provider, limiter, cookies, flowId, snapshot }: OutcomeInput): FlowOutcomes<typeof webAuthnMachine, Answer | Promise<Answer>> {
  const refused =
    (state: keyof typeof refusals) =>
    ({ findings, failedCheck, error }: WebAuthnContext) => {
      const cause = {
        provider: provider.id,
        check: failedCheck ?? state,
        ...(error !== undefined && { err: asError(error) }),
        ...(findings && { origin: findings.origin, type: findings.type }),
      }
      return errorAnswer(new WebAuthnVerificationError(refusals[state], { cause }), cookies)
    }
  const failedWith = (error: unknown) => errorAnswer(error instanceof AuthError ? error : new CallbackRouteError(asError(error), { cause: { provider: provider.id } }), cookies)
  const failed = ({ error }: WebAuthnContext) => failedWith(error)
  return {
    awaitingCeremony: async (context) => {
      const { flow, options: generated, flowIssued } = assigned(context, ["flow"])
      const sealed = await webAuthnFlow.seal(webAuthnFlow.site(options, provider), snapshot, flowId, flowIssued === true)
      return json(200, { action: flow.ceremony, options: generated }, [...cookies, ...sealed])
    },
    invalidAction: () => json(400, { error: "Invalid action" }, cookies),
    invalidRequest: () => json(400, { error: "Invalid request" }, cookies),
    optionsFailed: failed,
    csrfRejected: () => errorAnswer(new MissingCSRF("CSRF token was missing during an action callback"), cookies),
    challengeReplayed: refused("challengeReplayed"),
    wrongCeremony: refused("wrongCeremony"),
    responseMalformed: refused("responseMalformed"),
    unknownCredential: refused("unknownCredential"),
    challengeMismatch: refused("challengeMismatch"),
    wrongOrigin: refused("wrongOrigin"),
    wrongRpId: refused("wrongRpId"),
    userVerificationMissing: refused("userVerificationMissing"),
    counterRegressed: refused("counterRegressed"),
    badSignature: refused("badSignature"),
    accountNotLinked: ({ failedCheck }) =>
      failedWith(
        new AccountNotLinked(failedCheck === "credential-taken" ? "The credential is already registered" : "The account is already associated with another user", {
          cause: { provider: provider.id, check: failedCheck ?? "signed-in-user" },
        }),
      ),
    signedIn: () => ({ redirect: options.callbackUrl, cookies }),
    signedInNewUser: () => ({ redirect: newUserRedirect(options, options.callbackUrl), cookies }),
    ...secondFactorOutcomes(options, cookies, webAuthnSignedIn, () => options.callbackUrl),
    redirected: ({ redirectTo }) => ({ redirect: redirectTo!, cookies }),
    accessDenied: failed,
    persistFailed: failed,
    sessionFailed: failed,
    rateLimited: (context) => errorAnswer(rateLimitedError("webauthn", context, limiter), cookies),
  }
}

/**
 * GET `/webauthn-options/<id>?action=register|authenticate[&email=]`: runs the WebAuthn machine
 * up to `awaitingCeremony`, seals that snapshot into the challenge cookie, and answers
 * `{ action, options }` (the JSON the browser passes to `startRegistration` or
 * `startAuthentication`). A bad action is 400 `{ error: "Invalid action" }`; a request nothing can
 * be decided for (`register` for a known email while signed out, no action while signed in) is 400
 * `{ error: "Invalid request" }`.
 *
 * @example
 * ```ts
 * // GET /auth/webauthn-options/passkey?action=register&email=ada@example.test
 * // → 200 { action: "register", options: { challenge, rp, user, … } } + the challenge cookie
 * ```
 */
export async function webAuthnOptions(options: AuthOptions, provider: Provider, cookies: Cookie[]): Promise<Answer> {
  const request: WebAuthnRequest = { limiter: requestLimiter(options), flowId: newFlowId() }
  const { snapshot, cookies: minted } = await runFlowWithCookies(webAuthnMachine, webAuthnEffects(options, provider, request), { inspect: options.config.inspect, id: webAuthnFlow.actorId(request.flowId) })
  return outcomeOf(snapshot, webAuthnOutcomes({ options, provider, cookies: [...cookies, ...minted], limiter: request.limiter, flowId: request.flowId, snapshot }))
}

/**
 * POST `/callback/<id>` of a WebAuthn provider, with `action`, `data` (the browser's response as
 * JSON), `csrfToken` and `callbackUrl`: restores the sealed flow (a missing, expired, tampered or
 * foreign one is refused; a replayed one is the machine's `challengeReplayed`), resumes the machine
 * with `ceremony.received`, and redirects to the callback URL signed in. The challenge cookies are
 * cleared whatever happens.
 *
 * @example
 * ```ts
 * // POST /auth/callback/passkey  action=authenticate&data={…}&csrfToken=…  → 302 to the callback URL
 * ```
 */
export async function webAuthnCallback(options: AuthOptions, provider: Provider, cookies: Cookie[]): Promise<Answer> {
  const site = webAuthnFlow.site(options, provider)
  const cleared = [...cookies, ...webAuthnFlow.clear(site)]
  const opened = await webAuthnFlow.open(site, options.request.cookies).catch(asError)
  if (opened instanceof Error) return errorAnswer(new WebAuthnVerificationError("The WebAuthn challenge could not be restored", { cause: { err: opened, provider: provider.id } }), cleared)
  const request: WebAuthnRequest = { limiter: requestLimiter(options), flowId: opened.flowId, opened }
  const action = options.request.body?.action
  const resume: WebAuthnEvent = { type: "ceremony.received", ...(typeof action === "string" && { action }), policy: signInTailPolicy(options) }
  const { snapshot, cookies: minted } = await runFlowWithCookies(webAuthnMachine, webAuthnEffects(options, provider, request), {
    inspect: options.config.inspect,
    snapshot: opened.snapshot,
    resume,
    id: webAuthnFlow.actorId(opened.flowId),
  })
  return outcomeOf(snapshot, webAuthnOutcomes({ options, provider, cookies: [...cleared, ...minted], limiter: request.limiter, flowId: opened.flowId, snapshot }))
}
