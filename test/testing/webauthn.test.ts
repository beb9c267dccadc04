/**
 * The kit on a configuration with a passkey provider: it walks the WebAuthn machine's registration
 * and authentication paths through Auth() with its software authenticator, names each refusal,
 * covers every transition this configuration can reach, and says why it cannot reach the others.
 */
import { describe, expect, it } from "vitest"
import { authflowModelTests, formatCoverage, type CaseResult } from "../../src/testing/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Passkey from "../../src/providers/passkey.js"
import WebAuthn from "../../src/providers/webauthn.js"
import type { AuthConfig } from "../../src/types.js"

const config: AuthConfig = {
  secret: "webauthn-kit-test-secret-0123456789",
  adapter: MemoryAdapter(),
  providers: [Passkey()],
  experimental: { enableWebAuthn: true },
  logger: { warn: () => {} },
}

describe("authflow/testing with a Passkey provider and database sessions", async () => {
  const suite = await authflowModelTests(config, { freshAdapter: () => MemoryAdapter(), users: { existing: { email: "ada@example.test", name: "Ada" }, newEmail: "new@example.test" } })
  const results = new Map<string, CaseResult>()
  for (const testCase of suite.cases) if (testCase.machine === "webauthn") results.set(testCase.name, await testCase.run())
  const outcome = (name: string) => {
    const result = results.get(`webauthn passkey: ${name}`)
    if (!result) throw new Error(`no path named "webauthn passkey: ${name}"`)
    return result.outcome
  }

  it("registers a passkey for a new email and for the signed-in user, and signs in with one", () => {
    expect(outcome("action=register, new email")).toMatchObject({ final: "signedIn", session: { user: { email: "new@example.test" } }, adapterWrites: { createUser: 1, linkAccount: 1, createAuthenticator: 1, createSession: 1 } })
    expect(outcome("action=register, signed in")).toMatchObject({ final: "signedIn", session: { user: { email: "ada@example.test" } } })
    for (const name of ["action=authenticate, no email", "no action, known email", "no action, no email"]) {
      expect(outcome(name), name).toMatchObject({ final: "signedIn", session: { user: { email: "ada@example.test" } }, adapterWrites: { updateAuthenticatorCounter: 1, createSession: 1 } })
    }
    expect(outcome("action=register, new email").responses.map((response) => response.request)).toEqual(["GET /webauthn-options/passkey", "POST /callback/passkey"])
  })

  it("names each refusal of the answer, for both ceremonies", () => {
    const refusals: [string, string][] = [
      ["wrong ceremony type", "wrongCeremony"],
      ["wrong challenge", "challengeMismatch"],
      ["wrong origin", "wrongOrigin"],
      ["wrong RP ID", "wrongRpId"],
      ["user not present", "userVerificationMissing"],
      ["user not verified", "userVerificationMissing"],
      ["signed in as another user", "accountNotLinked"],
      ["challenge.replayed", "challengeReplayed"],
      ["answer posted for the other ceremony", "wrongCeremony"],
      ["response.malformed", "responseMalformed"],
      ["csrf.invalid", "csrfRejected"],
    ]
    for (const [condition, final] of refusals) {
      expect(outcome(`action=register, new email, ${condition}`).final, condition).toBe(final)
      expect(outcome(`action=authenticate, no email, ${condition}`).final, condition).toBe(final)
    }
    expect(outcome("action=register, signed in, attestation refused").final).toBe("badSignature")
    expect(outcome("action=register, signed in, credential taken").final).toBe("accountNotLinked")
    expect(outcome("action=authenticate, no email, bad signature").final).toBe("badSignature")
    expect(outcome("action=authenticate, no email, counter regressed").final).toBe("counterRegressed")
    expect(outcome("action=authenticate, no email, credential.unknown").final).toBe("unknownCredential")
    expect(outcome("action=authenticate, no email, counter.failed").final).toBe("persistFailed")
    expect(outcome("action=register, new email, persist.failed").final).toBe("persistFailed")
    // The database behind the default replay store is down: refused as a failed write, not as a replay.
    expect(outcome("action=authenticate, no email, replay store failed")).toMatchObject({ final: "persistFailed", errors: ["AdapterError"], session: null })
    expect(outcome("action=register, known email").final).toBe("invalidRequest")
    expect(outcome("no action, signed in").final).toBe("invalidRequest")
    expect(outcome("action=delete").final).toBe("invalidAction")
    expect(outcome("no action, lookup.failed").final).toBe("optionsFailed")
    expect(outcome("action=authenticate, no email, options.failed").final).toBe("optionsFailed")
    // A replayed answer signs nobody in: the first post, unrecorded, used the challenge.
    expect(outcome("action=authenticate, no email, challenge.replayed").session?.user ?? null).toBeNull()
  })

  it("covers every WebAuthn transition this configuration can reach, and says why it cannot reach the rest", () => {
    const coverage = suite.coverage().find((entry) => entry.machine === "webauthn")!
    expect(coverage.missing, formatCoverage([coverage], suite.unreachable)).toEqual([])
    expect(coverage.covered).toBe(coverage.reachable)
    expect(coverage.reachable).toBeGreaterThan(45)
    const why = new Map(suite.unreachable.map((entry) => [entry.name, entry.why]))
    expect(why.get("webauthn passkey: action=register, new email, signIn.denied")).toBe("no callbacks.signIn: every sign-in is allowed")
    expect(why.get("webauthn passkey: action=register, new email (jwt sessions)")).toBe("sessions are database sessions: no JWT is encoded")
    expect(suite.unreachable.some((entry) => entry.name === "webauthn")).toBe(false)
  })
})

describe("authflow/testing with a WebAuthn provider that does not require user verification", async () => {
  const lenient: AuthConfig = {
    ...config,
    providers: [WebAuthn({ verifyAuthenticationOptions: { requireUserVerification: false }, verifyRegistrationOptions: { requireUserVerification: false } })],
  }
  const suite = await authflowModelTests(lenient, { freshAdapter: () => MemoryAdapter() })

  it("does not walk the user-verification refusal, and says why", () => {
    expect(suite.cases.some((testCase) => testCase.name.includes("user not verified"))).toBe(false)
    expect(suite.unreachable.find((entry) => entry.name.includes("user not verified"))?.why).toBe("providers.webauthn does not require user verification: an unverified user is accepted")
  })

  it("without a WebAuthn provider, the machine is listed as unused", async () => {
    const none = await authflowModelTests({ secret: "x".repeat(32), providers: [] })
    expect(none.unreachable).toContainEqual({ name: "webauthn", why: "no WebAuthn or Passkey provider" })
  })
})
