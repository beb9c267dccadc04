import { execFileSync, spawnSync } from "node:child_process"
import { and, not, or, setup, stateIn } from "xstate"
import { describe, expect, it } from "vitest"
import { activePaths, authflowMachines, describeMachine, eventLabel, layoutMachine, renderSvg, toDot, toMermaid } from "../../src/inspect/index.js"
import { allStates } from "../../src/inspect/describe.js"
import { effectOf } from "../../src/machines/run-flow.js"

const nested = setup({ guards: { isAllowed: () => true, isOwner: () => true, hasQuota: (_, params: { min: number }) => params.min > 0 } }).createMachine({
  id: "nested",
  initial: "outer",
  on: { RESET: ".outer" },
  states: {
    outer: {
      initial: "first",
      meta: { effect: "load" },
      on: {
        GO: [{ target: "parallel", guard: "isAllowed" }, { target: "end" }],
        PING: { actions: () => {} },
        SHARE: [
          { target: "end", guard: and(["isOwner", not("isAllowed")]) },
          { target: "end", guard: or([{ type: "hasQuota", params: { min: 1 } }, stateIn("#nested.parallel")]) },
        ],
      },
      states: { first: { on: { NEXT: { target: "second", guard: { type: "isAllowed" } } } }, second: { always: "#nested.parallel" } },
    },
    parallel: {
      type: "parallel",
      after: { 1000: "end" },
      states: { left: { initial: "x", states: { x: { on: { T: "y" } }, y: {} } }, right: { initial: "p", states: { p: {}, q: {} } } },
    },
    end: { type: "final" },
  },
})

/**
 * Graphviz's `dot` checks that the DOT output parses. Without it (`apt-get install graphviz`) the
 * test is skipped, with that reason in its title; in CI (`CI` set) it always runs, and .ci/run
 * installs Graphviz.
 */
const hasDot = spawnSync("dot", ["-V"]).status === 0
const runDot = hasDot || Boolean(process.env.CI)
const dotTitle = runDot ? "print Graphviz that dot accepts" : "print Graphviz that dot accepts (skipped: Graphviz's `dot` is not installed: apt-get install graphviz)"

