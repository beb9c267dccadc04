/**
 * The credentials provider: sign in with whatever the user types (a username and password, a
 * one-time code), checked by your own `authorize` function.
 *
 * @module
 */
import type { CredentialInput, CredentialsConfig } from "../types.js"

/** Options of {@link Credentials}: everything but `type` may be given; `authorize` is required. */
export type CredentialsOptions<C extends Record<string, CredentialInput> = Record<string, CredentialInput>> = Partial<
  Omit<CredentialsConfig<C>, "type" | "options">
> &
  Pick<CredentialsConfig<C>, "authorize">

/**
 * A credentials provider. `authorize` returns the user for valid credentials, or `null` (or throws a
 * `CredentialsSignin`) to refuse; the user is then sent back to the sign-in page with
 * `error=CredentialsSignin&code=<code>`. The built-in sign-in page shows one input per entry of
 * `credentials`.
 *
 * @example
 * ```ts
 * import Credentials from "authflow/providers/credentials"
 *
 * Credentials({
 *   credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
 *   async authorize({ username, password }) {
 *     const user = await db.findUser(String(username))
 *     return user && (await verifyPassword(user, String(password))) ? { id: user.id, name: user.name } : null
 *   },
 * })
 * ```
 */
export default function Credentials<C extends Record<string, CredentialInput> = Record<string, CredentialInput>>(
  options: CredentialsOptions<C>,
): CredentialsConfig<C> {
  return {
    id: "credentials",
    name: "Credentials",
    type: "credentials",
    credentials: {} as C,
    authorize: () => null,
    options: options as Record<string, unknown>,
  }
}
