/**
 * A framework's getting-started page (docs/getting-started/<page>.md) walked as a new user would:
 * the app made by the framework's own create tool from the npm registry at its current defaults,
 * the packed authflow tarball installed into it, the page's files pasted from its code blocks (so
 * the page is what is tested), its secret step run, then the production build and server. The
 * browser part is the test's own. A create tool that downloads its template from outside the npm
 * registry cannot run here: its page's test copies a pinned copy of what the tool makes, from
 * test/frameworks/templates/, in its place (`GettingStartedPage.template`).
 *
 * Creating an app downloads a few hundred packages: the created app is kept, per create tool
 * version, in a cache (`AUTHFLOW_CREATE_CACHE`, default `~/.cache/authflow/create-apps`), and each
 * run works on a copy. The cache also keeps how long the create command took, so the time from the
 * create command to a signed-in page is reported on a cached run too (marked as such).
 */
import { execFileSync, spawn, spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { createServer as createHttpServer } from "node:http"
import { homedir, tmpdir } from "node:os"
import { dirname, join } from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, expect } from "vitest"
import { launchChromium } from "../support/chromium.js"
import { freePort, root, screenshots, startServer } from "./example-app.js"

/** A shell command of the page, split into words (the pages use no quoting in these). */
function words(line: string): string[] {
  return line.trim().split(/\s+/)
}

/** The code blocks of a getting-started page, with their language. */
export function codeBlocks(page: string): { lang: string; text: string }[] {
  const markdown = readFileSync(join(root, "docs/getting-started", page), "utf8")
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)].map((match) => ({ lang: match[1]!, text: match[2]! }))
}

/**
 * The files the page tells the user to write: every ts/tsx/js/svelte block whose first line is a
 * comment naming a path (`// app/page.tsx`, `<!-- src/routes/+page.svelte -->`), by that path.
 */
export function pageFiles(page: string): Map<string, string> {
  const files = new Map<string, string>()
  for (const { lang, text } of codeBlocks(page)) {
    if (!/^(ts|tsx|js|jsx|svelte|html)$/.test(lang)) continue
    const named = /^(?:\/\/|<!--)\s*([\w.@[\]()+~-]+(?:\/[\w.@[\]()+~-]+)*\.\w+)/.exec(text)
    if (named) files.set(named[1]!, text)
  }
  if (files.size === 0) throw new Error(`docs/getting-started/${page} has no code block that starts with a comment naming its file`)
  return files
}

/** The create command of a page: as written, and the package it runs with the range the page asks for. */
export interface PageCreateCommand {
  words: string[]
  /** The npm package (`create-next-app`; `npm create qwik` runs `create-qwik`). */
  name: string
  /** The range the page asks for (`16`, `latest`); `latest` when it names none. */
  range: string
}

/** The page's first ```sh block's first line: its create command (`npx <tool>@<range> …` or `npm create <name>@<range> …`). */
export function createCommand(page: string): PageCreateCommand {
  const block = codeBlocks(page).find(({ lang }) => lang === "sh")
  if (!block) throw new Error(`docs/getting-started/${page} has no \`\`\`sh block with the create command`)
  const line = words(block.text.split("\n")[0]!)
  const tool = line[0] === "npx" ? line[1] : line[0] === "npm" && line[1] === "create" ? line[2] : undefined
  if (!tool) throw new Error(`docs/getting-started/${page}: the first \`\`\`sh line is not npx or npm create: ${line.join(" ")}`)
  const at = tool.lastIndexOf("@")
  const bare = at > 0 ? tool.slice(0, at) : tool
  return { words: line, name: line[0] === "npm" ? `create-${bare}` : bare, range: at > 0 ? tool.slice(at + 1) : "latest" }
}