describe("machine descriptions", () => {
  it("describe every authflow machine as JSON that round-trips: states, effects, transitions, finals", () => {
    expect(authflowMachines.map((machine) => machine.id)).toEqual(["credentials-sign-in", "oauth", "email-sign-in", "email-verification", "email-code", "webauthn", "sign-out", "token-refresh", "backchannel-logout", "second-factor", "factors", "step-up", "password-sign-up", "password-verify-email", "password-verify-code", "password-change-email", "password-confirm-email", "password-sign-in", "password-reset-request", "password-reset", "password-reset-code", "password-change", "multi-session"])
    for (const machine of authflowMachines) {
      const description = describeMachine(machine)
      expect(JSON.parse(JSON.stringify(description))).toEqual(description)
      expect(description.initial).toBeTruthy()
      expect(description.states.some((state) => state.type === "final")).toBe(true)
    }
    const credentials = describeMachine(authflowMachines[0]!)
    expect(credentials.states[0]).toMatchObject({ path: "validatingInput", effect: "checkCsrf", type: "atomic" })
    expect(credentials.states[0]!.transitions).toEqual([
      { event: "csrf.valid", label: "csrf.valid", targets: ["readingCredentials"], actions: [] },
      { event: "csrf.invalid", label: "csrf.invalid", targets: ["csrfRejected"], actions: [] },
    ])
    expect(credentials.states.find((state) => state.path === "signedIn")).toMatchObject({ type: "final", transitions: [] })
  })

  it("read each state's effect as the engine does (one effectOf): the description and a snapshot in that state agree", () => {
    for (const machine of authflowMachines) {
      for (const state of allStates(describeMachine(machine))) {
        if (state.type !== "atomic") continue
        // A nested state's path is dotted ("refreshing.claiming"); its state value is the nested object.
        const value = state.path.split(".").reduceRight<string | Record<string, unknown>>((inner, key) => (inner === "" ? key : { [key]: inner }), "")
        expect(state.effect, `${machine.id}: ${state.path}`).toBe(effectOf(machine.resolveState({ value: value as never, context: {} })))
      }
    }
    const oauth = describeMachine(authflowMachines.find((machine) => machine.id === "oauth")!)
    // Without an effect, a state either waits for the next request or is passed through at once (eventless: a second factor or not, the session strategy).
    const withoutEffect = allStates(oauth).filter((state) => state.type === "atomic" && state.effect === undefined)
    expect(withoutEffect.filter((state) => !state.transitions.some((transition) => transition.label === "always")).map((state) => state.path)).toEqual(["awaitingCallback"])
    expect(withoutEffect.filter((state) => state.transitions.some((transition) => transition.label === "always")).map((state) => state.path)).toEqual(["issuingSession", "writingSession"])
  })

  it("describe nested, parallel, guarded, eventless, delayed and targetless transitions", () => {
    const description = describeMachine(nested)
    const outer = description.states[0]!
    expect(outer).toMatchObject({ path: "outer", type: "compound", effect: "load", initial: "outer.first" })
    expect(outer.transitions.map((t) => [t.label, t.guard, t.targets])).toEqual([
      ["GO", "isAllowed", ["parallel"]],
      ["GO", undefined, ["end"]],
      ["PING", undefined, []],
      ["SHARE", "and(isOwner, not(isAllowed))", ["end"]],
      ["SHARE", "or(hasQuota, stateIn(#nested.parallel))", ["end"]],
    ])
    expect(outer.states[0]!.transitions[0]).toMatchObject({ event: "NEXT", guard: "isAllowed", targets: ["outer.second"] })
    expect(outer.states[1]!.transitions[0]).toMatchObject({ label: "always", targets: ["parallel"] })
    expect(description.states[1]).toMatchObject({ type: "parallel" })
    expect(description.states[1]!.transitions[0]).toMatchObject({ label: "after 1000ms", targets: ["end"] })
    expect(description.transitions[0]).toMatchObject({ event: "RESET", targets: ["outer"] })
    expect(eventLabel("xstate.done.actor.0.machine.loading")).toBe("done: machine.loading")
    expect(activePaths({ parallel: { left: "x", right: "p" } })).toEqual(["parallel", "parallel.left", "parallel.left.x", "parallel.right", "parallel.right.p"])
  })

  it("print Mermaid stateDiagram-v2 with transitions declared in the composite holding both ends", () => {
    const mermaid = toMermaid([describeMachine(authflowMachines[0]!), describeMachine(nested)])
    expect(mermaid.startsWith("stateDiagram-v2\n")).toBe(true)
    expect(mermaid).toContain('state "credentials-sign-in" as credentials_sign_in')
    expect(mermaid).toContain("credentials_sign_in__validatingInput : effect checkCsrf")
    expect(mermaid).toContain("credentials_sign_in__validatingInput --> credentials_sign_in__readingCredentials : csrf.valid")
    expect(mermaid).toContain("credentials_sign_in__signedIn --> [*]")
    expect(mermaid).toContain("nested__outer__first --> nested__outer__second : NEXT [isAllowed]")
    expect(mermaid).toContain("nested__outer : on PING")
    expect(mermaid).toMatch(/state nested__parallel__left \{[\s\S]*\n\s+--\n[\s\S]*state nested__parallel__right/)
    // Every id Mermaid sees is made of letters, digits and underscores only.
    for (const line of mermaid.split("\n").filter((l) => l.includes("-->"))) {
      const [from, rest] = line.trim().split(" --> ")
      expect(from).toMatch(/^(\[\*\]|[A-Za-z0-9_]+)$/)
      expect(rest!.split(" : ")[0]).toMatch(/^(\[\*\]|[A-Za-z0-9_]+)$/)
    }
  })

  it.runIf(runDot)(dotTitle, () => {
    const dot = toDot([...authflowMachines.map(describeMachine), describeMachine(nested)])
    expect(dot).toContain('"credentials-sign-in/signedIn" [label="signedIn", peripheries=2];')
    expect(dot).toContain('"credentials-sign-in/validatingInput" -> "credentials-sign-in/readingCredentials" [label="csrf.valid"];')
    const svg = execFileSync("dot", ["-Tsvg"], { input: dot }).toString()
    expect(svg).toContain("<svg")
  })
})

describe("statecharts", () => {
  it("are laid out by ELK from the definition, with every state and transition placed", async () => {
    for (const machine of [...authflowMachines, nested]) {
      const description = describeMachine(machine)
      const diagram = await layoutMachine(description)
      const states = JSON.stringify(description).match(/"path":/g)!.length
      expect(diagram.nodes.filter((node) => node.kind === "state")).toHaveLength(states)
      for (const node of diagram.nodes) {
        expect(node.x).toBeGreaterThanOrEqual(0)
        expect(node.x + node.width).toBeLessThanOrEqual(diagram.width + 1)
      }
      // No two state boxes overlap unless one contains the other.
      const boxes = diagram.nodes.filter((node) => node.kind === "state")
      for (const a of boxes) for (const b of boxes) {
        if (a === b || b.path.startsWith(`${a.path}.`) || a.path.startsWith(`${b.path}.`)) continue
        const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
        expect(overlap, `${machine.id}: ${a.path} overlaps ${b.path}`).toBe(false)
      }
      for (const edge of diagram.edges) expect(edge.points.length).toBeGreaterThanOrEqual(2)
      const svg = renderSvg(description, diagram)
      expect(svg).toMatch(/^<svg [^>]*role="img" aria-labelledby="[^"]+-title" aria-describedby="[^"]+-desc"/)
      expect(svg).toContain("<desc")
      expect(svg).toContain('class="sc-final-ring"')
    }
  })

  it("carry a text alternative naming every state, effect and transition, guards included", async () => {
    const description = describeMachine(authflowMachines.find((machine) => machine.id === "oauth")!)
    const svg = renderSvg(description, await layoutMachine(description))
    const desc = /<desc[^>]*>([^<]*)<\/desc>/.exec(svg)![1]
    expect(desc).toContain("Statechart of the oauth machine")
    expect(desc).toContain("Initial state: validatingInput.")
    expect(desc).toContain("authorizing (effect authorize): authorization.ready → awaitingCallback; authorization.failed → signInFailed.")
    expect(desc).toContain("awaitingCallback: callback.received → claimingFlow.")
    expect(desc).toContain("claimingFlow (effect claimFlow): flow.fresh → checkingCallbackRateLimit; flow.replayed → flowReplayed; flow.claimFailed [isAdapterError] → claimFailed; flow.claimFailed → flowNotResumed.")
    expect(desc).toContain("checkingResponse (effect readResponse): response.received [issuerMissing] → responseRejected; response.received [issuerMismatch] → responseRejected; response.received [stateMismatch] → responseRejected; response.received [providerError] → providerRejected; response.received [responseRefused] → responseRejected; response.received → exchangingCode;")
    expect(desc).toContain("resolvingAccount (effect resolveAccount): account.linked [signedInAsOther] → accountNotLinked; account.linked → checkingSignIn; account.new [startedBySignedInUser] → checkingSignIn; account.new [signedIn] → accountNotLinked; account.new → findingEmailOwner;")
    expect(desc).toMatch(/Final states: [^.]*\bsignedIn\b[^.]*\bidTokenRejected\b/)
  })
})
