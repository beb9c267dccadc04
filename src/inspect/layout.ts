import type { ElkExtendedEdge, ElkNode } from "elkjs/lib/elk-api.js"
import type { MachineDescription, StateDescription, TransitionDescription } from "./describe.js"
import { MissingElk } from "../core/errors.js"

/**
 * A state box (or an initial-state dot) placed on the diagram, in absolute coordinates.
 *
 * @example
 * ```ts
 * (await layoutMachine(description)).nodes.find((node) => node.path === "signedIn") // { kind: "state", type: "final", x: …, y: …, … }
 * ```
 */
export interface PlacedNode {
  /** The state's path; for an initial dot, the path of the state it belongs to plus `/[*]`. */
  path: string
  kind: "state" | "initial"
  key: string
  type: StateDescription["type"]
  x: number
  y: number
  width: number
  height: number
  effect?: string
  /** Transitions without a target, shown inside the box (`on ping [guard]`). */
  internal: string[]
  /** True for a state with nested states (drawn as a container). */
  compound: boolean
}

/**
 * A transition placed on the diagram: its route and label box, in absolute coordinates.
 *
 * @example
 * ```ts
 * (await layoutMachine(description)).edges[1] // { source: "validatingInput", target: "authorizing", label: "csrf.valid", points: […], labelBox: {…} }
 * ```
 */
export interface PlacedEdge {
  /** Path of the source state, or of the initial dot (`…/[*]`). */
  source: string
  target: string
  /** The raw event type (empty for an initial arrow). */
  event: string
  /** The label drawn: `event [guard]`. */
  label: string
  points: { x: number; y: number }[]
  labelBox?: { x: number; y: number; width: number; height: number }
}

/**
 * A machine laid out: everything the SVG renderer needs.
 *
 * @example
 * ```ts
 * const diagram: Diagram = await layoutMachine(describeMachine(signOutMachine))
 * renderSvg(describeMachine(signOutMachine), diagram)
 * ```
 */
export interface Diagram {
  machine: string
  width: number
  height: number
  nodes: PlacedNode[]
  edges: PlacedEdge[]
}

/** Font sizes the renderer uses; the layout measures text with the same. */
export const fonts = { title: 14, detail: 12, label: 12 }

// Advance widths (in em) approximating DejaVu Sans Bold, the widest of the common sans fonts:
// boxes measured with it fit the others too. Details and labels are monospace (0.61em or less).
const narrow = new Set("ijl.,:;'|!I")
const slim = new Set("ftr-()[] ")
const wide = new Set("mwMW")

/** The width of `text` drawn in bold sans at `size` pixels, slightly overestimated. */
export function titleWidth(text: string, size = fonts.title): number {
  let em = 0
  for (const char of text) em += narrow.has(char) ? 0.37 : slim.has(char) ? 0.5 : wide.has(char) ? 1.06 : /[A-Z]/.test(char) ? 0.8 : 0.72
  return em * size
}

/** The width of `text` drawn in monospace at `size` pixels. */
export function monoWidth(text: string, size = fonts.label): number {
  return [...text].length * 0.61 * size
}

function transitionText(transition: TransitionDescription): string {
  return transition.guard ? `${transition.label} [${transition.guard}]` : transition.label
}

const nodeId = (path: string) => `s:${path}`
const initialId = (path: string) => `i:${path}`

function stateBox(state: StateDescription): { width: number; height: number; internal: string[] } {
  const internal = state.transitions.filter((t) => t.targets.length === 0).map((t) => `on ${transitionText(t)}`)
  const details = [...(state.effect ? [`effect: ${state.effect}`] : []), ...internal]
  const width = Math.max(96, titleWidth(state.key) + 32, ...details.map((line) => monoWidth(line, fonts.detail) + 28))
  const height = 34 + details.length * 17 + (details.length ? 4 : 0)
  return { width: Math.ceil(width), height, internal }
}

