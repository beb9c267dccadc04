import { execFileSync, spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../..", import.meta.url))
const cli = fileURLToPath(new URL("../../src/cli.ts", import.meta.url))

function authflow(...args: string[]) {
  const result = spawnSync(process.execPath, ["--import", "tsx", cli, ...args], { cwd: root, encoding: "utf8", timeout: 30_000 })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe("authflow machines", () => {
  it("--format json prints every machine as a serialisable description", () => {
    const { status, stdout } = authflow("machines", "--format", "json")
    expect(status).toBe(0)
    const { machines } = JSON.parse(stdout) as { machines: { id: string; initial: string; states: { path: string; type: string; effect?: string; transitions: { event: string; guard?: string; targets: string[] }[] }[] }[] }
    expect(machines.map((machine) => machine.id)).toEqual(["credentials-sign-in", "oauth", "email-sign-in", "email-verification", "email-code", "webauthn", "sign-out", "token-refresh", "backchannel-logout", "second-factor", "factors", "step-up", "password-sign-up", "password-verify-email", "password-verify-code", "password-change-email", "password-confirm-email", "password-sign-in", "password-reset-request", "password-reset", "password-reset-code", "password-change", "multi-session"])
    // One OAuth machine over both requests: the sign-in's states, the sealed wait, the callback's checks.
    const oauth = machines[1]!
    expect(oauth.initial).toBe("validatingInput")
    const paths = oauth.states.map((state) => state.path)
    for (const path of ["validatingInput", "discovering", "authorizing", "awaitingCallback", "checkingResponse", "exchangingCode", "validatingTokens", "fetchingProfile", "resolvingAccount", "checkingSignIn", "signedIn"]) expect(paths).toContain(path)
    expect(oauth.states.find((state) => state.path === "awaitingCallback")).toEqual({ path: "awaitingCallback", key: "awaitingCallback", type: "atomic", states: [], transitions: [{ event: "callback.received", label: "callback.received", targets: ["claimingFlow"], actions: ["xstate.assign"] }] })
    expect(oauth.states.find((state) => state.path === "discovering")!.effect).toBe("discover")
    expect(oauth.states.find((state) => state.path === "awaitingCallback")!.effect).toBeUndefined()
    const finals = oauth.states.filter((state) => state.type === "final").map((state) => state.path)
    expect(finals).toEqual(expect.arrayContaining(["signedIn", "csrfRejected", "flowReplayed", "claimFailed", "flowNotResumed", "signInFailed", "providerRejected", "responseRejected", "tokensRejected", "idTokenRejected", "accountNotLinked"]))
    expect(finals).not.toContain("handedOff")
    // Guarded transitions carry their guard's name, in the order xstate tries them.
    const checks = oauth.states.find((state) => state.path === "checkingResponse")!.transitions.filter((transition) => transition.event === "response.received")
    expect(checks.map((transition) => [transition.guard ?? null, transition.targets])).toEqual([
      ["issuerMissing", ["responseRejected"]],
      ["issuerMismatch", ["responseRejected"]],
      ["stateMismatch", ["responseRejected"]],
      ["providerError", ["providerRejected"]],
      ["responseRefused", ["responseRejected"]],
      [null, ["exchangingCode"]],
    ])
    // Account linking: who the account is linked to and who is signed in, then who owns the email, each decided by a guard.
    const guardsOf = (path: string) => oauth.states.find((state) => state.path === path)!.transitions.filter((transition) => transition.guard).map((transition) => transition.guard)
    expect(guardsOf("fetchingProfile")).toEqual(["adapterPresent"])
    // The resumed flow is claimed once; which claim failure is the adapter's, a guard decides.
    expect(guardsOf("claimingFlow")).toEqual(["isAdapterError"])
    expect(guardsOf("resolvingAccount")).toEqual(["signedInAsOther", "startedBySignedInUser", "signedIn"])
    expect(guardsOf("findingEmailOwner")).toEqual(["emailLinkingAllowed"])
  })

  it("--format mermaid and dot label guarded transitions with their guard", () => {
    const mermaid = authflow("machines", "--format", "mermaid", "--machine", "oauth")
    expect(mermaid.status).toBe(0)
    expect(mermaid.stdout).toContain("oauth__authorizing --> oauth__awaitingCallback : authorization.ready")
    expect(mermaid.stdout).toContain("oauth__awaitingCallback --> oauth__claimingFlow : callback.received")
    expect(mermaid.stdout).toContain("oauth__claimingFlow --> oauth__claimFailed : flow.claimFailed [isAdapterError]")
    expect(mermaid.stdout).toContain("oauth__checkingResponse --> oauth__responseRejected : response.received [stateMismatch]")
    expect(mermaid.stdout).toContain("oauth__findingEmailOwner --> oauth__checkingSignIn : emailOwner.found [emailLinkingAllowed]")
    expect(mermaid.stdout).toContain("oauth__resolvingAccount --> oauth__accountNotLinked : account.linked [signedInAsOther]")
    const dot = authflow("machines", "--format", "dot", "--machine", "oauth")
    expect(dot.status).toBe(0)
    expect(dot.stdout).toContain('"oauth/checkingResponse" -> "oauth/providerRejected" [label="response.received [providerError]"];')
  })

  it("--format mermaid prints a stateDiagram-v2, and --machine narrows it", () => {
    const { status, stdout } = authflow("machines", "--format=mermaid", "--machine", "sign-out")
    expect(status).toBe(0)
    expect(stdout.split("\n").slice(0, 4)).toEqual(["stateDiagram-v2", '  state "sign-out" as sign_out', "  state sign_out {", "    [*] --> sign_out__validatingInput"])
    expect(stdout).toContain("sign_out__findingSession --> sign_out__signedOut : session.none")
    expect(stdout).not.toContain("credentials")
  })

  it("--format dot prints a Graphviz digraph", () => {
    const { status, stdout } = authflow("machines", "--format", "dot")
    expect(status).toBe(0)
    expect(stdout.startsWith("digraph authflow {")).toBe(true)
    for (const id of ["credentials-sign-in", "oauth", "email-verification"]) expect(stdout).toContain(`subgraph "cluster_${id}"`)
    if (spawnSync("dot", ["-V"]).status === 0) expect(execFileSync("dot", ["-Tsvg"], { input: stdout }).toString()).toContain("</svg>")
  })

  it("explains its usage, and fails with status 2 on a wrong one", () => {
    expect(authflow("--help")).toMatchObject({ status: 0, stdout: expect.stringContaining("Usage: authflow machines") })
    expect(authflow("machines", "--format", "svg")).toMatchObject({ status: 2, stderr: expect.stringContaining('Unknown format "svg"') })
    expect(authflow("machines", "--machine", "nope")).toMatchObject({ status: 2, stderr: expect.stringContaining('Unknown machine "nope"') })
    expect(authflow("frobnicate")).toMatchObject({ status: 2, stderr: expect.stringContaining("Usage:") })
  })

  it("secret prints a new 33-byte base64 secret each time, for AUTH_SECRET", () => {
    const first = authflow("secret")
    const second = authflow("secret")
    expect(first.status).toBe(0)
    expect(first.stdout).toMatch(/^[A-Za-z0-9+/]{44}\n$/)
    expect(Buffer.from(first.stdout.trim(), "base64")).toHaveLength(33)
    expect(second.stdout).not.toBe(first.stdout)
    expect(authflow("secret", "extra")).toMatchObject({ status: 2 })
  })

  it("starts with a shebang, so the built dist/cli.js runs as a bin", () => {
    expect(readFileSync(cli, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true)
  })
})
