/**
 * The world one path runs in: the user's configuration with the outside world replaced (OAuth
 * providers by stand-ins, mail by a capturing sender, the WebAuthn library wrapped to fail on demand), a fresh database where the fixtures give
 * one, a browser, and the record of what the path did.
 *
 * @module
 */
import { randomUUID } from "node:crypto"
import { Browser, type SendInit } from "./browser.js"
import { PathRecord } from "./recording.js"
import { StandInProvider } from "./stand-in.js"
import { usersOf, type AuthflowFixtures } from "./fixtures.js"
import { providerConfigs } from "../core/providers.js"
import { checkConfig } from "../core/assert.js"
import { TransitionRecorder } from "./recorder.js"
import type { AuthError } from "../core/errors.js"
import { resolveCookies } from "../core/cookies/defaults.js"
import { encode } from "../core/jwt/encode.js"
import type { Adapter, AdapterUser } from "../adapters.js"
import type { OAuthProviderConfig } from "../providers/oauth.js"
import type { EmailConfig } from "../providers/email-config.js"
import type { WebAuthnConfig, WebAuthnLibrary } from "../providers/webauthn-config.js"
import type { AuthConfig, CredentialsConfig, PasswordMail, ProviderConfig, RateLimitOptions } from "../types.js"
import type { CookiesOptions } from "../base-types.js"
import { memoryRevocationStore, type RevocationStore } from "../core/revocation-store.js"
import { rateLimitOf } from "../core/rate-limit/limiter.js"
import type { RateLimitStore } from "../core/rate-limit/store.js"
import { resolveSecondFactor } from "../core/second-factor-options.js"
import { base32Encode, hashBackupCode, newBackupCodes, newTotpSecret, sealFactorSecret } from "../core/second-factor/index.js"
import { softwareTotp, type SoftwareTotp } from "./totp.js"

/** What the kit's rate-limit store answers for one request (see `World.limitRequests`). */
export type LimiterMode = "within" | "over" | "down-open" | "down-closed"

/** A secret for configurations that take theirs from the environment at run time. */
const testSecret = "authflow/testing: a secret for tests only, never for an app"

/** A sign-in mail the capturing mailer received: its link (with `code: "instead"`, the page where the code is typed) and, with the provider's `code` option, its code. */
export interface CapturedMail {
  identifier: string
  url: string
  /** The 6-digit code the mail carries, with the provider's `code` option. */
  code?: string
}

/** The configuration's providers as configs, the way `Auth()` resolves them. */
export function configuredProviders(config: AuthConfig): ProviderConfig[] {
  return providerConfigs(config.providers)
}

/** The session strategy a configuration uses. */
export function strategyOf(config: AuthConfig): "jwt" | "database" {
  return config.session?.strategy ?? (config.adapter ? "database" : "jwt")
}

/** A second factor the world enrolled for a user: its authenticator app (a software one) and backup codes. */
export interface Enrolment {
  userId: string
  factorId: string
  app: SoftwareTotp
  backupCodes: string[]
}

/** The default claims of a stand-in's user: the usual shapes, so most `profile()` functions find what they read. */
function claimsFor(fixtures: AuthflowFixtures, providerId: string): Record<string, unknown> {
  return {
    id: "stand-in-subject",
    login: "stand-in-user",
    name: "Stand-in User",
    preferred_username: "stand-in-user",
    email_verified: true,
    ...fixtures.profiles?.[providerId],
    // Each path decides whose address the provider reports.
    email: usersOf(fixtures).newEmail,
  }
}

/**
 * One path's world. Create it with {@link World.create}; send the path's requests with
 * {@link send}, which records them; set the world up with the raw {@link database} and
 * {@link signInAs}, which leave no trace in the record.
 */
