/**
 * docs/getting-started/sveltekit.md walked as a new user would: the app made by `sv create` (the
 * version the page's `npx sv` gives today, resolved on the npm registry) with the page's options;
 * the packed authflow tarball installed; the page's files pasted from its code blocks and its secret
 * step run; `npm run build`, then `npm run preview` with `AUTH_URL`, as step 7 says for production;
 * signed in and out in Chromium through authflow's built-in pages, with no error in the server log.
 * Prints the time from the create command to a signed-in page. The created app comes from a cache
 * after the first run (getting-started.ts).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { browserSuite } from "../support/chromium.js"
import { createCommand, errorLines, expectSignedOut, signInOnBuiltInPage, walkGettingStarted } from "./getting-started.js"

browserSuite("docs/getting-started/sveltekit.md, from sv create to a signed-in page in Chromium", () => {
  const walked = walkGettingStarted({
    page: "sveltekit.md",
    framework: "SvelteKit",
    // As the page says, pinned to the version `npx sv` gives today.
    create: (pinned, words) => ["npx", pinned, ...words.slice(2)],
    build: ["npm", "run", "build"],
    start: (port) => ["npm", "run", "preview", "--", "--port", String(port), "--strictPort"],
    env: (url) => ({ AUTH_URL: url }),
    readyPath: "/auth/providers",
  })

  it("the page's create command makes a TypeScript app with no add-ons", () => {
    expect(createCommand("sveltekit.md").words.slice(0, 4)).toEqual(["npx", "sv", "create", "my-app"])
    const { dir } = walked.created
    expect(readFileSync(join(dir, "package.json"), "utf8")).toContain('"@sveltejs/kit"')
    expect([...walked.pasted].sort()).toEqual(["src/auth.ts", "src/hooks.server.ts", "src/routes/+page.server.ts", "src/routes/+page.svelte"])
    expect(readFileSync(join(dir, ".env"), "utf8")).toMatch(/^AUTH_SECRET=\S{32,}$/m)
    expect(errorLines(walked.buildLog)).toEqual([])
  })

  it("signs in and out as the page says, and the server logs no error while the signed-in page renders", async () => {
    const visit = await signInOnBuiltInPage(walked, "sveltekit-getting-started-signed-in")
    await visit.tab.getByRole("link", { name: "Sign out" }).click()
    await visit.tab.waitForURL((url) => url.pathname === "/auth/signout")
    await visit.tab.getByRole("button", { name: "Sign out" }).click()
    await expectSignedOut(walked, visit, "/auth/session")
  })
})