const rootOptions = {
  "elk.algorithm": "layered",
  "elk.hierarchyHandling": "INCLUDE_CHILDREN",
  "elk.edgeRouting": "ORTHOGONAL",
  "elk.layered.spacing.nodeNodeBetweenLayers": "36",
  "elk.layered.spacing.edgeNodeBetweenLayers": "16",
  "elk.layered.spacing.edgeEdgeBetweenLayers": "10",
  "elk.spacing.nodeNode": "22",
  "elk.spacing.edgeNode": "14",
  "elk.spacing.edgeEdge": "10",
  "elk.spacing.edgeLabel": "4",
  "elk.layered.nodePlacement.strategy": "NETWORK_SIMPLEX",
  "elk.layered.considerModelOrder.strategy": "NODES_AND_EDGES",
  "elk.padding": "[top=16,left=16,bottom=16,right=16]",
}

interface Built {
  graph: ElkNode
  states: Map<string, { state: StateDescription; internal: string[] }>
  edges: Map<string, { source: string; target: string; event: string; label: string }>
}

function build(description: MachineDescription, direction: LayoutOptions["direction"]): Built {
  const states = new Map<string, { state: StateDescription; internal: string[] }>()
  const edges = new Map<string, { source: string; target: string; event: string; label: string }>()
  const elkEdges: ElkExtendedEdge[] = []
  const addEdge = (source: string, sourceId: string, target: string, event: string, label: string) => {
    const id = `e${edges.size}`
    edges.set(id, { source, target, event, label })
    const edge: ElkExtendedEdge = { id, sources: [sourceId], targets: [nodeId(target)] }
    if (label) edge.labels = [{ text: label, width: Math.ceil(monoWidth(label) + 10), height: 18 }]
    elkEdges.push(edge)
  }
  const children = (list: StateDescription[], parent: string, initial: string | undefined, parallel: boolean): ElkNode[] => {
    const nodes: ElkNode[] = []
    if (initial && !parallel) {
      nodes.push({ id: initialId(parent), width: 14, height: 14 })
      addEdge(`${parent}/[*]`, initialId(parent), initial, "", "")
    }
    for (const state of list) {
      const box = stateBox(state)
      states.set(state.path, { state, internal: box.internal })
      if (state.states.length > 0) {
        const top = 40 + (state.effect ? 17 : 0) + box.internal.length * 17
        nodes.push({
          id: nodeId(state.path),
          layoutOptions: { "elk.padding": `[top=${top},left=16,bottom=16,right=16]`, "elk.nodeSize.minimum": `(${box.width},${box.height})`, "elk.nodeSize.constraints": "MINIMUM_SIZE" },
          children: children(state.states, state.path, state.initial, state.type === "parallel"),
        })
      } else {
        nodes.push({ id: nodeId(state.path), width: box.width, height: box.height })
      }
    }
    return nodes
  }
  const graph: ElkNode = { id: "root", layoutOptions: { ...rootOptions, "elk.direction": direction ?? "DOWN" }, children: children(description.states, "", description.initial, false), edges: elkEdges }
  const visit = (list: StateDescription[]) => {
    for (const state of list) {
      for (const transition of state.transitions) {
        for (const target of transition.targets) addEdge(state.path, nodeId(state.path), target, transition.event, transitionText(transition))
      }
      visit(state.states)
    }
  }
  visit(description.states)
  // Machine-level transitions are taken from any state: drawn from the initial dot of the machine.
  for (const transition of description.transitions) {
    for (const target of transition.targets) if (description.initial) addEdge("/[*]", initialId(""), target, transition.event, transitionText(transition))
  }
  return { graph, states, edges }
}

/** Drops the 1-pixel jogs orthogonal routing sometimes leaves, and points on a straight line. */
function tidy(points: { x: number; y: number }[]): { x: number; y: number }[] {
  const snapped = points.map((point) => ({ ...point }))
  for (let i = 1; i < snapped.length; i++) {
    const previous = snapped[i - 1]!
    const point = snapped[i]!
    if (Math.abs(point.y - previous.y) < 2 && i < snapped.length - 1) point.y = previous.y
    if (Math.abs(point.x - previous.x) < 2 && i < snapped.length - 1) point.x = previous.x
  }
  return snapped.filter((point, i) => {
    if (i === 0 || i === snapped.length - 1) return true
    const a = snapped[i - 1]!
    const b = snapped[i + 1]!
    const same = (a.x === point.x && point.x === b.x) || (a.y === point.y && point.y === b.y)
    return !same && !(a.x === point.x && a.y === point.y)
  })
}

