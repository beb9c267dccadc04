/**
 * An adapter that keeps everything in process memory: for tests, demos and prototypes. It enforces
 * the same constraints as the SQL adapter (unique email, unique provider account, unique session
 * token, unique identifier and token, unique factor id, references to existing users) and stores the same fields, so
 * code tested against it behaves the same on a database. A duplicate key rejects with an error whose
 * `code` is `"UNIQUE_VIOLATION"`, as a database's unique-key violation has its own code.
 *
 * @example
 * ```ts
 * import { MemoryAdapter } from "authflow/adapters/memory"
 * const config = { adapter: MemoryAdapter(), session: { strategy: "database" }, providers: [] }
 * ```
 * @module
 */
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterFactor,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "../adapters.js"
import { accountShape, authenticatorShape, factorShape, sessionShape, userShape, verificationTokenShape } from "./fields.js"

/**
 * Creates an empty in-memory adapter implementing every method of the contract.
 *
 * `createUser` keeps the `id` it is given and generates a UUID when that id is empty.
 * `createSession` gives each session an `id` of its own, returned with the session as the SQL adapter returns its row.
 * Every value goes in and comes out as a fresh copy: mutating an object passed to or returned by
 * the adapter never changes what it stores. Data lives as long as the returned object; nothing is
 * shared between two calls of `MemoryAdapter()`.
 *
 * @example
 * ```ts
 * const adapter = MemoryAdapter()
 * const user = await adapter.createUser({ id: "", email: "ada@example.com", emailVerified: null })
 * await adapter.createSession({ sessionToken: "s1", userId: user.id, expires: new Date(Date.now() + 3_600_000) })
 * const found = await adapter.getSessionAndUser("s1")
 * found?.user.email // "ada@example.com"
 * ```
 */
