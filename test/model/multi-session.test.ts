import { afterAll, describe, expect, it, vi } from "vitest"
import { multiSessionMachine, type MultiSessionEvent, type MultiSessionInput } from "../../src/machines/multi-session.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Password from "../../src/providers/password.js"
import { FlowEndings } from "./harness.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { coverageReport } from "../../src/testing/coverage.js"
import { modelPaths } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import type { Adapter } from "../../src/adapters.js"
import type { AuthConfig, Session } from "../../src/types.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

// The one fault no request can cause: the others cookie cannot be written (sealing failed).
const faults = vi.hoisted(() => ({ write: false }))
vi.mock("../../src/actions/multi-session/others.js", async (load) => {
  const real = await load<typeof import("../../src/actions/multi-session/others.js")>()
  return { ...real, writeOthers: (...args: Parameters<typeof real.writeOthers>) => (faults.write ? Promise.reject(new Error("cookie sealing failed")) : real.writeOthers(...args)) }
})
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/multi-session.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("multi-session", await load()))
loadMachinesPerTest("csrf-check", "multi-session")

const secret = "multi-session-model-secret-0123456789abcdef"
const password = "correct horse battery"
const sessionCookie = cookieNames.https.sessionToken

/** Payload-carrying events: each is one way the real world can answer an effect. */
const events: MultiSessionEvent[] = [
  { type: "previous.found", sameUser: true, accounts: 2 },
  { type: "previous.found", sameUser: false, accounts: 2 },
  { type: "previous.found", sameUser: false, accounts: 3 },
  { type: "drop.failed", error: "session store down" },
  { type: "keep.failed", error: "cookie sealing failed" },
  { type: "switch.failed", error: "cookie sealing failed" },
  { type: "target.all", others: 0 },
  { type: "target.all", others: 1 },
  { type: "target.active", others: 0 },
  { type: "target.active", others: 1 },
  { type: "others.failed", error: "session store down" },
  { type: "other.failed", error: "session store down" },
]

const policy = { maxAccounts: 2 }
const inputs: MultiSessionInput[] = [
  { operation: "add", policy },
  { operation: "switch", policy },
  { operation: "signOut", policy },
]
const paths = modelPaths(multiSessionMachine, events, { inputs })
const recorder = new TransitionRecorder([multiSessionMachine])
const endings = new FlowEndings(recorder, "multi-session")

/** A browser and the accounts A, B and C (database sessions, memory adapter) whose session deletes fail on demand. */
async function world(path: readonly MultiSessionEvent[]) {
  const has = (type: string) => path.some((event) => event.type === type)
  const memory = MemoryAdapter()
  const state = { failDeletes: false, activeToken: "" }
  const adapter: Adapter = {
    ...memory,
    async deleteSession(token) {
      // The store fails for the other accounts' sessions; the active one's sign-out goes on.
      if (state.failDeletes && token !== state.activeToken) throw new Error("session store down")
      return memory.deleteSession(token)
    },
  }
  const recording = recordingLogger()
  const config: AuthConfig = { secret, trustHost: true, adapter, logger: recording.logger, session: { strategy: "database" }, multiSession: policy, providers: [Password({ hashing: { scrypt: { ln: 10 } } })] }
  for (const who of ["a", "b", "c"]) {
    const jar = new CookieJar()
    await send(config, jar, "/signup/password", { form: { csrfToken: await csrfTokenFor(config, jar), email: `${who}@example.test`, password } })
  }
  const ids = Object.fromEntries(await Promise.all(["a", "b", "c"].map(async (who) => [who, (await memory.getUserByEmail(`${who}@example.test`))!.id] as const)))
  const jar = new CookieJar()
  const signIn = async (who: string, addAccount = false) => {
    if (addAccount) await send(config, jar, "/signin?addAccount=1")
    return send(config, jar, "/callback/password", { form: { csrfToken: await csrfTokenFor(config, jar), email: `${who}@example.test`, password, callbackUrl: `${origin}/home` } })
  }
  const listing = async () => {
    const { active, others } = (await (await send({ ...config, inspect: undefined }, jar, "/sessions")).json()) as { active: Session | null; others: Session[] }
    return [active?.user?.email?.[0] ?? null, ...others.map((other) => other.user!.email![0])]
  }
  return { config, memory, state, ids, jar, signIn, listing, has, errors: recording.errors }
}

