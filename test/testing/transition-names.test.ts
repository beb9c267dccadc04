/**
 * The words `authflow test` names transitions with (src/testing/transition-names.ts): every
 * transition of every machine the kit drives has them, so a transition added without words fails
 * here; no entry of the table is left over; and the coverage report prints them, never a key.
 */
import { createMachine } from "xstate"
import { describe, expect, it } from "vitest"
import { describeMachine } from "../../src/inspect/describe.js"
import { authflowMachines } from "../../src/inspect/machines.js"
import { credentialsSignInMachine } from "../../src/machines/credentials-sign-in.js"
import { secondFactorMachine } from "../../src/machines/second-factor.js"
import { passwordChangeMachine } from "../../src/machines/password-change.js"
import { passwordSignInMachine } from "../../src/machines/password-sign-in.js"
import { machineCoverage } from "../../src/testing/coverage.js"
import { formatCoverage } from "../../src/testing/report.js"
import { drivenMachines } from "../../src/testing/suite.js"
import { transitionName, transitionWords, unnamedTransitions } from "../../src/testing/transition-names.js"
import { declaredTransitions } from "../../src/testing/transitions.js"

// The second-factor machine is not among the inspector's machines (it is resumed, never started by a request of its own).
const driven = drivenMachines.map((id) => [...authflowMachines, secondFactorMachine].find((machine) => machine.id === id)!)

describe("transition names", () => {
  it("names every transition of every machine the kit drives", () => {
    expect(driven.map((machine) => machine?.id)).toEqual([...drivenMachines])
    const unnamed = driven.flatMap((machine) => unnamedTransitions(machine, declaredTransitions(machine)))
    expect(unnamed, "add words for these transitions to transitionWords in src/testing/transition-names.ts").toEqual([])
  })

  it("gives each transition of a state a name of its own", () => {
    for (const machine of driven) {
      const names = [...declaredTransitions(machine)].map((key) => transitionName(machine, key))
      expect(names.filter((name, index) => names.indexOf(name) !== index), machine.id).toEqual([])
    }
  })

  it("keeps no words for an event or guard no driven machine has", () => {
    // The entry each transition reads: `<event>` for an event named by one string, else `<event> <guard or otherwise>`, `<event> <guard or otherwise> in <state>`, or `… in <machine>.<state>`.
    const read = new Set<string>()
    for (const machine of driven) {
      const visit = (states: ReturnType<typeof describeMachine>["states"]) => {
        for (const state of states) {
          for (const { label, guard } of state.transitions) {
            if (typeof transitionWords[label] === "string") read.add(label)
            else read.add(`${label} ${guard ?? "otherwise"}`).add(`${label} ${guard ?? "otherwise"} in ${state.path}`).add(`${label} ${guard ?? "otherwise"} in ${machine.id}.${state.path}`)
          }
          visit(state.states)
        }
      }
      visit(describeMachine(machine).states)
    }
    const entries = Object.entries(transitionWords).flatMap(([event, words]) => (typeof words === "string" ? [event] : Object.keys(words).map((guard) => `${event} ${guard}`)))
    expect(entries.filter((entry) => !read.has(entry))).toEqual([])
  })

  it("names a transition by what happened and where the machine went", () => {
    expect(transitionName(credentialsSignInMachine, "credentials-sign-in.checkingSignIn:signIn.answered:2")).toBe("the signIn callback answered false (checkingSignIn → accessDenied)")
    expect(transitionName(credentialsSignInMachine, "credentials-sign-in.issuingSession:always:0")).toBe("second factors are on (issuingSession → checkingSecondFactor)")
    expect(transitionName(credentialsSignInMachine, "credentials-sign-in.issuingSession:always:1")).toBe("sessions are database sessions (issuingSession → creatingSession)")
    expect(transitionName(credentialsSignInMachine, "credentials-sign-in.checkingSecondFactor:secondFactor.found:1")).toBe("the user has an authenticator app or backup codes (checkingSecondFactor → secondFactorRequired)")
    // An eventless choice's `otherwise` is named for its state.
    expect(transitionName(secondFactorMachine, "second-factor.refusing:always:1")).toBe("the code was refused, and it was the last attempt (refusing → attemptsExhausted)")
    expect(transitionName(secondFactorMachine, "second-factor.choosingMethod:always:1")).toBe("the form names a method this user has (choosingMethod → checkingRateLimit)")
    // A state two machines share, where the same guard means something else: named for the machine.
    expect(transitionName(passwordSignInMachine, "password-sign-in.checkingPassword:password.checked:4")).toBe("the password was right (checkingPassword → refundingAttempt)")
    expect(transitionName(passwordChangeMachine, "password-change.checkingPassword:password.checked:1")).toBe("the password was wrong (checkingPassword → passwordRejected)")
  })

  it("names a transition the table lacks by its event and guard, never by its index, and reports it", () => {
    const machine = createMachine({
      id: "made-up",
      initial: "waiting",
      states: { waiting: { on: { "thing.happened": [{ guard: "itWasBig", target: "big" }, { target: "small" }] } }, big: {}, small: {} },
    })
    expect(transitionName(machine, "made-up.waiting:thing.happened:0")).toBe("thing.happened [itWasBig] (waiting → big)")
    expect(transitionName(machine, "made-up.waiting:thing.happened:1")).toBe("thing.happened (waiting → small)")
    expect(unnamedTransitions(machine, declaredTransitions(machine))).toEqual(["made-up.waiting:thing.happened:0", "made-up.waiting:thing.happened:1"])
  })

  it("the coverage report prints names, not keys", () => {
    const key = "credentials-sign-in.checkingSignIn:signIn.answered:2"
    const coverage = machineCoverage(credentialsSignInMachine, new Set(), [{ transitions: [[key]], decidedBy: ["callbacks.signIn"] }])
    expect(coverage.notTaken).toEqual([{ transition: key, decidedBy: "callbacks.signIn" }])
    const report = formatCoverage([coverage])
    expect(report).toContain("never taken by callbacks.signIn: the signIn callback answered false (checkingSignIn → accessDenied)")
    expect(report).not.toContain(key)
  })
})
