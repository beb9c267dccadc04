/**
 * The accounts of `authflow/client` (`listAccounts`, `switchAccount`, `signOut({ account })`,
 * `addAccount`) against a real `Auth()` with `multiSession` on.
 */
import { describe, expect, it, vi } from "vitest"
import * as client from "../../src/client/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Password from "../../src/providers/password.js"
import type { AuthConfig } from "../../src/types.js"
import { origin, recordingLogger } from "../helpers.js"
import { clientAgainstAuth, stubAuthFetch } from "./auth-fetch.js"

const password = "correct horse battery"

function world() {
  const config: AuthConfig = {
    secret: "client-accounts-secret-0123456789abcdef",
    trustHost: true,
    adapter: MemoryAdapter(),
    multiSession: true,
    logger: recordingLogger().logger,
    providers: [Password({ hashing: { scrypt: { ln: 10 } } })],
  }
  const navigated: string[] = []
  const location = { href: `${origin}/settings`, reload: vi.fn(), assign: (url: string) => void navigated.push(url) }
  const jar = stubAuthFetch(config, location)
  const post = async (path: string, form: Record<string, string>) =>
    fetch(`${origin}/auth${path}`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken: (await client.getCsrfToken())!, ...form }).toString() })
  return { jar, post, location }
}

clientAgainstAuth()

describe("accounts in authflow/client", () => {
  it("lists, switches, signs out one account and then all", async () => {
    const { post } = world()
    for (const email of ["a@example.test", "b@example.test"]) await post("/signup/password", { email, password })
    await post("/callback/password", { email: "a@example.test", password })
    await fetch(`${origin}/auth/signin?addAccount=1`)
    await post("/callback/password", { email: "b@example.test", password })
    const listed = await client.listAccounts()
    expect(listed.active?.user?.email).toBe("b@example.test")
    expect(listed.others.map((other) => other.user?.email)).toEqual(["a@example.test"])

    const session = await client.switchAccount(listed.others[0]!.id)
    expect(session?.user?.email).toBe("a@example.test")
    expect((await client.getSession())?.user?.email).toBe("a@example.test")
    await expect(client.switchAccount("nobody")).rejects.toMatchObject({ name: "ClientFetchError", status: 404 })

    const b = (await client.listAccounts()).others[0]!
    expect(await client.signOut({ account: b.id, redirect: false, redirectTo: "/settings" })).toEqual({ url: `${origin}/settings` })
    expect((await client.listAccounts()).others).toEqual([])
    await client.signOut({ redirect: false })
    expect(await client.listAccounts()).toEqual({ active: null, others: [] })
  })

  it("addAccount goes to the sign-in page that adds one", () => {
    const { location } = world()
    client.addAccount({ callbackUrl: "/inbox" })
    expect(location.href).toBe(`/auth/signin?addAccount=1&callbackUrl=%2Finbox`)
  })
})