describe("multi-session machine, driven through Auth()", () => {
  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(new Set(["replaced", "added", "keepFailed", "switched", "switchFailed", "accountNotFound", "endAll", "promoteNext", "otherEnded", "csrfRejected"]))
  })

  for (const path of paths) {
    const { operation } = path.input as MultiSessionInput
    it(`${operation}: ${path.description} ⇒ ${path.finalState}`, async () => {
      const w = await world(path.events)
      const event = <T extends MultiSessionEvent["type"]>(type: T) => path.events.find((candidate) => candidate.type === type) as Extract<MultiSessionEvent, { type: T }> | undefined
      const csrf = !w.has("csrf.invalid")
      let response: Response
      if (operation === "add") {
        const found = event("previous.found")
        // Who is signed in before: nobody, A, or A with B added (B active).
        let aToken = ""
        if (found) {
          await w.signIn("a")
          aToken = w.jar.get(sessionCookie)!
        }
        if (found?.accounts === 3) await w.signIn("b", true)
        const adding = !w.has("marker.absent")
        if (adding) await send(w.config, w.jar, "/signin?addAccount=1")
        else await w.signIn("b")
        w.state.failDeletes = w.has("drop.failed")
        faults.write = w.has("keep.failed")
        endings.reset()
        const who = found?.sameUser ? "a" : found?.accounts === 3 ? "c" : found ? "b" : "a"
        const target = w.has("marker.absent") ? "c" : who
        response = await send({ ...w.config, inspect: endings.inspect }, w.jar, "/callback/password", { form: { csrfToken: await csrfTokenFor(w.config, w.jar), email: `${target}@example.test`, password, callbackUrl: `${origin}/home` } })
        faults.write = false
        expect(response.headers.get("location")).toBe(`${origin}/home`)
        expect(w.jar.get(cookieNames.https.addAccount)).toBeUndefined()
        const expected: Record<string, (string | null)[]> = {
          replaced: w.has("marker.absent") ? ["c"] : found?.sameUser ? ["a"] : ["a"],
          added: found?.accounts === 3 ? ["c", "b"] : ["b", "a"],
          // The oldest was dropped before the write failed; the others cookie is as it was.
          keepFailed: found?.accounts === 3 ? (w.has("drop.failed") ? ["c", "a"] : ["c"]) : ["b"],
        }
        expect(await w.listing()).toEqual(expected[path.finalState])
        if (w.has("oldest.dropped")) expect(await w.memory.getSessionAndUser(aToken)).toBeNull()
        if (w.has("drop.failed")) expect(await w.memory.getSessionAndUser(aToken)).not.toBeNull()
        expect(w.errors.map((error) => error.name)).toEqual([...(w.has("drop.failed") ? ["AdapterError"] : []), ...(path.finalState === "keepFailed" ? ["SessionTokenError"] : [])])
      } else if (operation === "switch") {
        await w.signIn("a")
        await w.signIn("b", true)
        faults.write = w.has("switch.failed")
        endings.reset()
        const account = w.has("account.missing") ? "nobody" : w.has("account.active") ? w.ids.b! : w.ids.a!
        response = await send({ ...w.config, inspect: endings.inspect }, w.jar, "/sessions/switch", { form: { ...(csrf && { csrfToken: await csrfTokenFor(w.config, w.jar) }), account, callbackUrl: `${origin}/home` } })
        faults.write = false
        const location = response.headers.get("location")
        const outcomes: Record<string, [string, (string | null)[]]> = {
          csrfRejected: [`${origin}/auth/signin?error=MissingCSRF`, ["b", "a"]],
          accountNotFound: [`${origin}/auth/error?error=AccountNotFound`, ["b", "a"]],
          switched: [`${origin}/home`, w.has("account.active") ? ["b", "a"] : ["a", "b"]],
          switchFailed: [`${origin}/auth/error?error=Configuration`, ["b", "a"]],
        }
        expect([location, await w.listing()]).toEqual(outcomes[path.finalState])
      } else {
        const all = event("target.all")
        const active = event("target.active")
        const twoAccounts = (all?.others ?? active?.others ?? 1) > 0
        await w.signIn("a")
        if (twoAccounts) await w.signIn("b", true)
        w.state.activeToken = w.jar.get(sessionCookie)!
        w.state.failDeletes = w.has("others.failed") || w.has("other.failed")
        endings.reset()
        const account = w.has("target.missing") ? "nobody" : w.has("target.other") ? w.ids.a! : active ? (twoAccounts ? w.ids.b! : w.ids.a!) : undefined
        response = await send({ ...w.config, inspect: endings.inspect }, w.jar, "/signout", { form: { ...(csrf && { csrfToken: await csrfTokenFor(w.config, w.jar) }), ...(account && { account }), callbackUrl: `${origin}/home` } })
        const location = response.headers.get("location")
        const outcomes: Record<string, [string, (string | null)[]]> = {
          csrfRejected: [`${origin}/auth/signin?error=MissingCSRF`, twoAccounts ? ["b", "a"] : ["a"]],
          accountNotFound: [`${origin}/auth/error?error=AccountNotFound`, twoAccounts ? ["b", "a"] : ["a"]],
          endAll: [`${origin}/home`, [null]],
          promoteNext: [`${origin}/home`, ["a"]],
          otherEnded: [`${origin}/home`, ["b"]],
        }
        expect([location, await w.listing()]).toEqual(outcomes[path.finalState])
        expect(w.errors.map((error) => error.name).filter((name) => name === "SignOutError")).toEqual(w.has("others.failed") || w.has("other.failed") ? ["SignOutError"] : [])
      }
      // The real run walked exactly the model's path, and ended there.
      expect(recorder.runs.map((run) => run.states)).toEqual([path.states])
      expect(endings.statuses).toEqual(["done"])
    })
  }

  afterAll(() => {
    const { line, missing } = coverageReport(multiSessionMachine, recorder)
    console.log(line)
    expect(missing, `uncovered transitions: ${missing.join(", ")}`).toEqual([])
  })
})
