/**
 * `authflow/inspect`: see your flows. A local inspector page (statecharts laid out from the machine
 * definitions, live flows with their timelines, secrets redacted), the machines as JSON, Mermaid or
 * Graphviz, and helpers to feed a Stately inspector safely.
 *
 * @example
 * ```ts
 * import { createInspector } from "authflow/inspect"
 *
 * const inspector = createInspector()
 * const config = { ...authConfig, inspect: inspector.inspect }
 * // mount inspector.handler at /inspect: it answers requests from this machine, or those `authorize` admits
 * ```
 * @module
 */
export { createInspector, combineInspectors } from "./inspector.js"
export type { Inspector, InspectorOptions } from "./inspector.js"
export { createInspectorHandler } from "./handler.js"
export type { InspectorHandlerOptions } from "./handler.js"
export { FlowRecorder } from "./recorder.js"
export type { FlowRecord, FlowRecorderOptions, FlowRun, FlowStatus, FlowStep, FlowSummary } from "./recorder.js"
export { redact, redactText, isSecretKey, statelySanitizers, REDACTED } from "./redact.js"
export type { RedactOptions } from "./redact.js"
export { describeMachine, eventLabel, activePaths } from "./describe.js"
export type { MachineDescription, StateDescription, TransitionDescription } from "./describe.js"
export { toMermaid, toDot } from "./formats.js"
export { layoutMachine } from "./layout.js"
export { MissingElk } from "../core/errors.js"
export type { Diagram, LayoutOptions, PlacedEdge, PlacedNode } from "./layout.js"
export { renderSvg, describeInWords } from "./svg.js"
export { authflowMachines } from "./machines.js"
