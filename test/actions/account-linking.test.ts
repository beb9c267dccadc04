/**
 * Account linking, called directly: what `findAccount` and `findEmailOwner` report for each state
 * of the database and the browser (they decide nothing), and what `persistAccount` writes for each
 * plan the machine can choose. The machine's choice itself is tested in test/model/oauth.test.ts.
 */
import { describe, expect, it, vi } from "vitest"
import { findAccount, findEmailOwner, persistAccount, signedInUser } from "../../src/actions/account-linking.js"
import { defaultCookies } from "../../src/core/cookies/defaults.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { AdapterError } from "../../src/errors.js"
import { decode, encode } from "../../src/jwt.js"
import type { AuthOptions } from "../../src/core/options.js"
import type { Adapter, AdapterUser } from "../../src/adapters.js"
import type { Account, AuthConfig, Profile, User } from "../../src/types.js"
import { cookieNames } from "../helpers.js"

const secret = "linking-secret"
const cookies = defaultCookies(true)
const ada: AdapterUser = { id: "u-ada", name: "Ada", email: "ada@example.test", emailVerified: null }
const bob: AdapterUser = { id: "u-bob", name: "Bob", email: "bob@example.test", emailVerified: null }
const github = { provider: "github", providerAccountId: "42" }

interface Setup {
  adapter?: Adapter | undefined
  strategy?: "jwt" | "database"
  /** The session cookie's value, as the request carries it. */
  session?: string
  config?: Partial<AuthConfig>
}

function optionsFor({ adapter, strategy = "jwt", session, config = {} }: Setup): AuthOptions {
  const requestCookies: Record<string, string> = {}
  if (session !== undefined) requestCookies[cookies.sessionToken.name] = session
  const logger = { error: vi.fn(), warn: vi.fn(), debug: vi.fn() }
  return {
    config: { providers: [], secret, ...config },
    request: { cookies: requestCookies },
    adapter,
    session: { strategy },
    jwt: { secret, maxAge: 3600, encode, decode },
    cookies,
    logger,
  } as unknown as AuthOptions
}

async function jwtFor(sub: string | undefined): Promise<string> {
  return encode({ token: { name: "x", ...(sub !== undefined && { sub }) }, secret, salt: cookies.sessionToken.name })
}

async function adapterWith(...users: AdapterUser[]) {
  const adapter = MemoryAdapter()
  for (const user of users) await adapter.createUser(user)
  return adapter
}

