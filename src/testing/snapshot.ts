/**
 * The snapshot file: every path's outcome, by path name, as JSON with a stable key order, meant
 * to be committed with the configuration it describes.
 *
 * @module
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { stableJson, type CaseOutcome } from "./outcome.js"

/** The format of the file; a file of another version is refused. */
export const snapshotVersion = 1

/** The contents of a snapshot file. */
export interface SnapshotFile {
  version: number
  /** Outcomes by path name. */
  paths: Record<string, CaseOutcome>
  /** Paths the configuration cannot reach, by name, with why. */
  unreachable: Record<string, string>
}

/**
 * Reads a snapshot file, or undefined when there is none yet.
 *
 * @example
 * ```ts
 * const previous = readSnapshot("auth.snap.json")?.paths["oauth github: account.new.noUser"]
 * ```
 */
export function readSnapshot(file: string): SnapshotFile | undefined {
  if (!existsSync(file)) return undefined
  const parsed = JSON.parse(readFileSync(file, "utf8")) as SnapshotFile
  if (parsed.version !== snapshotVersion) throw new Error(`authflow/testing: ${file} is a snapshot of version ${String(parsed.version)}, this kit writes version ${snapshotVersion}: run with --update`)
  return { version: parsed.version, paths: parsed.paths ?? {}, unreachable: parsed.unreachable ?? {} }
}

/**
 * Writes a snapshot file (keys sorted at every level, a newline at the end).
 *
 * @example
 * ```ts
 * writeSnapshot("auth.snap.json", { version: 1, paths, unreachable })
 * ```
 */
export function writeSnapshot(file: string, snapshot: SnapshotFile): void {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, `${stableJson(snapshot)}\n`)
}
