import { AccountNotLinked, AuthError, CallbackRouteError, MissingCSRF, WebAuthnVerificationError } from "../core/errors.js"
import { withCookies } from "../core/error-cookies.js"
import { claimFlow, issueFlow, newFlowId, openFlow, sealFlow, type FlowBinding, type FlowCookies, type OpenedFlow } from "./flow-cookie.js"
import { randomUUID, sha256Hex } from "../core/crypto.js"
import { replayStoreOf } from "../core/replay-store.js"
import { askSignIn, resolveRedirect } from "./sign-in-callback.js"
import { newUserRedirect, signInTailPolicy } from "./issue-session.js"
import { sessionEffects } from "./session-effects.js"
import { signedInUser } from "./account-linking.js"
import { emitEvent } from "../core/events.js"
import {
  attestedAuthData,
  credentialIdForBrowser,
  fromBase64Url,
  readAuthenticatorData,
  readClientData,
  rpIdHashMatches,
  type AuthenticatorData,
  type ClientData,
  storedCredentialId,
  toBase64,
} from "../core/webauthn/response.js"
import { webAuthnMachine, type CeremonyFindings, type WebAuthnContext, type WebAuthnEvent } from "../machines/webauthn.js"
import { csrfCheckEffect } from "../machines/csrf-check.js"
import { runFlow, type FlowEffects } from "../machines/run-flow.js"
import type { FlowOutcomes } from "./flow-outcomes.js"
import { notAnOutcome, signInTailInFlight } from "./flow-outcomes.js"
import { rateLimitedError, requestLimiter } from "./rate-limit.js"
import type { RequestLimiter } from "../core/rate-limit/limiter.js"
import { defaultGetUserInfo, relayingPartyOf, type WebAuthnConfig, type WebAuthnLibrary, type WebAuthnProviderContext, type WebAuthnRequestInfo } from "../providers/webauthn-config.js"
import type { AuthOptions } from "../core/options.js"
import type { AdapterAccount, AdapterAuthenticator, AdapterUser } from "../adapters.js"
import type { Account, Cookie, InternalProvider, ResponseInternal } from "../types.js"
import { asError } from "../core/as-error.js"

/** Bump when the WebAuthn machine's waiting state or context change shape: older challenge cookies are then refused. */
export const WEBAUTHN_FLOW_VERSION = 1

type Provider = InternalProvider<WebAuthnConfig>

function bindingOf(provider: Provider): FlowBinding & { machine: typeof webAuthnMachine } {
  return { machine: webAuthnMachine, version: WEBAUTHN_FLOW_VERSION, providerId: provider.id }
}

/**
 * The challenge cookie (Auth.js's `webauthnChallenge`, holding the sealed flow) and its browser
 * binding. The binding has its own name, so that a passkey prompt on the sign-in page and an OAuth
 * sign-in in the same browser do not overwrite each other's.
 */
function flowCookiesOf(options: AuthOptions): FlowCookies {
  const { webauthnChallenge, flowBinding } = options.cookies
  return { flow: webauthnChallenge, binding: { name: `${flowBinding.name}.webauthn`, options: flowBinding.options } }
}

function clearFlowCookies(cookies: FlowCookies): Cookie[] {
  return [cookies.flow, cookies.binding].map(({ name, options }) => ({ name, value: "", options: { ...options, maxAge: 0 } }))
}

function actorIdOf(flowId: string): string {
  return `webauthn-${sha256Hex(`actor:${flowId}`).slice(0, 16)}`
}

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

/** What the effects of one request find and pass on. */
interface WebAuthnRun {
  limiter: RequestLimiter
  /** A new flow's id (options only), recorded in the replay store before it is sealed. */
  flowId?: string
  /** Whether the replay store issued the flow: it is then claimed there when it resumes. */
  flowIssued?: boolean
  /** The generated options, answered to the browser. */
  optionsJson?: unknown
  user?: AdapterUser
  account?: Account
  authenticator?: AdapterAuthenticator
  /** A registration's new authenticator, without its user. */
  registered?: Omit<AdapterAuthenticator, "userId">
  opened?: OpenedFlow<typeof webAuthnMachine>
  /** The id of the user a registration is creating, recorded before the write (for `undoRegistration`). */
  creatingUserId?: string
  /** The passkey account a registration is linking, recorded before the write (for `undoRegistration`). */
  linkingAccount?: AdapterAccount
}

