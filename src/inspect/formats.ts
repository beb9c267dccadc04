import type { MachineDescription, StateDescription, TransitionDescription } from "./describe.js"

function transitionText(transition: TransitionDescription): string {
  return transition.guard ? `${transition.label} [${transition.guard}]` : transition.label
}

// ── Mermaid ─────────────────────────────────────────────────────────────────────────────────────

/** Mermaid state ids allow letters, digits and underscores only: the machine id prefixes them, so no two machines clash. */
function mermaidId(machine: string, path: string): string {
  const clean = (text: string) => text.replace(/[^A-Za-z0-9_]/g, "_")
  return path ? `${clean(machine)}__${clean(path.replace(/\./g, "__"))}` : clean(machine)
}

function mermaidText(text: string): string {
  return text.replace(/[\r\n]+/g, " ").replace(/"/g, "'").replace(/[;#]/g, " ")
}

function parentOf(path: string): string {
  const dot = path.lastIndexOf(".")
  return dot === -1 ? "" : path.slice(0, dot)
}

/** The innermost scope (composite state, "" for the machine) holding both ends of a transition. */
function scopeOf(source: string, target: string): string {
  const a = parentOf(source).split(".")
  const b = parentOf(target).split(".")
  const common: string[] = []
  for (let i = 0; i < Math.min(a.length, b.length) && a[i] === b[i] && a[i] !== ""; i++) common.push(a[i]!)
  return common.join(".")
}

/** The source of a machine-level transition, which xstate takes from any state. */
const anyState = "(any)"

interface ScopedTransition {
  source: string
  target: string
  text: string
}

function mermaidScope(machine: string, states: StateDescription[], initial: string | undefined, scope: string, isParallel: boolean, edges: Map<string, ScopedTransition[]>, indent: string, lines: string[]): void {
  if (initial && !isParallel) lines.push(`${indent}[*] --> ${mermaidId(machine, initial)}`)
  if (scope === "" && edges.get("")?.some((edge) => edge.source === anyState)) lines.push(`${indent}state "any state" as ${mermaidId(machine, anyState)}`)
  states.forEach((state, index) => {
    const id = mermaidId(machine, state.path)
    if (isParallel && index > 0) lines.push(`${indent}--`)
    lines.push(`${indent}state "${mermaidText(state.key)}" as ${id}`)
    if (state.effect) lines.push(`${indent}${id} : effect ${mermaidText(state.effect)}`)
    for (const transition of state.transitions) {
      if (transition.targets.length === 0) lines.push(`${indent}${id} : on ${mermaidText(transitionText(transition))}`)
    }
    if (state.states.length > 0) {
      lines.push(`${indent}state ${id} {`)
      mermaidScope(machine, state.states, state.initial, state.path, state.type === "parallel", edges, `${indent}  `, lines)
      lines.push(`${indent}}`)
    }
    if (state.type === "final") lines.push(`${indent}${id} --> [*]`)
  })
  for (const edge of edges.get(scope) ?? []) {
    lines.push(`${indent}${mermaidId(machine, edge.source)} --> ${mermaidId(machine, edge.target)} : ${mermaidText(edge.text)}`)
  }
}

function scopedTransitions(machine: MachineDescription): Map<string, ScopedTransition[]> {
  const edges = new Map<string, ScopedTransition[]>()
  const add = (source: string, transitions: TransitionDescription[]) => {
    for (const transition of transitions) {
      for (const target of transition.targets) {
        // A machine-level transition leaves from wherever the flow is: drawn from an "any state" box.
        const scope = source === "" ? "" : scopeOf(source, target)
        const list = edges.get(scope) ?? []
        list.push({ source: source === "" ? anyState : source, target, text: transitionText(transition) })
        edges.set(scope, list)
      }
    }
  }
  add("", machine.transitions)
  const visit = (states: StateDescription[]) => {
    for (const state of states) {
      add(state.path, state.transitions)
      visit(state.states)
    }
  }
  visit(machine.states)
  return edges
}

/**
 * The machines as one Mermaid `stateDiagram-v2`: each machine a composite state, nested states
 * nested, transitions labelled `event [guard]` (declared in the innermost composite holding both
 * ends, as Mermaid requires), the effect of each state in its description, final states leading
 * to `[*]`.
 *
 * @example
 * ```ts
 * import { authflowMachines, describeMachine, toMermaid } from "authflow/inspect"
 * console.log(toMermaid(authflowMachines.map(describeMachine)))
 * // stateDiagram-v2
 * //   state "credentials-sign-in" as credentials_sign_in
 * //   state credentials_sign_in {
 * //     [*] --> credentials_sign_in__validatingInput …
 * ```
 * @see https://mermaid.js.org/syntax/stateDiagram.html
 */
export function toMermaid(machines: readonly MachineDescription[]): string {
  const lines = ["stateDiagram-v2"]
  for (const machine of machines) {
    const id = mermaidId(machine.id, "")
    lines.push(`  state "${mermaidText(machine.id)}" as ${id}`)
    lines.push(`  state ${id} {`)
    mermaidScope(machine.id, machine.states, machine.initial, "", false, scopedTransitions(machine), "    ", lines)
    lines.push("  }")
  }
  return `${lines.join("\n")}\n`
}

// ── Graphviz DOT ────────────────────────────────────────────────────────────────────────────────

function dotString(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\r?\n/g, "\\n")}"`
}