type ElkConstructor = new () => { layout(graph: ElkNode): Promise<ElkNode> }
let elkInstance: Promise<{ layout(graph: ElkNode): Promise<ElkNode> }> | undefined

async function elk() {
  elkInstance ??= import("elkjs/lib/elk.bundled.js").then(
    (module) => {
      // Needed: elkjs's types describe its ESM default, but Node hands a CommonJS module's exports as `default` (and bundlers nest it once more).
      const exported = module as unknown as { default: ElkConstructor & { default?: ElkConstructor } }
      const Elk = exported.default.default ?? exported.default
      return new Elk()
    },
    (error: unknown) => {
      elkInstance = undefined
      throw (error as { code?: string }).code === "ERR_MODULE_NOT_FOUND" ? new MissingElk(error) : error
    },
  )
  return elkInstance
}

/**
 * Options of {@link layoutMachine}.
 *
 * @example
 * ```ts
 * await layoutMachine(description, { direction: "RIGHT" })
 * ```
 */
export interface LayoutOptions {
  /** Where flows go: `DOWN` (the default, fits a page) or `RIGHT` (fits a wide screen or a slide). */
  direction?: "DOWN" | "RIGHT"
}

/**
 * Lays a machine out with ELK's layered algorithm (elkjs, the Eclipse Layout Kernel compiled to
 * JavaScript): states top to bottom in the order a flow meets them, nested states inside their
 * parent, orthogonal edges with their labels placed without overlaps.
 *
 * @example
 * ```ts
 * const diagram = await layoutMachine(describeMachine(credentialsSignInMachine))
 * diagram.nodes.find((node) => node.path === "signedIn") // { x: …, y: …, width: …, height: … }
 * ```
 * @see https://eclipse.dev/elk/reference/algorithms/org-eclipse-elk-layered.html
 */
export async function layoutMachine(description: MachineDescription, options: LayoutOptions = {}): Promise<Diagram> {
  const { graph, states, edges } = build(description, options.direction)
  const laid = await (await elk()).layout(graph)
  const nodes: PlacedNode[] = []
  const origins = new Map<string, { x: number; y: number }>([["root", { x: 0, y: 0 }]])
  const place = (list: ElkNode[] | undefined, offset: { x: number; y: number }) => {
    for (const node of list ?? []) {
      const x = offset.x + (node.x ?? 0)
      const y = offset.y + (node.y ?? 0)
      origins.set(node.id, { x, y })
      const box = { x, y, width: node.width ?? 0, height: node.height ?? 0 }
      if (node.id.startsWith("i:")) {
        nodes.push({ path: `${node.id.slice(2)}/[*]`, kind: "initial", key: "", type: "atomic", internal: [], compound: false, ...box })
      } else {
        const { state, internal } = states.get(node.id.slice(2))!
        nodes.push({ path: state.path, kind: "state", key: state.key, type: state.type, internal, compound: state.states.length > 0, ...(state.effect && { effect: state.effect }), ...box })
      }
      place(node.children, { x, y })
    }
  }
  place(laid.children, { x: 0, y: 0 })
  const placedEdges: PlacedEdge[] = []
  for (const edge of (laid.edges ?? []) as (ElkExtendedEdge & { container?: string })[]) {
    const info = edges.get(edge.id)!
    const origin = origins.get(edge.container ?? "root") ?? { x: 0, y: 0 }
    const section = edge.sections?.[0]
    if (!section) continue
    const points = tidy([section.startPoint, ...(section.bendPoints ?? []), section.endPoint].map((p) => ({ x: origin.x + p.x, y: origin.y + p.y })))
    const label = edge.labels?.[0]
    placedEdges.push({
      ...info,
      points,
      ...(label && { labelBox: { x: origin.x + (label.x ?? 0), y: origin.y + (label.y ?? 0), width: label.width ?? 0, height: label.height ?? 0 } }),
    })
  }
  return { machine: description.id, width: Math.ceil(laid.width ?? 0), height: Math.ceil(laid.height ?? 0), nodes, edges: placedEdges }
}