function responseOf(options: AuthOptions): Record<string, unknown> {
  const data = options.request.body?.data
  const parsed: unknown = typeof data === "string" ? JSON.parse(data) : data
  if (!parsed || typeof parsed !== "object" || typeof (parsed as { id?: unknown }).id !== "string") throw new TypeError("data is not a WebAuthn response")
  const inner = (parsed as { response?: unknown }).response
  if (!inner || typeof inner !== "object") throw new TypeError("data has no response")
  return parsed as Record<string, unknown>
}

function webAuthnEffects(options: AuthOptions, provider: Provider, run: WebAuthnRun, cookies: Cookie[]): FlowEffects<typeof webAuthnMachine> {
  const adapter = options.adapter!
  return {
    readRequest: () => {
      const action = options.request.query.action
      return { type: "options.requested", ...(action !== undefined && { action }) }
    },
    checkRateLimit: () => run.limiter.count("webauthn", options.request.method === "GET" ? options.request.query.email : undefined),
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
    prepareRegistration: async ({ user }) => {
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
          userName: user!.email,
          // As Auth.js on simplewebauthn 9: the display name defaults to the email (14 would send "").
          userDisplayName: user!.name ?? user!.email,
          excludeCredentials: existing.map((a) => ({ id: credentialIdForBrowser(a.credentialID), ...(a.transports && { transports: transportsOf(a.transports) }) })),
        })
        run.optionsJson = generated
        // Last: the challenge's one-time entry, claimed once when the answer resumes the flow.
        run.flowIssued = await issueFlow(webAuthnMachine.id, run.flowId!, replayStoreOf(options.config, options.logger))
        return { type: "options.ready", challenge: generated.challenge }
      } catch (error) {
        return { type: "options.failed", error }
      }
    },
    prepareAuthentication: async ({ user }) => {
      try {
        const existing = user?.id ? await adapter.listAuthenticatorsByUserId!(user.id) : undefined
        const { party } = relyingParty(options, provider)
        const generated = await libraryOf(provider).generateAuthenticationOptions({
          ...provider.authenticationOptions,
          rpID: party.id,
          ...(existing && { allowCredentials: existing.map((a) => ({ id: credentialIdForBrowser(a.credentialID), ...(a.transports && { transports: transportsOf(a.transports) }) })) }),
        })
        run.optionsJson = generated
        // Last: the challenge's one-time entry, claimed once when the answer resumes the flow.
        run.flowIssued = await issueFlow(webAuthnMachine.id, run.flowId!, replayStoreOf(options.config, options.logger))
        return { type: "options.ready", challenge: generated.challenge }
      } catch (error) {
        return { type: "options.failed", error }
      }
    },
    ...csrfCheckEffect(options),
    claimChallenge: async () => {
      try {
        return (await claimFlow(run.opened!, replayStoreOf(options.config, options.logger))) ? { type: "challenge.fresh" } : { type: "challenge.replayed" }
      } catch (error) {
        // A replay store that cannot answer: the machine refuses the flow (fail closed).
        return { type: "challenge.failed", error }
      }
    },
    verifyRegistration: async ({ flow }) => {
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
          expectedChallenge: flow!.challenge,
          expectedOrigin: origins,
          expectedRPID: ids,
        })
        const info = verification.registrationInfo
        if (verification.verified && info) {
          const credentialID = storedCredentialId(info.credential.id)
          const transports = (response.response as { transports?: unknown }).transports
          run.registered = {
            providerAccountId: credentialID,
            credentialID,
            credentialPublicKey: toBase64(info.credential.publicKey),
            counter: info.credential.counter,
            credentialBackedUp: info.credentialBackedUp,
            credentialDeviceType: info.credentialDeviceType,
            transports: Array.isArray(transports) && transports.length ? transports.join(",") : null,
          }
          return { type: "response.checked", findings: { ...findings, verified: true } }
        }
        return { type: "response.checked", findings }
      } catch (error) {
        return { type: "response.checked", findings, error }
      }
    },
    verifyAuthentication: async ({ flow }) => {
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
      run.authenticator = authenticator
      run.account = account
      run.user = user
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
          expectedChallenge: flow!.challenge,
          expectedOrigin: origins,
          expectedRPID: ids,
          credential: {
            id: credentialIdForBrowser(authenticator.credentialID),
            publicKey: fromBase64Url(authenticator.credentialPublicKey),
            counter: authenticator.counter,
            ...(authenticator.transports && { transports: transportsOf(authenticator.transports)! }),
          },
        })
        return { type: "response.checked", findings: { ...findings, verified: verification.verified } }
      } catch (error) {
        return { type: "response.checked", findings, error }
      }
    },
    updateCounter: async ({ findings }) => {
      try {
        await adapter.updateAuthenticatorCounter!(run.authenticator!.credentialID, findings!.counter)
        return { type: "counter.updated" }
      } catch (error) {
        return { type: "counter.failed", error }
      }
    },
    askSignIn: ({ flow }) => {
      if (flow!.ceremony === "authenticate") return askSignIn(options, { user: run.user!, account: run.account! })
      const registered = run.registered!
      run.account = { providerAccountId: registered.providerAccountId, provider: provider.id, type: "webauthn" }
      return askSignIn(options, { user: flow!.user!, account: run.account })
    },
    resolveRedirect: ({ requestedRedirect }) => resolveRedirect(options, requestedRedirect!),
    persistUser: async ({ flow }) => {
      const candidate = flow!.user!
      let created: AdapterUser | undefined
      try {
        // What the registration is about to write is recorded first, for undoRegistration.
        const newUserId = candidate.id ? undefined : randomUUID()
        if (newUserId) run.creatingUserId = newUserId
        const user = candidate.id
          ? await adapter.getUser!(candidate.id)
          : (created = await adapter.createUser!({ id: newUserId!, email: candidate.email, emailVerified: null, ...(candidate.name != null && { name: candidate.name }) }))
        if (!user) throw new Error(`The user ${candidate.id} the registration was started for no longer exists`)
        const account: AdapterAccount = { ...(run.account as AdapterAccount), userId: user.id }
        run.linkingAccount = account
        await adapter.linkAccount!(account)
        await adapter.createAuthenticator!({ ...run.registered!, userId: user.id })
        run.user = user
        run.account = account
        if (created) await emitEvent(options.config, options.logger, "createUser", { user: created })
        await emitEvent(options.config, options.logger, "linkAccount", { user, account, profile: user })
        return { type: "user.persisted", isNewUser: created !== undefined }
      } catch (error) {
        return { type: "persist.failed", error }
      }
    },
    undoRegistration: async () => {
      // A user created for this registration goes with everything linked to it (by the id it was
      // given: the row may exist though its answer was lost); for an existing user, the passkey
      // account linked for it.
      const { creatingUserId, linkingAccount } = run
      try {
        if (creatingUserId) await adapter.deleteUser?.(creatingUserId)
        else if (linkingAccount) await adapter.unlinkAccount?.({ provider: linkingAccount.provider, providerAccountId: linkingAccount.providerAccountId })
        return { type: "registration.undone" }
      } catch (error) {
        return { type: "undo.failed", error }
      }
    },
    ...sessionEffects(options, cookies, ({ isNewUser }: WebAuthnContext) => ({ user: run.user!, account: run.account!, isNewUser: isNewUser ?? false })),
  }
}

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