function dotNode(machine: string, path: string): string {
  return dotString(`${machine}/${path}`)
}

/** The node an edge attaches to: the state itself, or for a compound state its initial marker inside its cluster. */
function dotAnchor(machine: string, path: string, compound: ReadonlySet<string>): { node: string; cluster?: string } {
  if (!compound.has(path)) return { node: dotNode(machine, path) }
  return { node: dotNode(machine, `${path}/[*]`), cluster: dotString(`cluster_${machine}/${path}`) }
}

function dotStates(machine: string, states: StateDescription[], initial: string | undefined, parentPath: string, indent: string, lines: string[], compound: Set<string>): void {
  // Every composite has a marker node inside its cluster, for edges into or out of it: the initial
  // state's dot, or an invisible point for a parallel state.
  const start = dotNode(machine, `${parentPath}/[*]`)
  lines.push(`${indent}${start} [shape=point, width=0.15, label=""${initial ? "" : ", style=invis"}];`)
  if (initial) {
    const target = dotAnchor(machine, initial, compound)
    lines.push(`${indent}${start} -> ${target.node}${target.cluster ? ` [lhead=${target.cluster}]` : ""};`)
  }
  for (const state of states) {
    if (state.states.length > 0) {
      lines.push(`${indent}subgraph ${dotString(`cluster_${machine}/${state.path}`)} {`)
      lines.push(`${indent}  label=${dotString(state.effect ? `${state.key}\neffect: ${state.effect}` : state.key)}; style="rounded${state.type === "parallel" ? ",dashed" : ""}";`)
      dotStates(machine, state.states, state.initial, state.path, `${indent}  `, lines, compound)
      lines.push(`${indent}}`)
      continue
    }
    const label = [state.key, ...(state.effect ? [`effect: ${state.effect}`] : []), ...state.transitions.filter((t) => t.targets.length === 0).map((t) => `on ${transitionText(t)}`)].join("\n")
    const attributes = [`label=${dotString(label)}`, ...(state.type === "final" ? ["peripheries=2"] : [])]
    lines.push(`${indent}${dotNode(machine, state.path)} [${attributes.join(", ")}];`)
  }
}

function dotEdges(machine: string, source: string, transitions: TransitionDescription[], lines: string[], compound: ReadonlySet<string>): void {
  for (const transition of transitions) {
    for (const target of transition.targets) {
      const from = source === "" ? { node: dotNode(machine, anyState) } : dotAnchor(machine, source, compound)
      const to = dotAnchor(machine, target, compound)
      const attributes = [`label=${dotString(transitionText(transition))}`]
      if (from.cluster) attributes.push(`ltail=${from.cluster}`)
      if (to.cluster) attributes.push(`lhead=${to.cluster}`)
      lines.push(`  ${from.node} -> ${to.node} [${attributes.join(", ")}];`)
    }
  }
}

function compoundPaths(states: StateDescription[], into: Set<string>): Set<string> {
  for (const state of states) {
    if (state.states.length > 0) into.add(state.path)
    compoundPaths(state.states, into)
  }
  return into
}

/**
 * The machines as one Graphviz `digraph`: a cluster per machine and per compound state, a point
 * for each initial state, final states drawn with a double border, edges labelled `event [guard]`.
 *
 * @example
 * ```ts
 * import { writeFileSync } from "node:fs"
 * import { authflowMachines, describeMachine, toDot } from "authflow/inspect"
 * writeFileSync("machines.dot", toDot(authflowMachines.map(describeMachine))) // dot -Tsvg machines.dot > machines.svg
 * ```
 * @see https://graphviz.org/doc/info/lang.html
 */
export function toDot(machines: readonly MachineDescription[]): string {
  const lines = [
    "digraph authflow {",
    "  rankdir=LR; compound=true; fontname=\"Helvetica\";",
    "  node [shape=box, style=rounded, fontname=\"Helvetica\"];",
    "  edge [fontname=\"Helvetica\", fontsize=10];",
  ]
  for (const machine of machines) {
    const compound = compoundPaths(machine.states, new Set())
    lines.push(`  subgraph ${dotString(`cluster_${machine.id}`)} {`)
    lines.push(`    label=${dotString(machine.id)};`)
    dotStates(machine.id, machine.states, machine.initial, "", "    ", lines, compound)
    if (machine.transitions.some((transition) => transition.targets.length > 0)) lines.push(`    ${dotNode(machine.id, anyState)} [label="any state", style="rounded,dashed"];`)
    lines.push("  }")
    dotEdges(machine.id, "", machine.transitions, lines, compound)
    const visit = (states: StateDescription[]) => {
      for (const state of states) {
        dotEdges(machine.id, state.path, state.transitions, lines, compound)
        visit(state.states)
      }
    }
    visit(machine.states)
  }
  lines.push("}")
  return `${lines.join("\n")}\n`
}
