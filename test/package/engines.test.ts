/**
 * The Node versions package.json `engines` claims are the versions authflow and its tools install
 * and run on, and the versions the README and the docs state:
 *
 * - **Every package the lockfile installs accepts them.** npm checks each installed package's
 *   `engines.node` against the running Node and warns `EBADENGINE` when it is left out (as Node 20
 *   was by rollup-plugin-visualizer 7, a dev dependency through vinxi and nitropack, which wants
 *   Node 22). An optional package that does not fit is left out silently, so it is not checked.
 *   Every package is checked against the oldest Node claimed (what contributors on the oldest
 *   line and CI run) and the running one; production dependencies, which users install, against
 *   the first version of every release line the claim includes.
 * - **The README and the docs say the same**: every "Node 20.19+ or 22.12+" they state is built
 *   from `engines`, so a change to one without the other fails here.
 */
import { readFileSync, readdirSync } from "node:fs"
import { join } from "node:path"
import semver from "semver"
import { describe, expect, it } from "vitest"

const root = new URL("../..", import.meta.url).pathname
const read = (file: string) => readFileSync(join(root, file), "utf8")
const manifest = JSON.parse(read("package.json")) as { engines: { node: string } }
const claimed = new semver.Range(manifest.engines.node)

/** One entry of package-lock.json's `packages`. */
interface LockedPackage {
  version?: string
  dev?: boolean
  optional?: boolean
  engines?: Record<string, string> | string[]
}

/** The lowest version of `range` in release line `major` (`20` → 20.19.0 for `^20.19.0 || >=22.12.0`), or null. */
function firstIn(range: semver.Range, major: number): semver.SemVer | null {
  const found = range.set
    .map((comparators) => semver.minVersion(`${comparators.map((comparator) => comparator.value).join(" ")} >=${major}.0.0 <${major + 1}.0.0-0`))
    .filter((version): version is semver.SemVer => version !== null)
  return found.sort(semver.compare)[0] ?? null
}

/**
 * The Node versions that stand for a claim: the first version of each even (LTS) release line it
 * includes, from its lowest up to the newer of Node 24 and the running Node's line.
 */
function versionsClaimed(range: semver.Range, running: string): semver.SemVer[] {
  const lowest = semver.minVersion(range)
  if (!lowest) throw new Error(`engines.node ${range.raw} includes no version`)
  const newest = Math.max(24, semver.major(running))
  const lines: number[] = []
  for (let major = lowest.major; major <= newest; major++) if (major % 2 === 0 || major === semver.major(running)) lines.push(major)
  return lines.map((major) => firstIn(range, major)).filter((version): version is semver.SemVer => version !== null)
}

/**
 * The locked packages npm would warn about: `name@version wants node <range>, not <version>` for
 * each non-optional package whose `engines.node` leaves out one of `versions` (production
 * dependencies) or one of `devVersions` (dev dependencies).
 */
function enginesRefusing(packages: Record<string, LockedPackage>, versions: semver.SemVer[], devVersions: semver.SemVer[]): string[] {
  const refusals: string[] = []
  for (const [path, locked] of Object.entries(packages)) {
    if (path === "" || locked.optional || !locked.engines || Array.isArray(locked.engines) || !locked.engines.node) continue
    const wanted = locked.engines.node
    const name = path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length)
    for (const version of locked.dev ? devVersions : versions) {
      if (!semver.satisfies(version, wanted)) refusals.push(`${name}@${locked.version} wants node ${wanted}, not ${version.version}`)
    }
  }
  return refusals
}

describe("package.json engines", () => {
  const running = process.versions.node
  const versions = versionsClaimed(claimed, running)
  const oldest = versions[0]!
  const packages = (JSON.parse(read("package-lock.json")) as { packages: Record<string, LockedPackage> }).packages

  it("include the Node this runs on, and package-lock.json was written from them", () => {
    expect(semver.satisfies(running, claimed), `Node ${running} is not in engines.node ${claimed.raw}`).toBe(true)
    expect((packages[""]?.engines as Record<string, string> | undefined)?.node).toBe(manifest.engines.node)
  })

  it("are accepted by every package the lockfile installs: no EBADENGINE on the oldest Node claimed or this one", () => {
    const devVersions = [oldest, semver.parse(running)!]
    expect(versions.map((version) => version.version)).toContain(oldest.version)
    expect(enginesRefusing(packages, versions, devVersions)).toEqual([])
  })

  it("catch a locked package that leaves out a claimed Node, and skip optional ones as npm does", () => {
    const locked: Record<string, LockedPackage> = {
      "": { engines: { node: manifest.engines.node } },
      "node_modules/nitropack/node_modules/rollup-plugin-visualizer": { version: "7.1.3", dev: true, engines: { node: ">=22" } },
      "node_modules/jose": { version: "6.2.17", engines: { node: "^22 || >=24" } },
      "node_modules/@napi-rs/lzma-linux-x64-gnu": { version: "1.5.1", dev: true, optional: true, engines: { node: "^22.20 || ^24.12 || >=25" } },
      "node_modules/semver": { version: "7.8.6", dev: true, engines: { node: ">=10" } },
    }
    expect(enginesRefusing(locked, [semver.parse("20.19.0")!, semver.parse("24.0.0")!], [semver.parse("20.19.0")!])).toEqual([
      "rollup-plugin-visualizer@7.1.3 wants node >=22, not 20.19.0",
      "jose@6.2.17 wants node ^22 || >=24, not 20.19.0",
    ])
    expect(versionsClaimed(new semver.Range("^20.19.0 || >=22.12.0"), "20.20.2").map(String)).toEqual(["20.19.0", "22.12.0", "24.0.0"])
    expect(versionsClaimed(new semver.Range(">=20"), "25.1.0").map(String)).toEqual(["20.0.0", "22.0.0", "24.0.0", "25.0.0"])
  })

  it("are what the README and the docs say a user needs", () => {
    // "20.19+ or 22.12+": the lowest version of each part of the claim.
    const requirement = claimed.set
      .map((comparators) => semver.minVersion(comparators.map((comparator) => comparator.value).join(" "))!)
      .sort(semver.compare)
      .map((version) => `${version.major}${version.minor || version.patch ? `.${version.minor}` : ""}${version.patch ? `.${version.patch}` : ""}+`)
      .join(" or ")
    const pages = ["README.md", ...readdirSync(join(root, "docs/getting-started")).filter((name) => name.endsWith(".md")).map((name) => `docs/getting-started/${name}`), "docs/guides/deployment.md"]
    // Any "Node 20 or later", "Node 20+", "Node.js v22.12+ or 24+" a page states.
    const statement = /\bNode(?:\.js)? v?\d+(?:\.\d+){0,2}(?:\+| or later)(?:,? or v?\d+(?:\.\d+){0,2}(?:\+| or later))*/g
    const stated = pages.flatMap((page) => [...read(page).matchAll(statement)].map((match) => ({ page, text: match[0] })))
    expect(stated.filter(({ text }) => text !== `Node ${requirement}`)).toEqual([])
    for (const page of ["README.md", "docs/getting-started/index.md", "docs/getting-started/node.md", "docs/guides/deployment.md"]) {
      expect(stated.map(({ page }) => page), `${page} states the Node versions authflow needs`).toContain(page)
    }
  })
})