describe("signedInUser", () => {
  it("reads the JWT's subject through the adapter", async () => {
    const adapter = await adapterWith(ada)
    expect(await signedInUser(optionsFor({ adapter, session: await jwtFor(ada.id) }))).toMatchObject({ id: ada.id })
  })

  it("is nobody without an adapter, a cookie, a subject, a user, or with an unreadable cookie", async () => {
    const adapter = await adapterWith(ada)
    const token = await jwtFor(ada.id)
    expect(await signedInUser(optionsFor({ session: token }))).toBeNull()
    expect(await signedInUser(optionsFor({ adapter }))).toBeNull()
    expect(await signedInUser(optionsFor({ adapter, session: "" }))).toBeNull()
    expect(await signedInUser(optionsFor({ adapter, session: await jwtFor(undefined) }))).toBeNull()
    expect(await signedInUser(optionsFor({ adapter, session: await jwtFor("u-nobody") }))).toBeNull()
    expect(await signedInUser(optionsFor({ adapter, session: "not-a-jwe" }))).toBeNull()
    expect(await signedInUser(optionsFor({ adapter: { ...adapter, getUser: undefined }, session: token }))).toBeNull()
  })

  it("decodes the JWT with the session cookie's name as salt", async () => {
    const adapter = await adapterWith(ada)
    const otherSalt = await encode({ token: { sub: ada.id }, secret, salt: cookieNames.http.sessionToken })
    expect(await signedInUser(optionsFor({ adapter, session: otherSalt }))).toBeNull()
  })

  it("reads the database session's user with the database strategy", async () => {
    const adapter = await adapterWith(ada)
    await adapter.createSession({ sessionToken: "s-1", userId: ada.id, expires: new Date(Date.now() + 3_600_000) })
    expect(await signedInUser(optionsFor({ adapter, strategy: "database", session: "s-1" }))).toMatchObject({ id: ada.id })
    expect(await signedInUser(optionsFor({ adapter, strategy: "database", session: "s-unknown" }))).toBeNull()
    // A JWT is not a session token: the database strategy never decodes it.
    expect(await signedInUser(optionsFor({ adapter, strategy: "database", session: await jwtFor(ada.id) }))).toBeNull()
    expect(await signedInUser(optionsFor({ adapter: { ...adapter, getSessionAndUser: undefined }, strategy: "database", session: "s-1" }))).toBeNull()
  })

  it("asks the adapter only when there is a session to look up", async () => {
    const adapter = await adapterWith(ada)
    const getUser = vi.fn(adapter.getUser)
    const getSessionAndUser = vi.fn(adapter.getSessionAndUser)
    const spied = { ...adapter, getUser, getSessionAndUser }
    expect(await signedInUser(optionsFor({ adapter: spied }))).toBeNull()
    expect(await signedInUser(optionsFor({ adapter: spied, session: await jwtFor(undefined) }))).toBeNull()
    expect(await signedInUser(optionsFor({ adapter: spied, strategy: "database" }))).toBeNull()
    expect(getUser).not.toHaveBeenCalled()
    expect(getSessionAndUser).not.toHaveBeenCalled()
    expect(await signedInUser(optionsFor({ adapter: spied, session: await jwtFor(ada.id) }))).toMatchObject({ id: ada.id })
    expect(getUser).toHaveBeenCalledExactlyOnceWith(ada.id)
  })

  it("counts an adapter failure as nobody signed in", async () => {
    const adapter = await adapterWith(ada)
    const failing = { ...adapter, getUser: () => Promise.reject(new Error("down")) }
    expect(await signedInUser(optionsFor({ adapter: failing, session: await jwtFor(ada.id) }))).toBeNull()
  })
})

describe("findAccount", () => {
  it("refuses to look anything up without an adapter", async () => {
    await expect(findAccount(optionsFor({}), github)).rejects.toThrow(TypeError)
    await expect(findEmailOwner(optionsFor({}), ada.email)).rejects.toThrow(TypeError)
  })

  it("a linked account, nobody signed in: its user", async () => {
    const adapter = await adapterWith(ada)
    await adapter.linkAccount({ ...github, type: "oauth", userId: ada.id })
    expect(await findAccount(optionsFor({ adapter }), github)).toEqual({ type: "account.linked", user: expect.objectContaining({ id: ada.id }) })
  })

  it("a linked account, its own user signed in: its user, and who is signed in", async () => {
    const adapter = await adapterWith(ada)
    await adapter.linkAccount({ ...github, type: "oauth", userId: ada.id })
    expect(await findAccount(optionsFor({ adapter, session: await jwtFor(ada.id) }), github)).toEqual({ type: "account.linked", user: expect.objectContaining({ id: ada.id }), signedInAs: ada.id })
  })

  it("a linked account while another user is signed in: both, for the machine to compare", async () => {
    const adapter = await adapterWith(ada, bob)
    await adapter.linkAccount({ ...github, type: "oauth", userId: ada.id })
    expect(await findAccount(optionsFor({ adapter, session: await jwtFor(bob.id) }), github)).toEqual({ type: "account.linked", user: expect.objectContaining({ id: ada.id }), signedInAs: bob.id })
  })

  it("looks the account up by provider and provider account id", async () => {
    const adapter = await adapterWith(ada)
    await adapter.linkAccount({ ...github, type: "oauth", userId: ada.id })
    expect(await findAccount(optionsFor({ adapter }), { provider: "gitlab", providerAccountId: "42" })).toEqual({ type: "account.new" })
    expect(await findAccount(optionsFor({ adapter }), { provider: "github", providerAccountId: "43" })).toEqual({ type: "account.new" })
  })

  it("a new account while a user is signed in: new, with that user", async () => {
    const adapter = await adapterWith(ada, bob)
    expect(await findAccount(optionsFor({ adapter, session: await jwtFor(bob.id) }), github)).toEqual({ type: "account.new", signedIn: expect.objectContaining({ id: bob.id }) })
  })

  it("a failing database is not mistaken for a signed-out browser: the lookup fails instead", async () => {
    const adapter = await adapterWith(ada)
    const failure = new AdapterError(new Error("database down"))
    const failing = { ...adapter, getUser: () => Promise.reject(failure) }
    const options = optionsFor({ adapter: failing, session: await jwtFor(ada.id) })
    await expect(findAccount(options, github)).rejects.toBe(failure)
    expect(await signedInUser(options)).toBeNull()
    expect(await signedInUser(options, { adapterFailures: "throw" }).catch((e: unknown) => e)).toBe(failure)
  })

  it("without getUserByAccount no account counts as linked", async () => {
    const adapter = await adapterWith(ada)
    await adapter.linkAccount({ ...github, type: "oauth", userId: ada.id })
    expect(await findAccount(optionsFor({ adapter: { ...adapter, getUserByAccount: undefined } }), github)).toEqual({ type: "account.new" })
  })
})

