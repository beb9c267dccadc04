#!/usr/bin/env node
/**
 * The `authflow` command.
 *
 *   authflow machines [--format json|mermaid|dot] [--machine <id>]…
 *   authflow test <config module> [--update]
 *   authflow secret
 *
 * prints the flow machines' definitions: `json`, a serialisable description (states, nested
 * states, transitions with event, guard and target, effects); `mermaid`, a `stateDiagram-v2`;
 * `dot`, a Graphviz digraph (`authflow machines --format dot | dot -Tsvg > machines.svg`).
 *
 * `test` runs the model-based regression tests of `authflow/testing` on a configuration module
 * and compares every path's outcome with its snapshot file (see `src/testing/cli.ts`).
 *
 * `secret` prints a new random secret for `AUTH_SECRET`: 33 random bytes, base64 (44 characters),
 * as `openssl rand -base64 33` gives.
 *
 * @example
 * ```sh
 * npx authflow machines --format mermaid --machine credentials-sign-in
 * ```
 * @module
 */
import { randomBytes } from "node:crypto"
import { describeMachine } from "./inspect/describe.js"
import { toDot, toMermaid } from "./inspect/formats.js"
import { authflowMachines } from "./inspect/machines.js"

const formats = ["json", "mermaid", "dot"] as const
type Format = (typeof formats)[number]

const usage = `Usage: authflow machines [--format json|mermaid|dot] [--machine <id>]...

Prints the definitions of authflow's flow machines.
  --format   json (default): states, nested states, transitions (event, guard, targets), effects
             mermaid: a Mermaid stateDiagram-v2
             dot: a Graphviz digraph
  --machine  only this machine (repeatable): ${authflowMachines.map((machine) => machine.id).join(", ")}

       authflow test <config module> [--update]

Drives every path of every flow machine the configuration uses through Auth() and compares the
outcomes with the module's snapshot file (authflow test --help says more).

       authflow secret

Prints a new random secret for AUTH_SECRET (echo "AUTH_SECRET=$(npx authflow secret)" >> .env.local).
In production every secret needs at least 32 characters; the ones it prints have 44.
`

// Not an AuthError: it never leaves this file; main() catches it and prints the message with the usage, exiting 2.
class UsageError extends Error {}

function parse(args: string[]): { format: Format; machines: string[] } | "help" {
  const [command, ...rest] = args
  if (command === undefined || command === "help" || command === "--help" || command === "-h") return "help"
  if (command !== "machines") throw new UsageError(`Unknown command "${command}".`)
  let format: Format = "json"
  const machines: string[] = []
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!
    if (arg === "--help" || arg === "-h") return "help"
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined]
    const value = () => {
      const next = inline ?? rest[++i]
      if (next === undefined) throw new UsageError(`${flag} needs a value.`)
      return next
    }
    if (flag === "--format" || flag === "-f") {
      const chosen = value()
      if (!(formats as readonly string[]).includes(chosen)) throw new UsageError(`Unknown format "${chosen}": use json, mermaid or dot.`)
      format = chosen as Format
    } else if (flag === "--machine" || flag === "-m") {
      const id = value()
      if (!authflowMachines.some((machine) => machine.id === id)) throw new UsageError(`Unknown machine "${id}".`)
      machines.push(id)
    } else {
      throw new UsageError(`Unknown option "${arg}".`)
    }
  }
  return { format, machines }
}

function main(args: string[]): number {
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(args)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    process.stderr.write(`authflow: ${error.message}\n\n${usage}`)
    return 2
  }
  if (parsed === "help") {
    process.stdout.write(usage)
    return 0
  }
  const { format, machines } = parsed
  const chosen = authflowMachines.filter((machine) => machines.length === 0 || machines.includes(machine.id))
  const descriptions = chosen.map(describeMachine)
  const output = format === "json" ? `${JSON.stringify({ machines: descriptions }, null, 2)}\n` : format === "mermaid" ? toMermaid(descriptions) : toDot(descriptions)
  process.stdout.write(output)
  return 0
}

const [command, ...rest] = process.argv.slice(2)
if (command === "test") {
  // Loaded only for this command: it brings the model-test machinery along.
  const { testCommand } = await import("./testing/cli.js")
  // Exit explicitly: a configuration may hold connections (a database pool) open.
  process.exit(await testCommand(rest))
} else if (command === "secret" && rest.length === 0) {
  process.stdout.write(`${randomBytes(33).toString("base64")}\n`)
} else {
  process.exitCode = main(process.argv.slice(2))
}
