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
    expect(machines.map((machine) => machine.id)).toEqual(["credentials-sign-in", "oauth-sign-in", "oauth-callback", "email-sign-in", "email-verification", "sign-out"])
    const signIn = machines[1]!
    expect(signIn.initial).toBe("validatingInput")
    expect(signIn.states.find((state) => state.path === "awaitingCallback")).toEqual({ path: "awaitingCallback", key: "awaitingCallback", type: "atomic", states: [], transitions: [{ event: "callback.received", label: "callback.received", targets: ["handedOff"], actions: [] }] })
    expect(signIn.states.find((state) => state.path === "discovering")!.effect).toBe("discover")
    expect(signIn.states.filter((state) => state.type === "final").map((state) => state.path)).toEqual(["handedOff", "csrfRejected", "signInFailed"])
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
    for (const id of ["credentials-sign-in", "oauth-callback", "email-verification"]) expect(stdout).toContain(`subgraph "cluster_${id}"`)
    if (spawnSync("dot", ["-V"]).status === 0) expect(execFileSync("dot", ["-Tsvg"], { input: stdout }).toString()).toContain("</svg>")
  })

  it("explains its usage, and fails with status 2 on a wrong one", () => {
    expect(authflow("--help")).toMatchObject({ status: 0, stdout: expect.stringContaining("Usage: authflow machines") })
    expect(authflow("machines", "--format", "svg")).toMatchObject({ status: 2, stderr: expect.stringContaining('Unknown format "svg"') })
    expect(authflow("machines", "--machine", "nope")).toMatchObject({ status: 2, stderr: expect.stringContaining('Unknown machine "nope"') })
    expect(authflow("frobnicate")).toMatchObject({ status: 2, stderr: expect.stringContaining("Usage:") })
  })

  it("starts with a shebang, so the built dist/cli.js runs as a bin", () => {
    expect(readFileSync(cli, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true)
  })
})