describe("findEmailOwner", () => {
  it("an email a user owns: that user", async () => {
    const adapter = await adapterWith(ada)
    expect(await findEmailOwner(optionsFor({ adapter }), ada.email)).toEqual({ type: "emailOwner.found", user: expect.objectContaining({ id: ada.id }) })
  })

  it("no email, an unknown one, or no getUserByEmail: nobody", async () => {
    const adapter = await adapterWith(ada)
    const getUserByEmail = vi.fn(adapter.getUserByEmail)
    for (const email of [null, undefined, ""]) {
      expect(await findEmailOwner(optionsFor({ adapter: { ...adapter, getUserByEmail } }), email)).toEqual({ type: "emailOwner.none" })
    }
    expect(getUserByEmail).not.toHaveBeenCalled()
    expect(await findEmailOwner(optionsFor({ adapter }), "eve@example.test")).toEqual({ type: "emailOwner.none" })
    expect(await findEmailOwner(optionsFor({ adapter: { ...adapter, getUserByEmail: undefined } }), ada.email)).toEqual({ type: "emailOwner.none" })
  })
})

describe("persistAccount", () => {
  const profile: Profile = { sub: "42", email: "new@example.test" }
  const account: Account = { provider: "github", providerAccountId: "42", type: "oauth" }
  const stored: Partial<Account> = { access_token: "at", provider: "forged", providerAccountId: "forged", type: "email", userId: "forged" } as Partial<Account>

  async function setup(config: Partial<AuthConfig> = {}) {
    const adapter = await adapterWith(ada)
    const linkAccount = vi.fn(adapter.linkAccount)
    const deleteUser = vi.fn(adapter.deleteUser)
    const events = { linkAccount: vi.fn(), createUser: vi.fn() }
    const options = optionsFor({ adapter: { ...adapter, linkAccount, deleteUser }, config: { events, ...config } })
    return { adapter, linkAccount, deleteUser, events, options }
  }

  it("without a database: the provider's user, not new", async () => {
    const user: User = { id: "p-1", name: "P" }
    expect(await persistAccount(optionsFor({}), { plan: "noDatabase", user, account, profile, stored: {} })).toEqual({ user, isNewUser: false })
  })

  it("signs in the linked user and writes nothing", async () => {
    const { options, linkAccount, events } = await setup()
    const result = await persistAccount(options, { plan: "signInLinkedUser", linkTo: bob, user: ada, account, profile, stored })
    expect(result).toEqual({ user: ada, isNewUser: false })
    expect(linkAccount).not.toHaveBeenCalled()
    expect(events.linkAccount).not.toHaveBeenCalled()
  })

  for (const plan of ["linkToSignedInUser", "linkToEmailOwner"] as const) {
    it(`${plan}: links the account to that user, with the provider's ids over the stored ones, and fires linkAccount`, async () => {
      const { options, linkAccount, events, adapter } = await setup()
      const result = await persistAccount(options, { plan, linkTo: ada, user: { id: "x" }, account, profile, stored })
      expect(result).toEqual({ user: ada, isNewUser: false })
      const linked = { access_token: "at", provider: "github", providerAccountId: "42", type: "oauth", userId: ada.id }
      expect(linkAccount).toHaveBeenCalledExactlyOnceWith(linked)
      expect(events.linkAccount).toHaveBeenCalledExactlyOnceWith({ user: ada, account: linked, profile })
      expect(await adapter.getUserByAccount(github)).toMatchObject({ id: ada.id })
    })

    it(`${plan} without a user to link to: refused, nothing written`, async () => {
      const { options, linkAccount } = await setup()
      await expect(persistAccount(options, { plan, user: { id: "x" }, account, profile, stored })).rejects.toThrow(`The plan ${plan} names no user to link the account to`)
      expect(linkAccount).not.toHaveBeenCalled()
    })
  }

  it("createUser: creates the user (unverified, with an id), links the account, fires linkAccount then createUser", async () => {
    const { options, adapter, events, linkAccount } = await setup()
    const order: string[] = []
    events.linkAccount.mockImplementation(() => void order.push("linkAccount"))
    events.createUser.mockImplementation(() => void order.push("createUser"))
    const user: User = { name: "New", email: "new@example.test", image: "https://img.test/new.png" }
    const result = await persistAccount(options, { plan: "createUser", user, account, profile, stored: {} })
    expect(result.isNewUser).toBe(true)
    expect(result.user).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: "New", email: "new@example.test", image: "https://img.test/new.png", emailVerified: null })
    expect(await adapter.getUser(result.user.id!)).toEqual(result.user)
    expect(linkAccount).toHaveBeenCalledExactlyOnceWith({ provider: "github", providerAccountId: "42", type: "oauth", userId: result.user.id })
    expect(events.createUser).toHaveBeenCalledExactlyOnceWith({ user: result.user })
    expect(order).toEqual(["linkAccount", "createUser"])
  })

  it("createUser keeps the provider's user id and gives a user without an email an empty one", async () => {
    const { options } = await setup()
    const result = await persistAccount(options, { plan: "createUser", user: { id: "given-id", name: "No mail", emailVerified: new Date() } as User, account, profile, stored: {} })
    expect(result.user).toMatchObject({ id: "given-id", email: "", emailVerified: null })
  })

  it("createUser reports the new user's id before writing it, and leaves undoing a failed link to the machine", async () => {
    const { options, adapter, deleteUser, events } = await setup()
    const failure = new Error("link failed")
    const failing = { ...options, adapter: { ...options.adapter!, linkAccount: () => Promise.reject(failure) } }
    const creating = vi.fn()
    await expect(persistAccount(failing, { plan: "createUser", user: { id: "doomed", email: "d@example.test" }, account, profile, stored: {} }, creating)).rejects.toBe(failure)
    expect(creating).toHaveBeenCalledExactlyOnceWith("doomed")
    // The OAuth machine deletes it (undoingCreatedUser), by the id it was told.
    expect(deleteUser).not.toHaveBeenCalled()
    expect(await adapter.getUser("doomed")).toMatchObject({ id: "doomed" })
    expect(events.createUser).not.toHaveBeenCalled()
  })

  it("createUser reports a generated id, the one the user is created with", async () => {
    const { options } = await setup()
    const creating = vi.fn()
    const result = await persistAccount(options, { plan: "createUser", user: { email: "g@example.test" }, account, profile, stored: {} }, creating)
    expect(creating).toHaveBeenCalledExactlyOnceWith(result.user.id)
  })
})