/** The page's ```sh line that writes the secret (`echo "AUTH_SECRET=$(npx authflow secret)" >> …`). */
export function secretStep(page: string): string {
  const line = codeBlocks(page)
    .filter(({ lang }) => lang === "sh")
    .flatMap(({ text }) => text.split("\n"))
    .find((text) => text.includes("npx authflow secret"))
  if (!line) throw new Error(`docs/getting-started/${page} has no \`\`\`sh line running \`npx authflow secret\``)
  return line
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, stdio: ["ignore", "pipe", "pipe"] })
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} (in ${cwd}) failed (${result.status ?? result.signal}):\n${output}`)
  return output
}

/** The version a package specifier (`create-next-app@latest`, `sv@0.9`) resolves to on the registry now. */
export function resolvedVersion(name: string, range: string): string {
  const versions = JSON.parse(run("npm", ["view", `${name}@${range}`, "version", "--json"], tmpdir())) as string | string[]
  return Array.isArray(versions) ? versions.at(-1)! : versions
}

const cacheRoot = process.env.AUTHFLOW_CREATE_CACHE ?? join(homedir(), ".cache/authflow/create-apps")

/** An app made by a create tool: where its copy for this run is, and how long creating it took. */
export interface CreatedApp {
  dir: string
  /** The create command as run, with the resolved version. */
  command: string[]
  createMs: number
  /** Whether the app came from the cache (then `createMs` is the time it took when it was made). */
  cached: boolean
}

/**
 * Runs `command` (`npx <tool>@<version> my-app …`) in a fresh directory once per `key`, keeps
 * the app it made in the cache, and copies it into `work`. `then` runs after the command, on the
 * app that goes into the cache (`npm install` when the tool does not install).
 */
export function createApp(key: string, command: string[], work: string, then: (dir: string) => void = () => {}): CreatedApp {
  const cached = join(cacheRoot, key)
  const meta = join(cached, ".authflow-created.json")
  let fromCache = existsSync(meta)
  if (!fromCache) {
    const scratch = mkdtempSync(join(tmpdir(), "authflow-create-"))
    const began = Date.now()
    // CI=1 keeps create tools from prompting; no git: the test never commits.
    run(command[0]!, command.slice(1), scratch, { ...process.env, CI: "1", npm_config_yes: "true" })
    const made = join(scratch, "my-app")
    if (!existsSync(join(made, "package.json"))) throw new Error(`${command.join(" ")} made no my-app/package.json in ${scratch}`)
    then(made)
    writeFileSync(join(made, ".authflow-created.json"), JSON.stringify({ command, createMs: Date.now() - began }))
    mkdirSync(dirname(cached), { recursive: true })
    rmSync(cached, { recursive: true, force: true })
    renameSync(made, cached)
    rmSync(scratch, { recursive: true, force: true })
  }
  const { createMs } = JSON.parse(readFileSync(meta, "utf8")) as { createMs: number }
  const dir = join(work, "my-app")
  // `cp -a` keeps node_modules/.bin's symbolic links and is several times faster than cpSync here.
  run("cp", ["-a", cached, dir], work)
  rmSync(join(dir, ".authflow-created.json"))
  return { dir, command, createMs, cached: fromCache }
}

/** Feeds every file under `path` (a file or a folder), path and content, to `hash`. */
function hashTree(hash: ReturnType<typeof createHash>, path: string): void {
  if (!statSync(path).isDirectory()) {
    hash.update(`${path}\0`).update(readFileSync(path))
    return
  }
  for (const entry of readdirSync(path).sort()) hashTree(hash, join(path, entry))
}

/** What a clone holds that `npm pack` reads. */
const packed = ["package.json", "README.md", "LICENSE", "tsconfig.json", "tsconfig.build.json", "src", "scripts"]

/**
 * The authflow tarball as `npm pack` makes it from a fresh copy of the repository (no `dist`), as in
 * test/package/install.test.ts; kept in the temporary directory per content of the packed files, so
 * the getting-started tests of a run pack once.
 */
export function packAuthflow(): string {
  const hash = createHash("sha256")
  for (const entry of packed) hashTree(hash, join(root, entry))
  const dir = join(tmpdir(), `authflow-pack-${hash.digest("hex").slice(0, 16)}`)
  const tarball = join(dir, "authflow.tgz")
  if (existsSync(tarball)) return tarball
  const work = mkdtempSync(join(tmpdir(), "authflow-pack-work-"))
  const clone = join(work, "clone")
  for (const entry of packed) cpSync(join(root, entry), join(clone, entry), { recursive: true })
  symlinkSync(join(root, "node_modules"), join(clone, "node_modules"))
  const [{ filename }] = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", work], { cwd: clone, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })) as [{ filename: string }]
  mkdirSync(dir, { recursive: true })
  // Renamed into place: a getting-started test packing at the same time never sees half a tarball.
  renameSync(join(work, filename!), `${tarball}.${process.pid}`)
  renameSync(`${tarball}.${process.pid}`, tarball)
  rmSync(work, { recursive: true, force: true })
  return tarball
}

/** Installs the tarball as the page's step 2 does (`npm install <tarball>`), from the npm cache where it can. */
export function installAuthflow(app: string, tarball: string): void {
  run("npm", ["install", tarball, "--prefer-offline", "--no-audit", "--no-fund"], app)
}

/** Writes the page's files into the app, and returns their paths. */
export function pasteFiles(app: string, page: string): string[] {
  const files = pageFiles(page)
  for (const [path, text] of files) {
    mkdirSync(dirname(join(app, path)), { recursive: true })
    writeFileSync(join(app, path), text)
  }
  return [...files.keys()]
}

/** Runs the page's secret step in the app with `sh`, as written, and returns the line it ran. */
export function runSecretStep(app: string, page: string): string {
  const line = secretStep(page)
  run("sh", ["-c", line], app)
  return line
}

/**
 * Runs a build command in the app (NODE_ENV=production) and returns its output; without blocking
 * this process, which may be serving the build (the Google Fonts stand-in).
 */
export async function build(app: string, command: string[], env: Record<string, string> = {}): Promise<string> {
  const child = spawn(command[0]!, command.slice(1), { cwd: app, env: { ...withoutAuthEnv(), NODE_ENV: "production", ...env }, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  child.stdout.on("data", (chunk: Buffer) => void (output += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => void (output += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve))
  if (code !== 0) throw new Error(`${command.join(" ")} (in ${app}) failed (${code}):\n${output}`)
  return output
}

/** The test runner's environment without the settings a page tells the user to write (AUTH_*, NODE_ENV). */
function withoutAuthEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("AUTH_") && name !== "NODE_ENV" && name !== "CI"))
}

/** A running server of the app, with what it has logged. */
export interface AppServer {
  url: string
  /** Everything logged so far. */
  output: () => string
  close: () => Promise<void>
}

/**
 * Starts the app's production server (`command`, in its own process group) and waits until
 * `readyPath` answers.
 */
export function startApp(app: string, command: string[], url: string, readyPath: string, env: Record<string, string>): Promise<AppServer> {
  return startServer(command.join(" "), command, { cwd: app, env: { ...withoutAuthEnv(), NODE_ENV: "production", ...env }, url, readyPath })
}

/**
 * Lines of a log that report an error: authflow's `[auth][error]`, an `Error:` or `TypeError:`,
 * Next.js's `⨯`, a line that starts with `error` (not a file named `error.js` in a build's list).
 */
export function errorLines(log: string): string[] {
  return log.split("\n").filter((line) => /\[auth\]\[error\]|\b[A-Za-z]*Error:|⨯/.test(line) || /^\W*error\b(?![-.\w])/i.test(line))
}

/**
 * A stand-in for Google Fonts, for `next/font/google` in a build without the internet: a loopback
 * server for the font files, and the module Next.js reads the stylesheets from when
 * `NEXT_FONT_GOOGLE_MOCKED_RESPONSES` names it (its own hook for offline builds). One variable face
 * (weights 100–900) per family the app's `app/layout.tsx` imports from `next/font/google`.
 */
export async function googleFontsStandIn(app: string, work: string): Promise<{ env: Record<string, string>; close: () => Promise<void> }> {
  const layout = readFileSync(join(app, "app/layout.tsx"), "utf8")
  const imported = /import\s*\{([^}]*)\}\s*from\s*["']next\/font\/google["']/.exec(layout)?.[1] ?? ""
  const families = imported.split(",").map((name) => name.trim().replaceAll("_", " ")).filter(Boolean)
  const server = createHttpServer((_request, response) => response.writeHead(200, { "content-type": "font/woff2" }).end(Buffer.from("wOF2 stand-in")))
  const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)))
  const responses = Object.fromEntries(
    families.map((family) => [
      `https://fonts.googleapis.com/css2?family=${family.replaceAll(" ", "+")}:wght@100..900&display=swap`,
      `@font-face { font-family: '${family}'; font-style: normal; font-weight: 100 900; font-display: swap; src: url(http://127.0.0.1:${port}/${family.replaceAll(" ", "-")}.woff2) format('woff2'); }`,
    ]),
  )
  const module = join(work, "google-fonts.cjs")
  writeFileSync(module, `module.exports = ${JSON.stringify(responses, null, 2)}\n`)
  return { env: { NEXT_FONT_GOOGLE_MOCKED_RESPONSES: module }, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

/** What differs between the getting-started pages. */
export interface GettingStartedPage {
  /** The file under docs/getting-started/. */
  page: string
  /** How the framework is named in the report. */
  framework: string
  /**
   * The create command to run: the page's words with the tool pinned (`create-next-app@16.4.3`),
   * plus what a test needs (no git, no prompts). Not with `template`.
   */
  create?: (pinned: string, words: string[]) => string[]
  /**
   * A create tool that downloads its template from outside the npm registry (create-solid: from
   * GitHub) cannot run here: the folder under test/frameworks/templates/ that holds a pinned copy of
   * what it makes, copied as `my-app` in place of the create command (`create` is then not run).
   */
  template?: string
  /** Run once after creating, on the app that goes into the cache (the page's `npm install`). */
  afterCreate?: (dir: string) => void
  /** The build command, and what it needs from this process while it runs (a stand-in server). */
  build: string[]
  buildAid?: (dir: string, work: string) => Promise<{ env: Record<string, string>; close: () => Promise<void> }>
  /** The production server for a port, and the environment the page says it needs at `url`. */
  start: (port: number) => string[]
  env: (url: string) => Record<string, string>
  /** A path that answers 2xx once the server is ready. */
  readyPath: string
}

/** The walked page once `beforeAll` has run. */
export interface WalkedPage {
  readonly created: CreatedApp
  readonly pasted: string[]
  readonly buildLog: string
  readonly server: AppServer
  readonly browser: Browser
  /** Ends the timing at a signed-in page and prints the report. */
  signedIn: () => void
}

/** The page's create command with the tool pinned to the version its range gives today, and its cache key. */
function createToolRun(spec: GettingStartedPage): { key: string; command: string[] } {
  const { words, name, range } = createCommand(spec.page)
  if (!spec.create) throw new Error(`docs/getting-started/${spec.page}: the test names neither a create command nor a pinned template`)
  const version = resolvedVersion(name, range)
  return { key: `${name}-${version}`, command: spec.create(`${words[0] === "npm" ? name.replace(/^create-/, "") : name}@${version}`, words) }
}

/** Where the pinned copies of create tools' templates are. */
export const templates = join(root, "test/frameworks/templates")

/** Copying a pinned template as `my-app`, cached per content of the template. */
function templateCopy(template: string): { key: string; command: string[] } {
  const hash = createHash("sha256")
  hashTree(hash, join(templates, template))
  return { key: `template-${template}-${hash.digest("hex").slice(0, 16)}`, command: ["cp", "-a", join(templates, template), "my-app"] }
}

/**
 * Registers the `beforeAll` that walks the page up to a running server and a browser (create,
 * install the tarball, paste, secret, build, start) and the `afterAll` that stops both; call it
 * inside the suite's body.
 */
export function walkGettingStarted(spec: GettingStartedPage): WalkedPage {
  const work = mkdtempSync(join(tmpdir(), `authflow-getting-started-${spec.page.replace(/\.md$/, "")}-`))
  const seconds: [string, number][] = []
  let lapStarted = 0
  const lap = (name: string) => {
    seconds.push([name, Math.round((Date.now() - lapStarted) / 100) / 10])
    lapStarted = Date.now()
  }
  let state: Omit<WalkedPage, "signedIn"> | undefined
  let server: AppServer | undefined
  let browser: Browser | undefined

  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true })
    const tarball = packAuthflow()
    const { key, command } = spec.template ? templateCopy(spec.template) : createToolRun(spec)
    lapStarted = Date.now()
    const created = createApp(key, command, work, spec.afterCreate)
    lap("copy of the created app")
    installAuthflow(created.dir, tarball)
    lap("npm install authflow")
    const pasted = pasteFiles(created.dir, spec.page)
    runSecretStep(created.dir, spec.page)
    lap("paste and secret")
    const aid = await spec.buildAid?.(created.dir, work)
    let buildLog: string
    try {
      buildLog = await build(created.dir, spec.build, aid?.env)
    } finally {
      await aid?.close()
    }
    lap(spec.build.join(" "))
    const port = await freePort()
    const url = `http://localhost:${port}`
    server = await startApp(created.dir, spec.start(port), url, spec.readyPath, spec.env(url))
    const started = spec.start(port)
    lap(started.slice(0, started.includes("--") ? started.indexOf("--") : undefined).join(" "))
    browser = await launchChromium()
    state = { created, pasted, buildLog, server, browser }
  }, 900_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    rmSync(work, { recursive: true, force: true })
  })

  const ready = () => {
    if (!state) throw new Error(`docs/getting-started/${spec.page}: the walk did not reach a running app (beforeAll failed)`)
    return state
  }
  return {
    get created() {
      return ready().created
    },
    get pasted() {
      return ready().pasted
    },
    get buildLog() {
      return ready().buildLog
    },
    get server() {
      return ready().server
    },
    get browser() {
      return ready().browser
    },
    signedIn() {
      lap("sign in in Chromium")
      const { created } = ready()
      const create = Math.round(created.createMs / 100) / 10
      // The copy stands for the create command on a cached run, and contains it on a fresh one.
      const rest = seconds.filter(([name]) => name !== "copy of the created app").reduce((sum, [, value]) => sum + value, 0)
      console.log(
        `[getting-started] ${spec.framework}: ${spec.template ? `cp -a test/frameworks/templates/${spec.template} my-app (and the page's npm install)` : created.command.join(" ")} ${create} s${created.cached ? " (when it was made; cached since)" : ""}, ` +
          `${seconds.map(([name, value]) => `${name} ${value} s`).join(", ")}; from the ${spec.template ? "template copy" : "create command"} to a signed-in page: ${(create + rest).toFixed(1)} s`,
      )
    },
  }
}