export class World {
  readonly record = new PathRecord()
  readonly standIns = new Map<string, StandInProvider>()
  readonly mail: CapturedMail[] = []
  /** The codes `secondFactor.sendCode` was given, captured instead of mailed. */
  readonly secondFactorCodes: { email: string; code: string }[] = []
  /** Make the capturing `secondFactor.sendCode` throw, as a mail service that is down would. */
  sendCodeFails = false
  /**
   * Enrol a software authenticator (and backup codes) for the user whose second factor the path
   * looks up, just before the lookup reads it: the user who signs in has a factor, whoever the
   * first factor turns out to name (the user a credentials `authorize` returns, say).
   */
  enrollOnLookup = false
  /** Whether the enrolment gives backup codes too (a user who spent every backup code has none). */
  enrollBackupCodes = true
  /** The second factor the world enrolled, once it did. */
  enrolled?: Enrolment
  /** Set by a driver when the path's own flow could not be started, and why. */
  note?: string
  /** Make the capturing mailer throw, as a mail service that is down would (the Password provider's `sendMail` too). */
  mailFails = false
  /**
   * The mails a Password provider's `sendMail` accepted: your own `sendMail` is still called, and a
   * mail counts as sent (its link usable by the kit) once it returned without throwing.
   */
  readonly passwordMail: PasswordMail[] = []
  /**
   * A password hash that lands first at the next compare-and-set of a password (another reset or
   * change that won the race): the write the path makes then finds the hash changed.
   */
  hashLandsFirst?: string
  /**
   * Another sign-up lands first at the next `createUser`: a user with the same address is written
   * just before it (the adapter's unique index, where it has one, then refuses the path's own).
   */
  userLandsFirst = false
  /** Make the revocation store refuse to record a revocation, as a store that is down would (JWT sessions ended by a password change); reading still works. */
  revocationFails = false
  /**
   * Make the WebAuthn library fail: `options` throws while generating options, `attestation`
   * refuses a registration every named check accepts (as a bad attestation statement would).
   */
  readonly webAuthnFaults = new Set<"options" | "attestation">()
  readonly browser: Browser
  readonly config: AuthConfig
  readonly origin: string
  readonly users: ReturnType<typeof usersOf>
  readonly callbackUrl: string
  #limiterMode: LimiterMode = "within"
  /** The configuration's `rateLimit` options when rate limiting is on; undefined when it is off. */
  readonly #limiterOptions: RateLimitOptions | undefined
  /** The world's own rate-limit store: it answers as the path needs (within, over, down), and counts nothing. */
  readonly #limiterStore: RateLimitStore = {
    hit: async (counters) => {
      if (this.#limiterMode === "down-open" || this.#limiterMode === "down-closed") throw new Error("The rate-limit store is unreachable (authflow/testing made it fail)")
      const count = this.#limiterMode === "over" ? Number.MAX_SAFE_INTEGER : 1
      return counters.map((counter) => ({ count, resetAt: Date.now() + counter.windowMs }))
    },
    refund: async () => {
      if (this.#limiterMode === "down-open" || this.#limiterMode === "down-closed") throw new Error("The rate-limit store is unreachable (authflow/testing made it fail)")
    },
  }

  private constructor(
    readonly userConfig: AuthConfig,
    readonly fixtures: AuthflowFixtures,
    /** The database as the path finds it, unrecorded: for setting the world up. */
    readonly database: Adapter | undefined,
    /** What the flows of this world did, from their inspection events. */
    readonly recorder: TransitionRecorder,
  ) {
    this.origin = (fixtures.origin ?? userConfig.origin ?? "https://app.test").replace(/\/+$/, "")
    this.users = usersOf(fixtures)
    this.callbackUrl = fixtures.callbackUrl ?? "/"
    const providers = configuredProviders(userConfig).map((provider) => this.#replaceOutside(provider))
    this.#limiterOptions = rateLimitOf(userConfig) ? (typeof userConfig.rateLimit === "object" ? userConfig.rateLimit : {}) : undefined
    this.config = {
      ...userConfig,
      providers,
      secret: userConfig.secret ?? process.env.AUTH_SECRET ?? testSecret,
      ...(userConfig.origin === undefined && { trustHost: true }),
      ...(database && { adapter: this.record.wrapAdapter(this.#enrollingOnLookup(database)) }),
      revocationStore: this.#revocations(userConfig.revocationStore ?? memoryRevocationStore()),
      ...(typeof userConfig.secondFactor === "object" && userConfig.secondFactor.sendCode && { secondFactor: this.#capturingSendCode(userConfig.secondFactor) }),
      events: this.record.wrapEvents(userConfig.events),
      logger: this.record.logger(),
      inspect: recorder.inspect,
      // The configuration's budgets, counted in the world's own store: a path's outcome never depends on the paths before it.
      rateLimit: this.#limiterRateLimit(),
    }
    this.browser = new Browser(this.config, this.origin, userConfig.basePath ?? "/auth")
  }

  /**
   * The database, with the lookups of a user's factors and backup codes enrolling them first when
   * the path needs it (see {@link enrollOnLookup}); both wait for one enrolment, as the engine
   * makes them together.
   */
  #enrollingOnLookup(database: Adapter): Adapter {
    let enrolment: Promise<unknown> | undefined
    const enrolFirst = <T>(method: ((userId: string) => T) | undefined) =>
      method &&
      (async (userId: string) => {
        if (this.enrollOnLookup) await (enrolment ??= this.enrollSecondFactor(userId))
        return method.call(database, userId)
      })
    const update = database.updateAccountTokens
    const racing: Adapter["updateAccountTokens"] =
      update &&
      (async (account, expected, tokens) => {
        const first = this.hashLandsFirst
        this.hashLandsFirst = undefined
        if (first !== undefined) await update.call(database, account, expected, { refresh_token: first })
        return update.call(database, account, expected, tokens)
      })
    const create = database.createUser
    const raced: Adapter["createUser"] =
      create &&
      (async (user) => {
        if (this.userLandsFirst) {
          this.userLandsFirst = false
          await create.call(database, { id: randomUUID(), name: "Another Sign-up", email: user.email, emailVerified: null })
        }
        return create.call(database, user)
      })
    const wrapped: Record<string, unknown> = { listFactorsByUserId: enrolFirst(database.listFactorsByUserId), countBackupCodes: enrolFirst(database.countBackupCodes), updateAccountTokens: racing, createUser: raced }
    // A proxy, not a copy: an adapter's methods may live on its prototype.
    return new Proxy(database, { get: (target, key, receiver) => (typeof key === "string" && wrapped[key] ? wrapped[key] : Reflect.get(target, key, receiver)) })
  }

  /** The configuration's revocation store (or a memory one of the world's), failing on demand (see {@link revocationFails}). */
  #revocations(store: RevocationStore): RevocationStore {
    const failing = () => {
      if (this.revocationFails) throw new Error("The revocation store is unreachable (authflow/testing made it fail)")
    }
    return {
      revoke: async (key, at, expiresAt) => (failing(), store.revoke(key, at, expiresAt)),
      revokedAt: (keys) => store.revokedAt(keys),
    }
  }

  /** `secondFactor` with its `sendCode` capturing the codes instead of mailing them. */
  #capturingSendCode(options: Exclude<AuthConfig["secondFactor"], boolean | undefined>): AuthConfig["secondFactor"] {
    return {
      ...options,
      sendCode: ({ email, code }) => {
        if (this.sendCodeFails) throw new Error("The mail service is unreachable (authflow/testing made it fail)")
        this.secondFactorCodes.push({ email, code })
      },
    }
  }

  /**
   * Enrols a software authenticator app and ten backup codes (see {@link enrollBackupCodes}) for `userId`, as the user would on
   * an enrolment page (not recorded). A user the database lacks (one a credentials `authorize`
   * returns from elsewhere) is created first, with an address of the kit's.
   */
  async enrollSecondFactor(userId: string): Promise<Enrolment> {
    const database = this.#database()
    if (!(await database.getUser!(userId))) await database.createUser!({ id: userId, name: "Enrolled User", email: `enrolled-${userId}@example.test`, emailVerified: null })
    const { totp } = resolveSecondFactor(this.config.secondFactor ?? true)!
    const secret = newTotpSecret()
    const factorId = randomUUID()
    const authSecret = this.config.secret as string | string[]
    await database.createFactor!({ id: factorId, userId, type: "totp", name: "authflow/testing", secret: await sealFactorSecret(secret, authSecret), ...totp, lastUsedStep: null, createdAt: new Date() })
    const backupCodes = this.enrollBackupCodes ? newBackupCodes() : []
    if (backupCodes.length) await database.replaceBackupCodes!(userId, await Promise.all(backupCodes.map((code) => hashBackupCode(code, authSecret))))
    this.enrolled = { userId, factorId, app: softwareTotp(base32Encode(secret), totp), backupCodes }
    return this.enrolled
  }

  #limiterRateLimit(): AuthConfig["rateLimit"] {
    if (!this.#limiterOptions) return false
    return { ...this.#limiterOptions, store: this.#limiterStore, onStoreError: this.#limiterMode === "down-closed" ? "closed" : "open" }
  }

  /**
   * What the rate limiter meets in the requests sent from now on: every request within the budgets
   * (the default), over one, or the store down with the limiter failing open or closed.
   */
  limitRequests(mode: LimiterMode): void {
    this.#limiterMode = mode
    ;(this.config as { rateLimit?: AuthConfig["rateLimit"] }).rateLimit = this.#limiterRateLimit()
  }

  /**
   * The configuration error `Auth()` would report for the configuration as the kit runs it (with
   * its stand-ins, capturing mailer and secret), checked as `Auth()` checks it; undefined when
   * there is none.
   */
  static async configError(config: AuthConfig, fixtures: AuthflowFixtures): Promise<AuthError | undefined> {
    const { config: run } = new World(config, fixtures, config.adapter, new TransitionRecorder([]))
    const check = await checkConfig(run, providerConfigs(run.providers))
    return check.ok ? undefined : check.error
  }

  /** A world for one path: a fresh adapter when the fixtures give one, stand-ins for every OAuth provider. */
  static async create(config: AuthConfig, fixtures: AuthflowFixtures, recorder: TransitionRecorder): Promise<World> {
    const database = config.adapter ? ((await fixtures.freshAdapter?.()) ?? config.adapter) : undefined
    return new World(config, fixtures, database, recorder)
  }

  #replaceOutside(provider: ProviderConfig): ProviderConfig {
    if (provider.type === "oauth" || provider.type === "oidc") {
      const oauth = provider as OAuthProviderConfig
      const clientId = oauth.clientId ?? "stand-in-client"
      const clientSecret = oauth.clientSecret ?? "stand-in-secret"
      const standIn = new StandInProvider({
        id: provider.id,
        type: provider.type,
        clientId,
        clientSecret,
        ...(oauth.client?.token_endpoint_auth_method && { tokenEndpointAuthMethod: oauth.client.token_endpoint_auth_method }),
        claims: claimsFor(this.fixtures, provider.id),
      })
      this.standIns.set(provider.id, standIn)
      return standIn.install({ ...oauth, clientId, clientSecret }) as ProviderConfig
    }
    if (provider.type === "email") {
      const email: EmailConfig = {
        ...provider,
        sendVerificationRequest: ({ identifier, url, code }) => {
          if (this.mailFails) throw new Error("The mail service is unreachable (authflow/testing made it fail)")
          this.mail.push({ identifier, url, ...(code !== undefined && { code }) })
        },
      }
      return email
    }
    const accounts = provider.type === "credentials" ? (provider as CredentialsConfig).passwordAccounts : undefined
    if (accounts?.sendMail) {
      const own = accounts.sendMail
      const sendMail = async (mail: PasswordMail) => {
        if (this.mailFails) throw new Error("The mail service is unreachable (authflow/testing made it fail)")
        await own(mail)
        this.passwordMail.push(mail)
      }
      return { ...provider, passwordAccounts: { ...accounts, sendMail } } as ProviderConfig
    }
    if (provider.type === "webauthn") {
      const webauthn = provider as WebAuthnConfig
      const library = webauthn.simpleWebAuthn
      if (!library) return provider
      const faults = this.webAuthnFaults
      const failing = (): never => {
        throw new Error("The WebAuthn library failed (authflow/testing made it fail)")
      }
      const wrapped: WebAuthnLibrary = {
        ...library,
        generateRegistrationOptions: (options) => (faults.has("options") ? failing() : library.generateRegistrationOptions(options)),
        generateAuthenticationOptions: (options) => (faults.has("options") ? failing() : library.generateAuthenticationOptions(options)),
        verifyRegistrationResponse: async (options) => (faults.has("attestation") ? { verified: false } : library.verifyRegistrationResponse(options)),
      }
      return { ...webauthn, simpleWebAuthn: wrapped } as ProviderConfig
    }
    return provider
  }

  /** The stand-in of an OAuth provider. */
  standIn(providerId: string): StandInProvider {
    const standIn = this.standIns.get(providerId)
    if (!standIn) throw new Error(`authflow/testing: no stand-in for provider "${providerId}"`)
    return standIn
  }

  /** The session strategy of the configuration. */
  get strategy(): "jwt" | "database" {
    return strategyOf(this.userConfig)
  }

  /** The cookies (names and options) `Auth()` uses for the origin requests go to. */
  get cookies(): CookiesOptions {
    return resolveCookies(this.config.useSecureCookies ?? this.origin.startsWith("https:"), this.config.cookies)
  }

  /** The session cookie's name for the origin requests go to. */
  get sessionCookie(): string {
    return this.cookies.sessionToken.name
  }

  /** Sends one of the path's requests: its response, events, adapter writes and logged errors are recorded. */
  async send(path: string, init: Omit<SendInit, "record"> = {}): Promise<Response> {
    this.record.recording = true
    try {
      return await this.browser.send(path, init)
    } finally {
      this.record.recording = false
    }
  }

  /** A CSRF token for the browser (not recorded). */
  csrfToken(): Promise<string> {
    return this.browser.csrfToken()
  }

  /** The existing user of the fixtures, created when the database lacks them. */
  async existingUser(): Promise<AdapterUser> {
    const { email, name } = this.users.existing
    // Without a database, a JWT session names the user by itself.
    if (!this.database) return { id: "existing-user", email, name, emailVerified: null }
    return this.ensureUser(email, name)
  }

  /** The user with this address, created when the database lacks them (not recorded). */
  async ensureUser(email: string, name: string): Promise<AdapterUser> {
    const database = this.#database()
    return (await database.getUserByEmail!(email)) ?? database.createUser!({ id: randomUUID(), name, email, emailVerified: null })
  }

  /** Signs the browser in as `user`, the way the configuration keeps sessions (not recorded). */
  async signInAs(user: AdapterUser): Promise<void> {
    const name = this.sessionCookie
    if (this.strategy === "database") {
      const sessionToken = randomUUID()
      await this.#database().createSession!({ sessionToken, userId: user.id, expires: new Date(Date.now() + 3600_000) })
      this.browser.cookies.set(name, sessionToken)
      return
    }
    const secret = this.config.secret!
    const token = { name: user.name, email: user.email, sub: user.id }
    this.browser.cookies.set(name, await (this.config.jwt?.encode ?? encode)({ token, secret, salt: name }))
  }

  /** What `/session` answers now: who is signed in (name, email) and which fields the session has. Not recorded. */
  async session(): Promise<{ user: { name: string | null; email: string | null } | null; fields: string[] } | null> {
    const response = await this.browser.send("/session", { record: false })
    const body = (await response.json().catch(() => null)) as Record<string, unknown> | null
    if (!body || typeof body !== "object") return null
    const user = body.user as { name?: string | null; email?: string | null } | undefined
    return {
      user: user ? { name: user.name ?? null, email: user.email ?? null } : null,
      fields: Object.keys(body).sort(),
    }
  }

  #database(): Adapter {
    if (!this.database) throw new Error("authflow/testing: this path needs a database, and the configuration has no adapter")
    return this.database
  }
}
