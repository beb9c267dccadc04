import { allStates, type MachineDescription } from "./describe.js"
import { fonts, type Diagram, type PlacedEdge, type PlacedNode } from "./layout.js"

/** Colours of the diagrams; each text colour has at least 4.5:1 contrast on the fill it sits on. */
export const diagramColors = {
  background: "#ffffff",
  stateFill: "#f8fafc",
  stateStroke: "#475569",
  compoundFill: "#f1f5f9",
  text: "#0f172a",
  detail: "#475569",
  edge: "#64748b",
  label: "#334155",
  labelFill: "#ffffff",
}

/** Escapes text for XML content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

function slug(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, "_")
}

const sans = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif"
const mono = "ui-monospace, 'SFMono-Regular', Menlo, Consolas, 'DejaVu Sans Mono', monospace"

/** An SVG path through `points` with rounded corners. */
function routePath(points: { x: number; y: number }[], radius = 6): string {
  if (points.length === 0) return ""
  let d = `M${points[0]!.x} ${points[0]!.y}`
  for (let i = 1; i < points.length; i++) {
    const point = points[i]!
    const next = points[i + 1]
    if (!next) {
      d += ` L${point.x} ${point.y}`
      break
    }
    const previous = points[i - 1]!
    const inLength = Math.hypot(point.x - previous.x, point.y - previous.y)
    const outLength = Math.hypot(next.x - point.x, next.y - point.y)
    const r = Math.min(radius, inLength / 2, outLength / 2)
    const before = { x: point.x - ((point.x - previous.x) / inLength) * r, y: point.y - ((point.y - previous.y) / inLength) * r }
    const after = { x: point.x + ((next.x - point.x) / outLength) * r, y: point.y + ((next.y - point.y) / outLength) * r }
    d += ` L${round(before.x)} ${round(before.y)} Q${point.x} ${point.y} ${round(after.x)} ${round(after.y)}`
  }
  return d
}

function round(value: number): number {
  return Math.round(value * 10) / 10
}

function renderNode(node: PlacedNode): string {
  if (node.kind === "initial") {
    const cx = node.x + node.width / 2
    const cy = node.y + node.height / 2
    return `<g class="sc-initial" data-path="${escapeXml(node.path)}"><circle cx="${cx}" cy="${cy}" r="6" fill="${diagramColors.text}"/></g>`
  }
  const classes = ["sc-state", `sc-${node.type}`, ...(node.compound ? ["sc-compound"] : [])]
  const fill = node.compound ? diagramColors.compoundFill : diagramColors.stateFill
  const dash = node.type === "parallel" ? ` stroke-dasharray="6 4"` : ""
  const parts = [`<g class="${classes.join(" ")}" data-path="${escapeXml(node.path)}">`]
  parts.push(`<rect class="sc-box" x="${node.x}" y="${node.y}" width="${node.width}" height="${node.height}" rx="10" fill="${fill}" stroke="${diagramColors.stateStroke}" stroke-width="1.5"${dash}/>`)
  if (node.type === "final") {
    parts.push(`<rect class="sc-final-ring" x="${node.x + 4}" y="${node.y + 4}" width="${node.width - 8}" height="${node.height - 8}" rx="7" fill="none" stroke="${diagramColors.stateStroke}" stroke-width="1.5"/>`)
  }
  const cx = node.x + node.width / 2
  const titleX = node.compound ? node.x + 14 : cx
  const anchor = node.compound ? "start" : "middle"
  let y = node.y + 22
  parts.push(`<text class="sc-title" x="${titleX}" y="${y}" text-anchor="${anchor}" font-family="${sans}" font-size="${fonts.title}" font-weight="700" fill="${diagramColors.text}">${escapeXml(node.key)}</text>`)
  const details = [...(node.effect ? [`effect: ${node.effect}`] : []), ...node.internal]
  for (const line of details) {
    y += 17
    parts.push(`<text class="sc-detail" x="${titleX}" y="${y}" text-anchor="${anchor}" font-family="${mono}" font-size="${fonts.detail}" fill="${diagramColors.detail}">${escapeXml(line)}</text>`)
  }
  parts.push("</g>")
  return parts.join("")
}