interface OutcomeInput {
  options: AuthOptions
  provider: Provider
  run: WebAuthnRun
  cookies: Cookie[]
  flowId: string
  snapshot: Awaited<ReturnType<typeof runFlow<typeof webAuthnMachine>>>
}

function refused(state: keyof typeof refusals) {
  return ({ context }: { context: WebAuthnContext }, input: OutcomeInput): never => {
    const { findings, failedCheck, error } = context
    const cause = {
      provider: input.provider.id,
      check: failedCheck ?? state,
      ...(error !== undefined && { err: asError(error) }),
      ...(findings && { origin: findings.origin, type: findings.type }),
    }
    throw withCookies(new WebAuthnVerificationError(refusals[state], { cause }), input.cookies)
  }
}

function failedWith(input: OutcomeInput, error: unknown): never {
  throw withCookies(error instanceof AuthError ? error : new CallbackRouteError(asError(error), { cause: { provider: input.provider.id } }), input.cookies)
}

type Outcome = (flow: { context: WebAuthnContext }, input: OutcomeInput) => Promise<ResponseInternal> | ResponseInternal
type WebAuthnOutcomes = FlowOutcomes<typeof webAuthnMachine, never> extends Record<infer K, unknown> ? Record<K, Outcome> : never

/** How each state of the WebAuthn machine answers the request that ends there. */
const outcomes: WebAuthnOutcomes = {
  awaitingCeremony: async ({ context }, { options, snapshot, run, cookies, flowId, provider }) => {
    const sealed = await sealFlow(snapshot, bindingOf(provider), options.secret, flowCookiesOf(options), flowId, run.flowIssued)
    return json(200, { action: context.flow!.ceremony, options: run.optionsJson }, [...cookies, ...sealed])
  },
  invalidAction: (_, { cookies }) => json(400, { error: "Invalid action" }, cookies),
  invalidRequest: (_, { cookies }) => json(400, { error: "Invalid request" }, cookies),
  optionsFailed: ({ context }, input) => failedWith(input, context.error),
  csrfRejected: (_, { cookies }) => {
    throw withCookies(new MissingCSRF("CSRF token was missing during an action callback"), cookies)
  },
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
  accountNotLinked: ({ context }, input) =>
    failedWith(
      input,
      new AccountNotLinked(context.failedCheck === "credential-taken" ? "The credential is already registered" : "The account is already associated with another user", {
        cause: { provider: input.provider.id, check: context.failedCheck ?? "signed-in-user" },
      }),
    ),
  signedIn: (_, { options, cookies }) => ({ redirect: options.callbackUrl, cookies }),
  signedInNewUser: (_, { options, cookies }) => ({ redirect: newUserRedirect(options, options.callbackUrl), cookies }),
  redirected: ({ context }, { cookies }) => ({ redirect: context.redirectTo!, cookies }),
  accessDenied: ({ context }, input) => failedWith(input, context.error),
  persistFailed: ({ context }, input) => failedWith(input, context.error),
  sessionFailed: ({ context }, input) => failedWith(input, context.error),
  rateLimited: ({ context }, { run, cookies }) => {
    throw withCookies(rateLimitedError("webauthn", context, run.limiter), cookies)
  },
  readingRequest: notAnOutcome,
  undoingRegistration: notAnOutcome,
  checkingRateLimit: notAnOutcome,
  checkingCallbackRateLimit: notAnOutcome,
  findingUser: notAnOutcome,
  preparingRegistration: notAnOutcome,
  preparingAuthentication: notAnOutcome,
  validatingInput: notAnOutcome,
  claimingChallenge: notAnOutcome,
  verifyingRegistration: notAnOutcome,
  verifyingAuthentication: notAnOutcome,
  recordingCounter: notAnOutcome,
  ...signInTailInFlight,
}

