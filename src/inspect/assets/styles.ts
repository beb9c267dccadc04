import { diagramColors } from "../svg.js"

/**
 * The inspector page's colours: every text colour is paired with the backgrounds it is drawn on,
 * and each pair has a contrast ratio of at least 4.5:1 (WCAG 2.2 AA); a test checks them.
 */
export const palette = {
  page: "#f8fafc",
  surface: "#ffffff",
  sunken: "#f1f5f9",
  border: "#cbd5e1",
  text: "#0f172a",
  muted: "#475569",
  accent: "#1d4ed8",
  accentText: "#ffffff",
  accentSoft: "#dbeafe",
  focus: "#1d4ed8",
  running: ["#1e40af", "#dbeafe"],
  waiting: ["#854d0e", "#fef9c3"],
  succeeded: ["#166534", "#dcfce7"],
  ended: ["#9a3412", "#ffedd5"],
  error: ["#991b1b", "#fee2e2"],
  stopped: ["#374151", "#e5e7eb"],
} as const

/** Text/background pairs the page and its diagrams use, for the contrast check. */
export const contrastPairs: [string, string, string][] = [
  ["state name", diagramColors.text, diagramColors.stateFill],
  ["state effect", diagramColors.detail, diagramColors.stateFill],
  ["compound state name", diagramColors.text, diagramColors.compoundFill],
  ["transition label", diagramColors.label, diagramColors.labelFill],
  ["visited state", diagramColors.text, palette.accentSoft],
  ["visited state effect", diagramColors.detail, palette.accentSoft],
  ["current state", "#ffffff", palette.accent],
  ["taken transition label", "#1e40af", diagramColors.labelFill],
  ["text on page", palette.text, palette.page],
  ["text on surface", palette.text, palette.surface],
  ["muted on surface", palette.muted, palette.surface],
  ["muted on page", palette.muted, palette.page],
  ["muted on sunken", palette.muted, palette.sunken],
  ["text on accent soft", palette.text, palette.accentSoft],
  ["accent on surface", palette.accent, palette.surface],
  ["accent on accent soft", palette.accent, palette.accentSoft],
  ["accent text on accent", palette.accentText, palette.accent],
  ...(["running", "waiting", "succeeded", "ended", "error", "stopped"] as const).map((status): [string, string, string] => [`${status} badge`, palette[status][0], palette[status][1]]),
]

const p = palette

