/**
 * The demo's auth configuration, on its own: SQLite through the Kysely adapter (database
 * sessions), an OpenID Provider, email links handed to a callback, the credentials ada /
 * lovelace and grace / hopper, and passkeys (experimental WebAuthn: register one with an email on
 * the sign-in page, or add one once signed in). `server.ts` runs it; `authflow test demo/auth.config.ts` tests it
 * (the default export: the configuration and what only the demo knows, its fixtures).
 */
import { randomBytes, timingSafeEqual } from "node:crypto"
import Credentials from "../src/providers/credentials.js"
import Passkey from "../src/providers/passkey.js"
import { KyselyAdapter, createSqliteDatabase, migrateToLatest } from "../src/adapters/kysely/index.js"
import type { Adapter } from "../src/adapters.js"
import type { AuthflowFixtures } from "../src/testing/index.js"
import type { AuthConfig } from "../src/types.js"

/** The demo accounts: credentials, and the users they sign in as (seeded into the database). */
export const demoAccounts = [
  { id: "demo-ada", username: "ada", password: "lovelace", name: "Ada Lovelace", email: "ada@example.test" },
  { id: "demo-grace", username: "grace", password: "hopper", name: "Grace Hopper", email: "grace@example.test" },
]

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

async function seedAccounts(adapter: Adapter): Promise<void> {
  for (const account of demoAccounts) {
    if (await adapter.getUser!(account.id)) continue
    await adapter.createUser!({ id: account.id, name: account.name, email: account.email, emailVerified: null })
  }
}

/**
 * The demo's database: a SQLite file (or `:memory:`), migrated, with the demo accounts' users.
 *
 * @example
 * ```ts
 * const { adapter, close } = await demoDatabase(":memory:")
 * ```
 */
export async function demoDatabase(file: string): Promise<{ adapter: Adapter; close(): Promise<void> }> {
  const db = createSqliteDatabase(file)
  await migrateToLatest(db)
  const adapter = KyselyAdapter(db)
  await seedAccounts(adapter)
  return { adapter, close: () => db.destroy() }
}

/** What the demo's configuration is built from. */
export interface DemoAuthOptions {
  adapter: Adapter
  /** The OpenID Provider the demo signs in with, and the demo's client secret there. */
  issuer: string
  clientSecret: string
  /** Where sign-in links go. */
  onSignInLink: (email: string, url: string) => void
  secret?: string
  inspect?: AuthConfig["inspect"]
}

/**
 * The demo's auth configuration.
 *
 * @example
 * ```ts
 * const config = demoAuthConfig({ adapter, issuer, clientSecret, onSignInLink: console.log })
 * ```
 */
export function demoAuthConfig(options: DemoAuthOptions): AuthConfig {
  return {
    secret: options.secret ?? process.env.AUTH_SECRET ?? randomBytes(32).toString("base64url"),
    trustHost: true,
    adapter: options.adapter,
    providers: [
      { id: "demo-idp", name: "Demo OpenID Provider", type: "oidc", issuer: options.issuer, clientId: "authflow-demo", clientSecret: options.clientSecret },
      {
        id: "email",
        name: "Email",
        type: "email",
        sendVerificationRequest: ({ identifier, url }: { identifier: string; url: string }) => options.onSignInLink(identifier, url),
      },
      Credentials({
        name: "Demo account",
        credentials: {
          username: { label: "Username", autocomplete: "username", required: true },
          password: { label: "Password", type: "password", autocomplete: "current-password", required: true },
        },
        authorize({ username, password }) {
          const account = demoAccounts.find((candidate) => candidate.username === String(username ?? ""))
          if (!account || !sameText(account.password, String(password ?? ""))) return null
          return { id: account.id, name: account.name, email: account.email }
        },
      }),
      // Its email field is labelled apart from the email provider's: a new address registers a passkey, a known one signs in with it.
      Passkey({ formFields: { email: { label: "Email for your passkey", required: true, autocomplete: "username webauthn" } } }),
    ],
    theme: { brandColor: "#4f46e5" },
    // Passkeys are experimental: enabling them prints one warning.
    experimental: { enableWebAuthn: true },
    ...(options.inspect && { inspect: options.inspect }),
  }
}

/** What only the demo knows: which credentials `authorize` accepts, its users, a fresh database per path. */
export const demoFixtures: AuthflowFixtures = {
  credentials: {
    credentials: { accepted: { username: "ada", password: "lovelace" }, rejected: { username: "ada", password: "not-lovelace" } },
  },
  users: { existing: { email: "grace@example.test", name: "Grace Hopper" }, newEmail: "newcomer@example.test" },
  freshAdapter: async () => (await demoDatabase(":memory:")).adapter,
}

/** The demo's configuration as `authflow test` runs it: the outside world (the OpenID Provider, mail) is replaced there. */
export default async function demoUnderTest() {
  const { adapter } = await demoDatabase(":memory:")
  const config = demoAuthConfig({ adapter, issuer: "https://demo-idp.invalid", clientSecret: "demo-client-secret", secret: "authflow-demo-test-secret", onSignInLink: () => {} })
  return { config, fixtures: demoFixtures }
}