function answer(snapshot: OutcomeInput["snapshot"], input: Omit<OutcomeInput, "snapshot">) {
  return outcomes[snapshot.value as keyof WebAuthnOutcomes]({ context: snapshot.context }, { ...input, snapshot })
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
export async function webAuthnOptions(options: AuthOptions, provider: Provider, cookies: Cookie[]): Promise<ResponseInternal> {
  const flowId = newFlowId()
  const run: WebAuthnRun = { limiter: requestLimiter(options), flowId }
  const snapshot = await runFlow(webAuthnMachine, webAuthnEffects(options, provider, run, cookies), { inspect: options.config.inspect, id: actorIdOf(flowId) })
  return answer(snapshot, { options, provider, run, cookies, flowId })
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
export async function webAuthnCallback(options: AuthOptions, provider: Provider, cookies: Cookie[]): Promise<ResponseInternal> {
  const flowCookies = flowCookiesOf(options)
  cookies.push(...clearFlowCookies(flowCookies))
  let opened: OpenedFlow<typeof webAuthnMachine>
  try {
    opened = await openFlow(options.request.cookies, bindingOf(provider), options.secret, flowCookies)
  } catch (error) {
    throw withCookies(new WebAuthnVerificationError("The WebAuthn challenge could not be restored", { cause: { err: asError(error), provider: provider.id } }), cookies)
  }
  const run: WebAuthnRun = { opened, limiter: requestLimiter(options) }
  const action = options.request.body?.action
  const resume: WebAuthnEvent = { type: "ceremony.received", ...(typeof action === "string" && { action }), policy: signInTailPolicy(options) }
  const snapshot = await runFlow(webAuthnMachine, webAuthnEffects(options, provider, run, cookies), {
    inspect: options.config.inspect,
    snapshot: opened.snapshot,
    resume,
    id: actorIdOf(opened.flowId),
  })
  return answer(snapshot, { options, provider, run, cookies, flowId: opened.flowId })
}