function renderEdge(edge: PlacedEdge, marker: string): string {
  const attributes = `class="sc-edge${edge.event === "" ? " sc-initial-edge" : ""}" data-source="${escapeXml(edge.source)}" data-target="${escapeXml(edge.target)}" data-event="${escapeXml(edge.event)}"`
  const parts = [`<g ${attributes}>`]
  parts.push(`<path class="sc-route" d="${routePath(edge.points)}" fill="none" stroke="${diagramColors.edge}" stroke-width="1.5" marker-end="url(#${marker})"/>`)
  if (edge.labelBox && edge.label) {
    const box = edge.labelBox
    parts.push(`<rect class="sc-label-box" x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" rx="4" fill="${diagramColors.labelFill}" fill-opacity="0.92"/>`)
    parts.push(`<text class="sc-label" x="${box.x + box.width / 2}" y="${box.y + box.height / 2 + 4}" text-anchor="middle" font-family="${mono}" font-size="${fonts.label}" fill="${diagramColors.label}">${escapeXml(edge.label)}</text>`)
  }
  parts.push("</g>")
  return parts.join("")
}

/**
 * The text alternative of a statechart: the initial state, each state with its effect and where
 * each of its events leads, and the final states.
 *
 * @example
 * ```ts
 * describeInWords(describeMachine(signOutMachine))
 * // "Initial state: validatingInput. validatingInput (effect checkCsrf): csrf.valid → findingSession; …"
 * ```
 */
export function describeInWords(description: MachineDescription): string {
  const states = allStates(description)
  const sentences = [`Statechart of the ${description.id} machine, ${states.length} states.`]
  if (description.initial) sentences.push(`Initial state: ${description.initial}.`)
  for (const state of states) {
    if (state.type === "final") continue
    const moves = state.transitions.map((t) => `${t.label}${t.guard ? ` [${t.guard}]` : ""} → ${t.targets.join(", ") || "stays"}`)
    const effect = state.effect ? ` (effect ${state.effect})` : ""
    sentences.push(`${state.path}${effect}: ${moves.length ? moves.join("; ") : "no transitions"}.`)
  }
  const finals = states.filter((state) => state.type === "final").map((state) => state.path)
  if (finals.length) sentences.push(`Final states: ${finals.join(", ")}.`)
  return sentences.join(" ")
}

/**
 * Renders a laid-out machine as a standalone, accessible SVG: `role="img"`, named by its `<title>`
 * and described by a `<desc>` that tells every state and transition in words. States carry `data-path` and
 * transitions `data-source`, `data-target` and `data-event`, so a page can highlight the current
 * state and the transitions a flow took with CSS classes.
 *
 * @example
 * ```ts
 * const svg = renderSvg(describeMachine(signOutMachine), await layoutMachine(describeMachine(signOutMachine)))
 * ```
 */
export function renderSvg(description: MachineDescription, diagram: Diagram): string {
  const id = `sc-${slug(description.id)}`
  const marker = `${id}-arrow`
  const pad = 4
  const width = diagram.width + pad * 2
  const height = diagram.height + pad * 2
  const containers = diagram.nodes.filter((node) => node.compound)
  const leaves = diagram.nodes.filter((node) => !node.compound)
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="statechart" data-machine="${escapeXml(description.id)}" viewBox="${-pad} ${-pad} ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="${id}-title" aria-describedby="${id}-desc">`,
    `<title id="${id}-title">${escapeXml(`${description.id} statechart`)}</title>`,
    `<desc id="${id}-desc">${escapeXml(describeInWords(description))}</desc>`,
    `<defs><marker id="${marker}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path class="sc-arrowhead" d="M0 0 L10 5 L0 10 z" fill="${diagramColors.edge}" stroke="none"/></marker></defs>`,
    `<rect x="${-pad}" y="${-pad}" width="${width}" height="${height}" fill="${diagramColors.background}"/>`,
    ...containers.map(renderNode),
    ...diagram.edges.map((edge) => renderEdge(edge, marker)),
    ...leaves.map(renderNode),
    "</svg>",
  ].join("\n")
}
