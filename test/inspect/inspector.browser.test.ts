/**
 * The inspector in a real browser: Auth() under /auth and the inspector under /inspect on one
 * node:http server. A credentials sign-in in one tab appears live in the inspector in another, with
 * its diagram's final state highlighted; the page is keyboard navigable and stays fast with 1000
 * flows. Screenshots go to test-output/inspect/.
 */
import { mkdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { browserSuite, launchChromium } from "../support/chromium.js"
import { CookieJar } from "../helpers.js"
import { finishOAuth, flowsConfig, recordSignIns, Secrets, startOAuth } from "./fixtures.js"
import { accounts, startInspectedServer, type InspectedServer } from "./server.js"
import { authflowMachines } from "../../src/inspect/machines.js"

const output = fileURLToPath(new URL("../../test-output/inspect/", import.meta.url))

browserSuite("the inspector in Chromium", () => {
  let server: InspectedServer
  let browser: Browser
  const foreign: string[] = []

  beforeAll(async () => {
    mkdirSync(output, { recursive: true })
    server = await startInspectedServer()
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  async function openInspector(path = ""): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } })
    page.on("request", (request) => {
      if (!request.url().startsWith(server.origin)) foreign.push(request.url())
    })
    await page.goto(`${server.origin}/inspect${path}`)
    await page.getByRole("status").filter({ hasText: "Live" }).waitFor()
    return page
  }

  it("shows a credentials sign-in made in another tab, live, with its final state highlighted", async () => {
    const inspector = await openInspector()
    expect(await inspector.locator("#flow-list").innerText()).toContain("No flow yet")

    const tab = await browser.newPage()
    await tab.goto(`${server.origin}/auth/signin`)
    await tab.getByLabel("Username").fill("ada")
    await tab.getByLabel("Password").fill(accounts[0]!.password)
    await tab.getByRole("button", { name: "Sign in with Demo account" }).click()
    await tab.waitForURL(`${server.origin}/`)
    await tab.close()

    // The flow arrives through the event stream: no reload.
    const link = inspector.locator("a.flow-link", { hasText: "credentials-sign-in" }).filter({ hasText: "succeeded" })
    await link.waitFor()
    await link.click()
    await inspector.waitForURL(/#\/flows\/\d+$/)
    const current = inspector.locator('svg.statechart .sc-state.is-current[data-path="signedIn"]')
    await current.waitFor()
    expect(await inspector.locator("svg.statechart .sc-state.is-current").count()).toBe(1)
    expect(await inspector.locator("svg.statechart .sc-state.is-visited").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-path")))).toEqual(["validatingInput", "readingCredentials", "checkingRateLimit", "authorizing", "refundingAttempt", "checkingSignIn", "issuingSession", "encodingToken", "signedIn"])
    expect(await inspector.locator("svg.statechart .sc-edge.is-taken").evaluateAll((edges) => edges.map((edge) => edge.getAttribute("data-event")))).toEqual(expect.arrayContaining(["", "csrf.valid", "credentials.read", "rateLimit.counted", "authorize.returned", "attempt.refunded", "signIn.answered", "token.encoded"]))
    expect(await inspector.locator("figure.diagram figcaption").first().innerText()).toContain("Current state: signedIn (final)")
    const events = await inspector.locator("table.timeline tbody tr td:nth-child(3) > code").allInnerTexts()
    expect(events).toEqual(["started", "csrf.valid", "credentials.read", "rateLimit.counted", "authorize.returned", "attempt.refunded", "signIn.answered", "token.encoded"])
    // The password typed in the other tab is nowhere on the page.
    expect(await inspector.content()).not.toContain(accounts[0]!.password)
    // Tall enough to show the diagram and the timeline below it.
    await inspector.setViewportSize({ width: 1440, height: 1500 })
    await inspector.screenshot({ path: `${output}inspector-credentials-flow.png` })
    await inspector.setViewportSize({ width: 1440, height: 1000 })

    // Going back in the timeline shows that step's state on the diagram.
    await inspector.getByRole("button", { name: "Show step 4 (authorizing) on the diagram" }).click()
    await inspector.locator('svg.statechart .sc-state.is-current[data-path="authorizing"]').waitFor()
    expect(await inspector.locator("figure.diagram figcaption").first().innerText()).toContain("State at step 4: authorizing")

    await inspector.getByRole("link", { name: "Machines" }).click()
    await inspector.getByRole("heading", { name: "oauth", exact: true }).waitFor()
    await inspector.locator('.diagram-frame[data-machine="sign-out"] svg').waitFor()
    expect(await inspector.locator("section.machine svg.statechart").count()).toBe(authflowMachines.length)
    await inspector.screenshot({ path: `${output}inspector-machines.png` })
    await inspector.close()
    expect(foreign).toEqual([])
  })

  it("has landmarks, headings, text alternatives, and a keyboard-navigable list with visible focus", async () => {
    recordSignIns(server.inspector, 3)
    const page = await openInspector()
    expect(await page.getByRole("banner").count()).toBe(1)
    expect(await page.getByRole("main").count()).toBe(1)
    expect(await page.getByRole("navigation", { name: "Recent flows" }).count()).toBe(1)
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toContain("authflow inspector")

    await page.keyboard.press("Tab")
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to the flow details")
    // Tab into the list (one stop), arrows inside it.
    const first = page.locator('a.flow-link[tabindex="0"]')
    await first.focus()
    const firstId = await first.getAttribute("data-id")
    await page.keyboard.press("ArrowDown")
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement
      const style = getComputedStyle(element)
      return { id: element.getAttribute("data-id"), outline: `${style.outlineStyle} ${style.outlineWidth}`, tabbable: element.getAttribute("tabindex") }
    })
    expect(focused.id).not.toBe(firstId)
    expect(focused.outline).toBe("solid 3px")
    expect(focused.tabbable).toBe("0")
    await page.keyboard.press("Enter")
    await page.waitForURL(new RegExp(`#/flows/${focused.id}$`))
    const diagram = page.getByRole("img", { name: "credentials-sign-in statechart" })
    await diagram.waitFor()
    const description = await diagram.evaluate((svg) => svg.getAttribute("aria-describedby")!.split(" ").map((id) => document.getElementById(id)?.textContent).join(" "))
    expect(description).toContain("ended in signedIn")
    expect(description).toContain("authorizing (effect authorize): authorize.returned [returnedUser] → refundingAttempt")
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main")
    // The skip link moves focus to the details without losing the selected flow.
    await page.locator("a.skip").focus()
    await page.keyboard.press("Enter")
    expect(await page.evaluate(() => [document.activeElement?.id, location.hash])).toEqual(["main", `#/flows/${focused.id}`])
    await page.close()
  })

  it("shows an OAuth sign-in as one flow on the oauth machine: both requests on one diagram, the callback's checks as steps", async () => {
    const { config, op } = flowsConfig(server.inspector.inspect, new Secrets())
    const jar = new CookieJar()
    await finishOAuth(config, jar, op, await startOAuth(config, jar))
    const page = await openInspector()
    await page.locator("a.flow-link", { hasText: "oauth" }).filter({ hasText: "succeeded" }).first().click()
    await page.locator('svg.statechart .sc-state.is-current[data-path="signedIn"]').waitFor()
    expect(await page.locator("#flow-title").innerText()).toMatch(/^Flow #\d+: oauth$/)
    expect(await page.locator("section.run").count()).toBe(1)
    expect(await page.locator("section.run h3").innerText()).toBe("oauth")
    expect(await page.locator("p.note").innerText()).toContain("This flow spans 2 requests")
    expect(await page.locator("table.timeline tr.divider").allInnerTexts()).toEqual([expect.stringContaining("Next request: the flow was restored from its sealed snapshot")])
    const events = await page.locator("table.timeline tbody tr td:nth-child(3) > code").allInnerTexts()
    expect(events.slice(0, 11)).toEqual(["started", "csrf.valid", "rateLimit.counted", "discovery.done", "authorization.ready", "restored from the flow cookie", "callback.received", "flow.fresh", "rateLimit.counted", "response.received", "code.exchanged"])
    expect(events.at(-1)).toBe("token.encoded")
    const visited = await page.locator("svg.statechart .sc-state.is-visited").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-path")))
    expect(visited).toEqual(expect.arrayContaining(["validatingInput", "discovering", "authorizing", "awaitingCallback", "claimingFlow", "checkingResponse", "exchangingCode", "validatingTokens", "fetchingProfile", "resolvingAccount", "checkingSignIn", "persistingUser", "encodingToken", "signedIn"]))
    expect(visited).not.toContain("responseRejected")
    const taken = await page.locator("svg.statechart .sc-edge.is-taken").evaluateAll((edges) => edges.map((edge) => `${edge.getAttribute("data-source")} ${edge.getAttribute("data-event")} ${edge.getAttribute("data-target")}`))
    expect(taken).toEqual(expect.arrayContaining(["authorizing authorization.ready awaitingCallback", "awaitingCallback callback.received claimingFlow", "claimingFlow flow.fresh checkingCallbackRateLimit", "checkingCallbackRateLimit rateLimit.counted checkingResponse", "checkingResponse response.received exchangingCode"]))
    expect(taken).not.toContain("checkingResponse response.received responseRejected")
    await page.setViewportSize({ width: 1440, height: 1800 })
    await page.screenshot({ path: `${output}inspector-oauth-flow.png` })
    await page.close()
  })

  it("stays fast with 1000 recorded flows: the list is paginated, the page renders quickly", async () => {
    recordSignIns(server.inspector, 1000)
    expect(server.inspector.recorder.size).toBe(1000)
    const page = await openInspector()
    await page.waitForFunction(() => document.body.hasAttribute("data-first-render-ms"))
    const firstRender = Number(await page.getAttribute("body", "data-first-render-ms"))
    expect(await page.locator("a.flow-link").count()).toBe(50)
    expect(await page.locator("#page-info").innerText()).toBe("Page 1 of 20")

    const turn = await page.evaluate(async () => {
      const started = performance.now()
      const info = document.getElementById("page-info")!
      ;(document.getElementById("older") as HTMLButtonElement).click()
      while (info.textContent !== "Page 2 of 20") await new Promise((resolve) => setTimeout(resolve, 5))
      return performance.now() - started
    })
    const open = await page.evaluate(async () => {
      const started = performance.now()
      const link = document.querySelector("a.flow-link") as HTMLAnchorElement
      link.click()
      while (!document.querySelector("svg.statechart .sc-state.is-current")) await new Promise((resolve) => setTimeout(resolve, 5))
      return performance.now() - started
    })
    await page.screenshot({ path: `${output}inspector-1000-flows.png` })
    console.log(`[inspect] browser, 1000 flows: first list render ${firstRender.toFixed(0)} ms after navigation start; next page ${turn.toFixed(0)} ms; open a flow with its diagram ${open.toFixed(0)} ms`)
    // Generous sanity bounds: the point is the list is paginated, not a benchmark.
    expect(firstRender).toBeLessThan(5000)
    expect(turn).toBeLessThan(2000)
    expect(open).toBeLessThan(3000)
    await page.close()
  })
})
