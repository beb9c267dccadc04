import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Password from "../../src/providers/password.js"
import { CookieJar, csrfTokenFor, origin, send } from "../helpers.js"
import type { AuthConfig } from "../../src/types.js"

/**
 * The cookies of a browser holding 1, 3 and 5 accounts (`multiSession`, HTTPS), with JWT and
 * database sessions: every single cookie stays within the 4096 bytes browsers keep (name, value
 * and attributes), and the numbers are printed (docs/guides/multi-session.md quotes them).
 */

const secret = "multi-session-size-secret-0123456789abcdef"
const password = "correct horse battery"

async function browserWith(strategy: "jwt" | "database", accounts: number) {
  const config: AuthConfig = { secret, trustHost: true, adapter: MemoryAdapter(), session: { strategy }, multiSession: true, providers: [Password({ hashing: { scrypt: { ln: 10 } } })] }
  const jar = new CookieJar()
  const setCookies: string[] = []
  for (let n = 0; n < accounts; n++) {
    // Realistic names and addresses, a bit longer than most.
    const email = `account.number.${n}.with-a-longer-name@example-company.test`
    const signUpJar = new CookieJar()
    await send(config, signUpJar, "/signup/password", { form: { csrfToken: await csrfTokenFor(config, signUpJar), email, password, name: `Account Number ${n} Longname` } })
    if (n > 0) await send(config, jar, "/signin?addAccount=1")
    const response = await send(config, jar, "/callback/password", { form: { csrfToken: await csrfTokenFor(config, jar), email, password } })
    setCookies.push(...response.headers.getSetCookie())
  }
  // The listing re-issues the cookies (sliding expiry): measured too.
  const listed = await send(config, jar, "/sessions")
  setCookies.push(...listed.headers.getSetCookie())
  expect(((await listed.json()) as { others: unknown[] }).others).toHaveLength(accounts - 1)
  return { jar, setCookies }
}

const bytes = (text: string) => new TextEncoder().encode(text).length

describe("multi-session cookie sizes (HTTPS)", () => {
  const rows: string[] = []
  for (const strategy of ["jwt", "database"] as const) {
    for (const accounts of [1, 3, 5]) {
      it(`${strategy}, ${accounts} account(s): every cookie ≤ 4096 bytes`, async () => {
        const { jar, setCookies } = await browserWith(strategy, accounts)
        const largestSetCookie = Math.max(...setCookies.map(bytes))
        const pairs = [...jar.cookies].map(([name, value]) => `${name}=${value}`)
        for (const header of setCookies) expect(bytes(header), header.slice(0, 60)).toBeLessThanOrEqual(4096)
        for (const pair of pairs) expect(bytes(pair)).toBeLessThanOrEqual(4096)
        const session = pairs.filter((pair) => pair.startsWith("__Secure-authjs.session-token")).map(bytes)
        const others = pairs.filter((pair) => pair.startsWith("__Secure-authflow.other-sessions")).map(bytes)
        rows.push(`${strategy.padEnd(8)} ${accounts} account(s): session cookie ${session.join("+") || 0} B, others cookie ${others.join("+") || 0} B (${others.length} chunk(s)), largest Set-Cookie ${largestSetCookie} B, Cookie header ${bytes(jar.header())} B`)
        expect(origin.startsWith("https:")).toBe(true)
      })
    }
  }
  it("prints the numbers", () => {
    console.log(["multi-session cookie sizes:", ...rows].join("\n"))
    expect(rows).toHaveLength(6)
  })
})
