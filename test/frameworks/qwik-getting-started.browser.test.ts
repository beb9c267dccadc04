/**
 * docs/getting-started/qwik.md walked as a new user would: the app made by `npm create qwik` (the
 * version the page's `qwik@latest` gives today, resolved on the npm registry) from its `empty`
 * starter, then the page's `npm install` (the create tool does not install); the packed authflow
 * tarball installed; the page's files pasted from its code blocks (its `vite.config.ts` too) and its
 * secret step run; `npx qwik build preview`, then `npx vite preview` with `AUTH_URL`, as step 7 says for
 * production; signed in through authflow's built-in sign-in page and out through the page's
 * `useSignOut()` form in Chromium, with no error in the server log. Prints the time from the create
 * command to a signed-in page. The created app comes from a cache after the first run
 * (getting-started.ts).
 */
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { browserSuite } from "../support/chromium.js"
import { createCommand, errorLines, expectSignedOut, signInOnBuiltInPage, walkGettingStarted } from "./getting-started.js"

browserSuite("docs/getting-started/qwik.md, from npm create qwik to a signed-in page in Chromium", () => {
  const walked = walkGettingStarted({
    page: "qwik.md",
    framework: "Qwik",
    // As the page says (`npm create qwik@latest empty my-app`), pinned to the version `latest` gives today.
    create: (pinned, words) => ["npm", "create", pinned, ...words.slice(3)],
    // The page's `cd my-app && npm install`: the starter comes without its packages.
    afterCreate: (dir) => void execFileSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 }),
    // `qwik build preview`: the client and the preview server (`npm run build` alone builds no server).
    build: ["npx", "qwik", "build", "preview"],
    start: (port) => ["npx", "vite", "preview", "--port", String(port), "--strictPort"],
    env: (url) => ({ AUTH_URL: url }),
    readyPath: "/auth/providers",
  })

  it("the page's create command makes the empty starter, and its vite.config.ts bundles authflow", () => {
    expect(createCommand("qwik.md").words).toEqual(["npm", "create", "qwik@latest", "empty", "my-app"])
    const { dir } = walked.created
    expect(readFileSync(join(dir, "package.json"), "utf8")).toContain('"@builder.io/qwik-city"')
    expect([...walked.pasted].sort()).toEqual(["src/routes/index.tsx", "src/routes/plugin@auth.ts", "vite.config.ts"])
    expect(readFileSync(join(dir, "vite.config.ts"), "utf8")).toContain('ssr: { noExternal: ["authflow"] }')
    expect(readFileSync(join(dir, ".env"), "utf8")).toMatch(/^AUTH_SECRET=\S{32,}$/m)
    expect(errorLines(walked.buildLog)).toEqual([])
  })

  it("signs in and out as the page says, and the server logs no error while the signed-in page renders", async () => {
    const visit = await signInOnBuiltInPage(walked, "qwik-getting-started-signed-in")
    // The page's own sign-out: a <Form> posting to useSignOut(), back to "/".
    await visit.tab.getByRole("button", { name: "Sign out" }).click()
    await expectSignedOut(walked, visit, "/auth/session")
  })
})