/** A fresh browser context on a walked app's home page, with the page errors its tab has seen. */
export interface Visit {
  context: BrowserContext
  tab: Page
  pageErrors: string[]
}

/**
 * Opens the app's home page, which must say "Not signed in.", follows its "Sign in" link to
 * authflow's built-in page at `<basePath>/signin`, and signs in as `ada` / `lovelace`: back home it must
 * say "Hello Ada Lovelace." (timed as the signed-in page), again on a fresh request, with no error
 * line in the server's log meanwhile. Saves a screenshot as `<screenshot>.png`.
 */
export async function signInOnBuiltInPage(walked: WalkedPage, screenshot: string, basePath = "/auth"): Promise<Visit> {
  const { server, browser } = walked
  const base = server.url
  const context = await browser.newContext()
  const tab = await context.newPage()
  const pageErrors: string[] = []
  tab.on("pageerror", (error) => pageErrors.push(error.message))

  await tab.goto(`${base}/`)
  await expect.poll(() => tab.locator("body").innerText()).toContain("Not signed in.")
  await tab.getByRole("link", { name: "Sign in" }).click()
  await tab.waitForURL((url) => url.pathname === `${basePath}/signin`)
  const logBefore = server.output().length
  await tab.getByLabel("Username").fill("ada")
  await tab.getByLabel("Password").fill("lovelace")
  await tab.getByRole("button", { name: /Sign in/ }).click()
  await tab.waitForURL(`${base}/`)
  await expect.poll(() => tab.locator("body").innerText()).toContain("Hello Ada Lovelace.")
  walked.signedIn()
  await tab.reload()
  await expect.poll(() => tab.locator("body").innerText()).toContain("Hello Ada Lovelace.")
  await tab.screenshot({ path: `${screenshots}${screenshot}.png` })
  const signedInLog = server.output().slice(logBefore)
  expect(errorLines(signedInLog), signedInLog).toEqual([])
  return { context, tab, pageErrors }
}

/**
 * After signing out: the page says "Not signed in.", `sessionPath` answers `null`, the tab saw no
 * page error and the server logged no error line; then closes the context.
 */
export async function expectSignedOut(walked: WalkedPage, { context, tab, pageErrors }: Visit, sessionPath: string): Promise<void> {
  await expect.poll(() => tab.locator("body").innerText()).toContain("Not signed in.")
  expect((await (await context.request.get(`${walked.server.url}${sessionPath}`)).json()) as unknown).toBeNull()
  expect(pageErrors).toEqual([])
  expect(errorLines(walked.server.output())).toEqual([])
  await context.close()
}
