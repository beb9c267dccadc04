/**
 * The back-channel logout machine on its own (authflow/machines): how it reads what jose said of a
 * token it refused, the claims it checks, the sessions the token names, and what its context keeps
 * for the next effect.
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { backchannelLogoutEvent, backchannelLogoutMachine, type BackchannelLogoutEvent, type BackchannelLogoutPolicy, type LogoutTokenClaims } from "../../src/machines/backchannel-logout.js"
import { jwksRefetchCooldown } from "../../src/core/oauth/jwks.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/backchannel-logout.js", async (load) => (await import("./load-per-test.js")).perTestExports("backchannel-logout", await load()))
loadMachinesPerTest("backchannel-logout")

const jwtSessions: BackchannelLogoutPolicy = { linksUsers: false, databaseSessions: false, deletesUserSessions: false }

function after(policy: BackchannelLogoutPolicy | undefined, ...events: BackchannelLogoutEvent[]) {
  const actor = createActor(backchannelLogoutMachine, { input: policy && { policy } }).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

const read: BackchannelLogoutEvent = { type: "request.read", providerType: "oidc", backchannelLogout: true, hasToken: true }
const discovered: BackchannelLogoutEvent = { type: "issuer.discovered", issuer: "https://op.test", jwksUri: "https://op.test/jwks" }
const logout = { [backchannelLogoutEvent]: {} }
const claims = (extra: LogoutTokenClaims): LogoutTokenClaims => ({ sub: "ada", jti: "j1", events: logout, ...extra })
const verified = (extra: LogoutTokenClaims = {}): BackchannelLogoutEvent => ({ type: "token.verified", claims: claims(extra) })

describe("back-channel logout machine", () => {
  it("without a policy, links no users and deletes no rows", () => {
    const loggedOut = after(undefined, read, discovered, verified(), { type: "jti.fresh" }, { type: "revoked" })
    expect([loggedOut.value, loggedOut.context.policy]).toEqual(["loggedOut", jwtSessions])
  })

  it("accepts a logout only for an OpenID Provider configured for it, with a token", () => {
    expect(after(jwtSessions, { ...read, providerType: "oauth" } as BackchannelLogoutEvent).value).toBe("providerNotAccepting")
    expect(after(jwtSessions, { ...read, backchannelLogout: false } as BackchannelLogoutEvent).value).toBe("providerNotAccepting")
    expect(after(jwtSessions, { ...read, hasToken: false } as BackchannelLogoutEvent).value).toBe("tokenMissing")
    expect(after(jwtSessions, read).value).toBe("discoveringIssuer")
  })

  it("keeps the issuer and its key set, and refuses an issuer that publishes none", () => {
    const verifying = after(jwtSessions, read, discovered)
    expect([verifying.value, verifying.context.issuer, verifying.context.jwksUri]).toEqual([{ verifyingToken: "withCachedKeys" }, "https://op.test", "https://op.test/jwks"])
    expect(after(jwtSessions, read, { type: "issuer.discovered", issuer: "https://op.test" }).value).toBe("jwksMissing")
    const down = new Error("down")
    const failed = after(jwtSessions, read, { type: "discovery.failed", error: down })
    expect([failed.value, failed.context.error]).toEqual(["discoveryFailed", down])
  })

  it("fetches the key set again for an unknown key only once the cached set is at least the cooldown old", () => {
    const unknownKey = (keysAge?: number): BackchannelLogoutEvent => ({ type: "verify.failed", code: "ERR_JWKS_NO_MATCHING_KEY", message: "no key", ...(keysAge !== undefined && { keysAge }) })
    expect(after(jwtSessions, read, discovered, unknownKey(jwksRefetchCooldown)).value).toEqual({ verifyingToken: "withFreshKeys" })
    expect(after(jwtSessions, read, discovered, unknownKey(jwksRefetchCooldown - 1)).value).toBe("signatureInvalid")
    expect(after(jwtSessions, read, discovered, unknownKey()).value).toBe("signatureInvalid")
    // Against the fresh keys, a key still unknown is a bad signature.
    const still = after(jwtSessions, read, discovered, unknownKey(jwksRefetchCooldown), unknownKey(0))
    expect([still.value, still.context.detail]).toEqual(["signatureInvalid", "no key"])
  })

  it("tells apart what jose refused: the issuer, the audience, another claim, the age, the expiry, the signature", () => {
    const failed = (code: string, claim?: string): BackchannelLogoutEvent => ({ type: "verify.failed", code, ...(claim && { claim }), message: `${code} ${claim ?? ""}` })
    const cases: [BackchannelLogoutEvent, string, string | undefined][] = [
      [failed("ERR_JWT_CLAIM_VALIDATION_FAILED", "iss"), "issuerMismatch", undefined],
      [failed("ERR_JWT_CLAIM_VALIDATION_FAILED", "aud"), "audienceMismatch", undefined],
      [failed("ERR_JWT_CLAIM_VALIDATION_FAILED", "iat"), "issuedAtInvalid", "ERR_JWT_CLAIM_VALIDATION_FAILED iat"],
      [failed("ERR_JWT_EXPIRED", "iat"), "issuedAtInvalid", undefined],
      [failed("ERR_JWT_EXPIRED", "exp"), "tokenExpired", undefined],
      [failed("ERR_JWS_SIGNATURE_VERIFICATION_FAILED"), "signatureInvalid", "ERR_JWS_SIGNATURE_VERIFICATION_FAILED "],
      [{ type: "verify.failed", message: "key set unreachable" }, "signatureInvalid", "key set unreachable"],
    ]
    for (const [event, state, detail] of cases) {
      const refused = after(jwtSessions, read, discovered, event)
      expect([refused.status, refused.value, refused.context.detail], JSON.stringify(event)).toEqual(["done", state, detail])
    }
  })

  it("checks the claims: the back-channel event as an object, no nonce, a sub or sid, a jti", () => {
    const cases: [LogoutTokenClaims, string][] = [
      [{ events: undefined }, "eventMissing"],
      [{ events: null }, "eventMissing"],
      [{ events: "logout" }, "eventMissing"],
      [{ events: { "http://other": {} } }, "eventMissing"],
      [{ events: { [backchannelLogoutEvent]: "yes" } }, "eventMissing"],
      [{ events: { [backchannelLogoutEvent]: [] } }, "eventMissing"],
      [{ nonce: "n" }, "nonceForbidden"],
      [{ nonce: undefined }, "nonceForbidden"],
      [{ sub: undefined }, "subjectMissing"],
      [{ sub: 7 }, "subjectMissing"],
      [{ sub: undefined, sid: "s1" }, "markingJti"],
      [{ jti: undefined }, "jtiMissing"],
      [{ jti: "" }, "jtiMissing"],
      [{ jti: 1 }, "jtiMissing"],
      [{}, "markingJti"],
    ]
    for (const [extra, state] of cases) {
      const checked = after(jwtSessions, read, discovered, verified(extra))
      expect([checked.value, checked.context.claims], JSON.stringify(extra)).toEqual([state, claims(extra)])
    }
  })

  it("ends the provider session the token names, then its subject, then (when the adapter links accounts) the linked user", () => {
    const fresh: BackchannelLogoutEvent = { type: "jti.fresh" }
    expect(after(jwtSessions, read, discovered, verified({ sid: "s1" }), fresh).value).toBe("revokingSession")
    expect(after(jwtSessions, read, discovered, verified({ sid: "s1" }), fresh, { type: "revoked" }).value).toBe("revokingSubject")
    expect(after(jwtSessions, read, discovered, verified({ sub: undefined, sid: "s1" }), fresh, { type: "revoked" }).value).toBe("loggedOut")
    expect(after(jwtSessions, read, discovered, verified(), fresh).value).toBe("revokingSubject")
    expect(after(jwtSessions, read, discovered, verified(), { type: "jti.seen" }).value).toBe("tokenReplayed")

    const links: BackchannelLogoutPolicy = { linksUsers: true, databaseSessions: true, deletesUserSessions: false }
    const lookingUp = after(links, read, discovered, verified(), fresh, { type: "revoked" })
    expect(lookingUp.value).toBe("lookingUpUser")
    const found = after(links, read, discovered, verified(), fresh, { type: "revoked" }, { type: "user.found", userId: "u1" })
    expect([found.value, found.context.userId]).toEqual(["revokingUser", "u1"])
    expect(after(links, read, discovered, verified(), fresh, { type: "revoked" }, { type: "user.none" }).value).toBe("loggedOut")
    // The rows are deleted at once only when sessions are rows and the adapter can delete a user's.
    expect(after(links, read, discovered, verified(), fresh, { type: "revoked" }, { type: "user.found", userId: "u1" }, { type: "revoked" }).value).toBe("loggedOut")
    const deletes = { ...links, deletesUserSessions: true }
    expect(after(deletes, read, discovered, verified(), fresh, { type: "revoked" }, { type: "user.found", userId: "u1" }, { type: "revoked" }).value).toBe("deletingSessions")
    const jwtDeletes = { ...deletes, databaseSessions: false }
    expect(after(jwtDeletes, read, discovered, verified(), fresh, { type: "revoked" }, { type: "user.found", userId: "u1" }, { type: "revoked" }).value).toBe("loggedOut")
  })

  it("keeps what failed on the way", () => {
    const down = new Error("down")
    const links: BackchannelLogoutPolicy = { linksUsers: true, databaseSessions: true, deletesUserSessions: true }
    const start = [read, discovered, verified({ sid: "s1" })]
    const failures: [BackchannelLogoutEvent[], string][] = [
      [[{ type: "jti.failed", error: down }], "markingJti"],
      [[{ type: "jti.fresh" }, { type: "revoke.failed", error: down }], "revokingSession"],
      [[{ type: "jti.fresh" }, { type: "revoked" }, { type: "revoke.failed", error: down }], "revokingSubject"],
      [[{ type: "jti.fresh" }, { type: "revoked" }, { type: "revoked" }, { type: "lookup.failed", error: down }], "lookingUpUser"],
      [[{ type: "jti.fresh" }, { type: "revoked" }, { type: "revoked" }, { type: "user.found", userId: "u1" }, { type: "revoke.failed", error: down }], "revokingUser"],
      [[{ type: "jti.fresh" }, { type: "revoked" }, { type: "revoked" }, { type: "user.found", userId: "u1" }, { type: "revoked" }, { type: "delete.failed", error: down }], "deletingSessions"],
    ]
    for (const [events, where] of failures) {
      const failed = after(links, ...start, ...events)
      expect([failed.status, failed.value, failed.context.error], where).toEqual(["done", "logoutFailed", down])
    }
    const deleted = after(links, ...start, { type: "jti.fresh" }, { type: "revoked" }, { type: "revoked" }, { type: "user.found", userId: "u1" }, { type: "revoked" }, { type: "sessions.deleted" })
    expect([deleted.status, deleted.value, deleted.context.error]).toEqual(["done", "loggedOut", undefined])
  })
})