/** The page's stylesheet, served by the handler itself. */
export const styles = `
:root { color-scheme: light; --page: ${p.page}; --surface: ${p.surface}; --sunken: ${p.sunken}; --border: ${p.border}; --text: ${p.text}; --muted: ${p.muted}; --accent: ${p.accent}; --accent-soft: ${p.accentSoft}; --focus: ${p.focus};
  --sans: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; --mono: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; }
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; }
body { font: 15px/1.45 var(--sans); color: var(--text); background: var(--page); display: flex; flex-direction: column; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; border-radius: 4px; }
button, select { font: inherit; color: var(--text); }
.sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.skip { position: absolute; left: 8px; top: -48px; background: var(--surface); padding: 8px 12px; border: 2px solid var(--focus); border-radius: 6px; z-index: 10; }
.skip:focus { top: 8px; }
header.top { display: flex; align-items: center; gap: 24px; padding: 10px 20px; background: var(--surface); border-bottom: 1px solid var(--border); }
header.top h1 { font-size: 18px; margin: 0; display: flex; align-items: center; gap: 10px; }
header.top h1 .logo { width: 22px; height: 22px; border-radius: 6px; background: var(--accent); display: inline-grid; place-items: center; color: #fff; font-size: 13px; }
.views { display: flex; gap: 4px; }
.views a { padding: 6px 12px; border-radius: 6px; text-decoration: none; color: var(--text); font-weight: 600; }
.views a[aria-current="page"] { background: var(--accent-soft); color: var(--accent); }
.views a:hover { background: var(--sunken); }
.live { margin: 0 0 0 auto; font-size: 13px; color: var(--muted); display: flex; align-items: center; gap: 6px; }
.live::before { content: ""; width: 9px; height: 9px; border-radius: 50%; background: #94a3b8; }
.live[data-state="live"]::before { background: #16a34a; }
.live[data-state="down"]::before { background: #dc2626; }
.layout { flex: 1; display: grid; grid-template-columns: minmax(280px, 340px) 1fr; min-height: 0; }
.sidebar { border-right: 1px solid var(--border); background: var(--surface); display: flex; flex-direction: column; min-height: 0; }
.sidebar-head { padding: 14px 16px 10px; border-bottom: 1px solid var(--border); }
.sidebar-head h2 { font-size: 15px; margin: 0 0 8px; }
.sidebar-head .count { color: var(--muted); font-weight: 400; }
.filters { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
.filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); gap: 2px; }
.filters select { padding: 4px 6px; border: 1px solid var(--border); border-radius: 6px; background: var(--surface); font-size: 13px; }
.hint { font-size: 12px; color: var(--muted); margin: 8px 0 0; }
.flow-list { list-style: none; margin: 0; padding: 6px; overflow-y: auto; flex: 1; }
.flow-list li { margin: 0 0 4px; }
.flow-link { display: block; padding: 8px 10px; border-radius: 8px; text-decoration: none; color: var(--text); border: 1px solid transparent; }
.flow-link:hover { background: var(--sunken); }
.flow-link[aria-current="true"] { background: var(--accent-soft); border-color: var(--accent); }
.flow-link .row { display: flex; align-items: center; gap: 8px; justify-content: space-between; }
.flow-link .name { font-weight: 600; font-size: 14px; overflow-wrap: anywhere; }
.flow-link .meta { font-size: 12px; color: var(--muted); display: block; margin-top: 2px; }
.flow-link .meta code { font-family: var(--mono); color: var(--text); }
.flow-link[aria-current="true"] .meta { color: var(--text); }
.new-flows { margin: 6px; padding: 6px 10px; border: 1px solid var(--accent); background: var(--accent-soft); color: var(--accent); border-radius: 8px; cursor: pointer; font-weight: 600; }
.pager { display: flex; align-items: center; justify-content: space-between; gap: 8px; padding: 8px 12px; border-top: 1px solid var(--border); font-size: 13px; color: var(--muted); }
.pager button, .tool { padding: 4px 10px; border: 1px solid var(--border); border-radius: 6px; background: var(--surface); cursor: pointer; }
.pager button:disabled { color: var(--muted); cursor: default; opacity: .7; }
.badge { display: inline-block; font-size: 12px; font-weight: 600; padding: 1px 8px; border-radius: 999px; white-space: nowrap; }
${(["running", "waiting", "succeeded", "ended", "error", "stopped"] as const).map((s) => `.badge.${s} { color: ${p[s][0]}; background: ${p[s][1]}; }`).join("\n")}
main { overflow-y: auto; padding: 20px 28px 40px; min-width: 0; position: relative; }
main:focus { outline: none; }
main h2 { font-size: 22px; margin: 0 0 6px; }
main h3 { font-size: 17px; margin: 0; }
main h4 { font-size: 14px; margin: 16px 0 6px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.empty { color: var(--muted); max-width: 46em; }
.facts { display: flex; flex-wrap: wrap; gap: 6px 20px; margin: 8px 0 16px; padding: 0; font-size: 14px; }
.facts div { display: flex; gap: 6px; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; font-weight: 600; }
.note { background: var(--accent-soft); border-left: 4px solid var(--accent); padding: 8px 12px; border-radius: 6px; margin: 0 0 16px; font-size: 14px; max-width: 60em; }
.run { background: var(--surface); border: 1px solid var(--border); border-radius: 12px; padding: 16px 18px; margin: 0 0 20px; }
.run-head { display: flex; align-items: baseline; gap: 12px; flex-wrap: wrap; }
.run-head .sub { color: var(--muted); font-size: 13px; }
.run-body { margin-top: 12px; }
.run-body.side { display: grid; grid-template-columns: minmax(0, max-content) minmax(440px, 1fr); gap: 20px; align-items: start; }
.run-body.side .run-data { grid-template-columns: minmax(0, 1fr); margin-top: 0; }
.run-data { display: grid; grid-template-columns: minmax(0, 3fr) minmax(260px, 2fr); gap: 20px; margin-top: 14px; align-items: start; }
@media (max-width: 1100px) { .run-data { grid-template-columns: minmax(0, 1fr); } }
figure.diagram { margin: 0; }
.diagram-frame { border: 1px solid var(--border); border-radius: 10px; background: #fff; overflow: auto; max-height: 78vh; }
.diagram-frame svg { display: block; margin: 0 auto; }
.diagram-frame.fit svg { max-width: 100%; height: auto; }
figure.diagram figcaption { font-size: 13px; color: var(--muted); margin-top: 6px; display: flex; gap: 12px; flex-wrap: wrap; align-items: center; }
figure.diagram figcaption strong { color: var(--text); }
.legend { display: inline-flex; gap: 12px; flex-wrap: wrap; }
.legend span::before { content: ""; display: inline-block; width: 12px; height: 12px; border-radius: 3px; margin-right: 4px; vertical-align: -1px; border: 1.5px solid #475569; }
.legend .l-current::before { background: ${p.accent}; border-color: #1e3a8a; }
.legend .l-visited::before { background: ${p.accentSoft}; border-color: ${p.accent}; }
.legend .l-final::before { border-style: double; border-width: 4px; width: 8px; height: 8px; }
.sc-arrowhead { fill: context-stroke; }
.sc-state.is-visited .sc-box { fill: ${p.accentSoft}; stroke: ${p.accent}; }
.sc-state.is-active.sc-compound .sc-box { stroke: ${p.accent}; stroke-width: 2.5; }
.sc-state.is-current .sc-box { fill: ${p.accent}; stroke: #1e3a8a; stroke-width: 3; }
.sc-state.is-current .sc-final-ring { stroke: #ffffff; }
.sc-state.is-current text { fill: #ffffff; }
.sc-edge.is-taken .sc-route { stroke: ${p.accent}; stroke-width: 2.5; }
.sc-edge.is-taken .sc-label { fill: #1e40af; font-weight: 700; }
.timeline { width: 100%; border-collapse: collapse; font-size: 13px; }
.timeline caption { text-align: left; font-weight: 700; font-size: 14px; padding: 0 0 6px; }
.timeline th { text-align: left; color: var(--muted); font-weight: 600; border-bottom: 1px solid var(--border); padding: 4px 6px; }
.timeline td { border-bottom: 1px solid var(--sunken); padding: 5px 6px; vertical-align: top; }
.timeline tr.selected td { background: var(--accent-soft); }
.timeline tr.divider td { background: var(--sunken); color: var(--text); font-size: 12px; font-weight: 600; }
.timeline code { font-family: var(--mono); font-size: 12.5px; overflow-wrap: anywhere; }
.timeline .step-button { border: 1px solid var(--border); background: var(--surface); border-radius: 6px; padding: 1px 8px; cursor: pointer; font-size: 12px; }
.timeline .step-button[aria-pressed="true"] { background: var(--accent); color: #fff; border-color: var(--accent); }
.timeline .t { color: var(--muted); white-space: nowrap; }
.payload { display: block; color: var(--muted); font-family: var(--mono); font-size: 12px; overflow-wrap: anywhere; }
details.payload summary { cursor: pointer; }
details.payload pre.json { max-height: 240px; font-size: 12px; }
details.context { margin: 0; }
details.context summary { cursor: pointer; font-weight: 600; font-size: 14px; }
pre.json { background: var(--sunken); border-radius: 8px; padding: 10px 12px; font: 12.5px/1.5 var(--mono); overflow: auto; max-height: 420px; margin: 6px 0 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.machine-index ul { list-style: none; display: flex; flex-wrap: wrap; gap: 6px 8px; padding: 0; margin: 0 0 18px; }
.machine-index a { display: inline-block; padding: 3px 10px; border: 1px solid var(--border); border-radius: 999px; background: var(--surface); font-family: var(--mono); font-size: 13px; text-decoration: none; }
.machine-index a:hover { border-color: var(--accent); }
.machine { scroll-margin-top: 12px; background: var(--surface); border: 1px solid var(--border); border-radius: 12px; padding: 16px 18px; margin: 0 0 20px; }
.machine p { margin: 4px 0 10px; color: var(--muted); font-size: 14px; }
.machine table { border-collapse: collapse; font-size: 13px; margin-top: 8px; }
.machine th, .machine td { text-align: left; padding: 3px 10px 3px 0; border-bottom: 1px solid var(--sunken); }
.machine td code { font-family: var(--mono); }
@media (max-width: 760px) { .layout { grid-template-columns: 1fr; } .sidebar { max-height: 45vh; border-right: 0; border-bottom: 1px solid var(--border); } }
`