export function MemoryAdapter(): Required<Adapter> {
  const users = new Map<string, AdapterUser>()
  const accounts = new Map<string, AdapterAccount>()
  const sessions = new Map<string, AdapterSession>()
  const verificationTokens = new Map<string, VerificationToken>()
  const authenticators = new Map<string, AdapterAuthenticator>()
  const factors = new Map<string, AdapterFactor>()
  // Per user, the set of backup code hashes.
  const backupCodes = new Map<string, Set<string>>()

  // JSON of the pair: no separator can be forged by a value containing it.
  const accountKey = (provider: string, providerAccountId: string) => JSON.stringify([provider, providerAccountId])
  const tokenFields = new Set(["access_token", "refresh_token", "expires_at", "token_type", "scope", "id_token"])
  const tokenKey = (identifier: string, token: string) => JSON.stringify([identifier, token])

  // A duplicate key: `code` as the replay store and callers recognize a unique-key violation.
  function duplicate(message: string, cause?: unknown): Error {
    return Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { code: "UNIQUE_VIOLATION" })
  }
  function requireUser(userId: string, what: string): void {
    if (!users.has(userId)) throw new Error(`${what} refers to an unknown user`, { cause: { userId } })
  }
  function requireFreeEmail(email: string | null | undefined, exceptUserId?: string): void {
    if (email === null || email === undefined) return
    for (const user of users.values()) {
      if (user.email === email && user.id !== exceptUserId) throw duplicate("A user with this email already exists", { email })
    }
  }

  return {
    async createUser(user) {
      const stored = userShape({ ...user, id: user.id || globalThis.crypto.randomUUID() })
      if (users.has(stored.id)) throw duplicate("A user with this id already exists", { id: stored.id })
      requireFreeEmail(stored.email)
      users.set(stored.id, stored)
      return userShape(stored)
    },
    async getUser(id) {
      const user = users.get(id)
      return user ? userShape(user) : null
    },
    async getUserByEmail(email) {
      for (const user of users.values()) if (user.email === email) return userShape(user)
      return null
    },
    async getUserByAccount({ provider, providerAccountId }) {
      const account = accounts.get(accountKey(provider, providerAccountId))
      const user = account && users.get(account.userId)
      return user ? userShape(user) : null
    },
    async updateUser(update) {
      const current = users.get(update.id)
      if (!current) throw new Error("Cannot update an unknown user", { cause: { id: update.id } })
      const changes = Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined))
      const updated = userShape({ ...current, ...changes, id: current.id })
      requireFreeEmail(updated.email, current.id)
      users.set(current.id, updated)
      return userShape(updated)
    },
    async deleteUser(userId) {
      const user = users.get(userId)
      if (!user) return null
      for (const [key, session] of sessions) if (session.userId === userId) sessions.delete(key)
      for (const [key, account] of accounts) if (account.userId === userId) accounts.delete(key)
      for (const [key, authenticator] of authenticators) if (authenticator.userId === userId) authenticators.delete(key)
      for (const [key, factor] of factors) if (factor.userId === userId) factors.delete(key)
      backupCodes.delete(userId)
      users.delete(userId)
      return user
    },
    async linkAccount(account) {
      const stored = accountShape(account)
      requireUser(stored.userId, "The account")
      const key = accountKey(stored.provider, stored.providerAccountId)
      if (accounts.has(key)) {
        throw duplicate("This provider account is already linked", { provider: stored.provider, providerAccountId: stored.providerAccountId })
      }
      accounts.set(key, stored)
      return accountShape(stored)
    },
    async unlinkAccount({ provider, providerAccountId }) {
      const key = accountKey(provider, providerAccountId)
      const account = accounts.get(key)
      if (!account) return undefined
      accounts.delete(key)
      return account
    },
    async getAccount(providerAccountId, provider) {
      const account = accounts.get(accountKey(provider, providerAccountId))
      return account ? accountShape(account) : null
    },
    async listAccountsByUserId(userId) {
      return [...accounts.values()]
        .filter((account) => account.userId === userId)
        .sort((a, b) => accountKey(a.provider, a.providerAccountId).localeCompare(accountKey(b.provider, b.providerAccountId)))
        .map(accountShape)
    },
    async updateAccountTokens({ provider, providerAccountId }, expectedRefreshToken, tokens) {
      // Compare and set with no await in between: of concurrent calls expecting one token, one wins.
      const key = accountKey(provider, providerAccountId)
      const current = accounts.get(key)
      if (!current || current.refresh_token !== expectedRefreshToken) return false
      const changes = Object.fromEntries(Object.entries(tokens).filter(([field]) => tokenFields.has(field)))
      accounts.set(key, accountShape({ ...current, ...changes }))
      return true
    },
    async createSession(session) {
      // The row's own id, generated as the SQL adapter's is: an id passed in is not kept.
      const stored = sessionShape({ ...session, id: globalThis.crypto.randomUUID() })
      requireUser(stored.userId, "The session")
      if (sessions.has(stored.sessionToken)) throw duplicate("A session with this token already exists")
      sessions.set(stored.sessionToken, stored)
      return sessionShape(stored)
    },
    async getSessionAndUser(sessionToken) {
      const session = sessions.get(sessionToken)
      const user = session && users.get(session.userId)
      return session && user ? { session: sessionShape(session), user: userShape(user) } : null
    },
    async updateSession(update) {
      const current = sessions.get(update.sessionToken)
      if (!current) return null
      const changes = Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined))
      const updated = sessionShape({ ...current, ...changes, id: current.id, sessionToken: current.sessionToken })
      if (updated.userId !== current.userId) requireUser(updated.userId, "The session")
      sessions.set(current.sessionToken, updated)
      return sessionShape(updated)
    },
    async deleteSession(sessionToken) {
      const session = sessions.get(sessionToken)
      if (!session) return null
      sessions.delete(sessionToken)
      return sessionShape(session)
    },
    async deleteUserSessions(userId) {
      let deleted = 0
      for (const [token, session] of sessions) {
        if (session.userId !== userId) continue
        sessions.delete(token)
        deleted++
      }
      return deleted
    },
    async createVerificationToken(token) {
      const stored = verificationTokenShape(token)
      const key = tokenKey(stored.identifier, stored.token)
      if (verificationTokens.has(key)) throw duplicate("This verification token already exists", { identifier: stored.identifier })
      verificationTokens.set(key, stored)
      return verificationTokenShape(stored)
    },
    async useVerificationToken({ identifier, token }) {
      // Read and delete with no await in between: single use even under concurrent calls.
      const key = tokenKey(identifier, token)
      const stored = verificationTokens.get(key)
      if (!stored) return null
      verificationTokens.delete(key)
      return stored
    },
    async getAuthenticator(credentialID) {
      const authenticator = authenticators.get(credentialID)
      return authenticator ? authenticatorShape(authenticator) : null
    },
    async createAuthenticator(authenticator) {
      const stored = authenticatorShape(authenticator)
      requireUser(stored.userId, "The authenticator")
      if (authenticators.has(stored.credentialID)) throw duplicate("An authenticator with this credential ID already exists")
      authenticators.set(stored.credentialID, stored)
      return authenticatorShape(stored)
    },
    async listAuthenticatorsByUserId(userId) {
      // Ordered by credential ID, as the SQL adapter returns them.
      return [...authenticators.values()]
        .filter((a) => a.userId === userId)
        .sort((a, b) => (a.credentialID < b.credentialID ? -1 : a.credentialID > b.credentialID ? 1 : 0))
        .map(authenticatorShape)
    },
    async updateAuthenticatorCounter(credentialID, newCounter) {
      const current = authenticators.get(credentialID)
      if (!current) throw new Error("Cannot update the counter of an unknown authenticator", { cause: { credentialID } })
      const updated = { ...current, counter: newCounter }
      authenticators.set(credentialID, updated)
      return authenticatorShape(updated)
    },
    async createFactor(factor) {
      const stored = factorShape(factor)
      requireUser(stored.userId, "The factor")
      if (factors.has(stored.id)) throw duplicate("A factor with this id already exists", { id: stored.id })
      factors.set(stored.id, stored)
      return factorShape(stored)
    },
    async listFactorsByUserId(userId) {
      // Oldest first, ties by id, as the SQL adapter orders them.
      return [...factors.values()]
        .filter((factor) => factor.userId === userId)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map(factorShape)
    },
    async renameFactor(id, name) {
      const current = factors.get(id)
      if (!current) return null
      const renamed = { ...current, name }
      factors.set(id, renamed)
      return factorShape(renamed)
    },
    async deleteFactor(id) {
      const factor = factors.get(id)
      if (!factor) return null
      factors.delete(id)
      return factorShape(factor)
    },
    async useFactorStep(id, step) {
      // Compare and set with no await in between: of concurrent calls with one step, one wins.
      const current = factors.get(id)
      if (!current || (current.lastUsedStep !== null && current.lastUsedStep >= step)) return false
      factors.set(id, { ...current, lastUsedStep: step })
      return true
    },
    async replaceBackupCodes(userId, codeHashes) {
      requireUser(userId, "The backup codes")
      backupCodes.set(userId, new Set(codeHashes))
    },
    async useBackupCode(userId, codeHash) {
      // Delete reports whether the code was there: single use even under concurrent calls.
      return backupCodes.get(userId)?.delete(codeHash) ?? false
    },
    async countBackupCodes(userId) {
      return backupCodes.get(userId)?.size ?? 0
    },
  }
}
