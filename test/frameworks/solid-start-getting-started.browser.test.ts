/**
 * docs/getting-started/solid-start.md walked as a new user would, from a pinned template: the page's
 * create command (`npm create solid`) downloads its template from GitHub, which the test machines
 * cannot reach, so the app starts as a copy of test/frameworks/templates/solid-start-basic (the
 * SolidStart 1 `basic` template, see its README), then the page's `npm install`; the packed
 * authflow tarball installed; the page's files pasted from its code blocks and its secret step run;
 * `npm run build`, then the Node server with `.env` loaded and `AUTH_URL`, as step 7 says for
 * production; signed in through authflow's built-in sign-in page at `/api/auth/signin` and out
 * through its sign-out page in Chromium, with no error in the server log. Prints the time from the
 * template copy to a signed-in page. The installed template comes from a cache after the first run (getting-started.ts).
 */
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { browserSuite } from "../support/chromium.js"
import { codeBlocks, createCommand, errorLines, expectSignedOut, signInOnBuiltInPage, templates, walkGettingStarted } from "./getting-started.js"

browserSuite("docs/getting-started/solid-start.md, from the pinned SolidStart template to a signed-in page in Chromium", () => {
  const walked = walkGettingStarted({
    page: "solid-start.md",
    framework: "SolidStart",
    // create-solid fetches `solid-start-v1/basic` from GitHub: its pinned copy instead.
    template: "solid-start-basic",
    // The page's `cd my-app && npm install`: the template comes without its packages.
    afterCreate: (dir) => void execFileSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 }),
    build: ["npm", "run", "build"],
    // Step 7's production server: the node-server build, with `.env` loaded (`vinxi start` does not).
    start: () => ["node", "--env-file=.env", ".output/server/index.mjs"],
    env: (url) => ({ AUTH_URL: url, PORT: new URL(url).port }),
    readyPath: "/api/auth/providers",
  })

  it("the page's create command asks create-solid for the basic SolidStart template, whose pinned copy is a SolidStart 1 app", () => {
    expect(createCommand("solid-start.md").words).toEqual(["npm", "create", "solid@latest", "my-app", "--", "--solidstart", "--template", "basic", "--ts"])
    expect(codeBlocks("solid-start.md").some(({ lang, text }) => lang === "sh" && text.includes("AUTH_URL=http://localhost:3000 node --env-file=.env .output/server/index.mjs"))).toBe(true)
    const template = JSON.parse(readFileSync(join(templates, "solid-start-basic/package.json"), "utf8")) as { dependencies: Record<string, string> }
    // authflow/solid-start's peer range is ^1.1: the template must stay on SolidStart 1.
    expect(template.dependencies["@solidjs/start"]).toMatch(/^\^1\./)
    expect(readFileSync(join(templates, "solid-start-basic/README.md"), "utf8")).toMatch(/create-solid 0\.12\.0/)
    const { dir } = walked.created
    expect(readFileSync(join(dir, "tsconfig.json"), "utf8")).toContain('"~/*"')
    expect([...walked.pasted].sort()).toEqual(["src/auth.ts", "src/routes/api/auth/[...solidauth].ts", "src/routes/index.tsx"])
    expect(readFileSync(join(dir, ".env"), "utf8")).toMatch(/^AUTH_SECRET=\S{32,}$/m)
    expect(errorLines(walked.buildLog)).toEqual([])
  })

  it("signs in and out as the page says, and the server logs no error while the signed-in page renders", async () => {
    const visit = await signInOnBuiltInPage(walked, "solid-start-getting-started-signed-in", "/api/auth")
    await visit.tab.getByRole("link", { name: "Sign out" }).click()
    await visit.tab.waitForURL((url) => url.pathname === "/api/auth/signout")
    await visit.tab.getByRole("button", { name: "Sign out" }).click()
    await expectSignedOut(walked, visit, "/api/auth/session")
  })
})
