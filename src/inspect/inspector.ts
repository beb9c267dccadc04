import type { AnyStateMachine, InspectionEvent, Observer } from "xstate"
import { createInspectorHandler } from "./handler.js"
import { FlowRecorder } from "./recorder.js"
import type { RedactOptions } from "./redact.js"

/**
 * Options of {@link createInspector}.
 *
 * @example
 * ```ts
 * createInspector({ basePath: "/admin/auth-flows", maxFlows: 300, authorize: (request) => isAdmin(request) })
 * ```
 */
export interface InspectorOptions {
  /** Where you mount the handler: the page and every URL it uses start with it. Default `/inspect`. */
  basePath?: string
  /** How many flows to keep, oldest dropped first. Default 1000. */
  maxFlows?: number
  /**
   * Who may see the inspector: each request is served only when it returns true.
   *
   * @default only requests from this machine (the socket's peer is loopback, no proxy header, a
   * loopback Host), and none when `NODE_ENV` is `production`; every other request answers 403.
   */
  authorize?: (request: Request) => boolean | Promise<boolean>
  /** Your own machines, to draw besides authflow's (flows of machines seen running are drawn anyway). */
  machines?: readonly AnyStateMachine[]
  /** More property names to redact, on top of the built-in list (tokens, codes, verifiers, nonces, state, cookies, credentials, secrets). */
  redactKeys?: RedactOptions["keys"]
  /** The page's title. Default `authflow inspector`. */
  title?: string
}

/**
 * What {@link createInspector} returns.
 *
 * @example
 * ```ts
 * const { inspect, handler } = createInspector()
 * ```
 */
export interface Inspector {
  /** The observer to pass as the config's `inspect` option. It records, redacted; it never changes a flow. */
  readonly inspect: Observer<InspectionEvent>
  /** Serves the inspector under `basePath`: mount it at that path in your server or framework. */
  readonly handler: (request: Request) => Promise<Response>
  /** The flows recorded so far (for tests and tools). */
  readonly recorder: FlowRecorder
  /** The normalised base path the handler serves. */
  readonly basePath: string
}

/**
 * A local, offline flow inspector: `inspect` records every flow authflow runs (redacted before it
 * is stored), and `handler` serves a page with every machine drawn as a statechart and the running
 * and recent flows, live, each with its timeline and its current state highlighted.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http"
 * import { Auth } from "authflow"
 * import { createInspector } from "authflow/inspect"
 *
 * import { toWebRequest, sendWebResponse } from "authflow/node"
 *
 * // Served to requests from this machine only, unless `authorize` says otherwise.
 * const inspector = createInspector({ basePath: "/inspect", authorize: (request) => isAdmin(request) })
 * const config = { ...authConfig, inspect: inspector.inspect }
 * createServer(async (req, res) => {
 *   // toWebRequest records the socket's address, which the inspector's loopback check reads.
 *   const request = await toWebRequest(req)
 *   const inspecting = new URL(request.url).pathname.startsWith("/inspect")
 *   await sendWebResponse(res, await (inspecting ? inspector.handler(request) : Auth(request, config)))
 * }).listen(3000)
 * ```
 */
export function createInspector(options: InspectorOptions = {}): Inspector {
  const recorder = new FlowRecorder({
    ...(options.maxFlows !== undefined && { maxFlows: options.maxFlows }),
    ...(options.machines && { machines: options.machines }),
    ...(options.redactKeys && { redact: { keys: options.redactKeys } }),
  })
  const basePath = (options.basePath ?? "/inspect").trim().replace(/\/+$/, "")
  const handler = createInspectorHandler(recorder, {
    basePath,
    ...(options.authorize && { authorize: options.authorize }),
    ...(options.title && { title: options.title }),
  })
  return { inspect: recorder.inspect, handler, recorder, basePath: basePath === "" ? "" : basePath.startsWith("/") ? basePath : `/${basePath}` }
}

type InspectTarget = Observer<InspectionEvent> | ((event: InspectionEvent) => void)

/**
 * One `inspect` option that feeds several inspectors: the authflow inspector and a Stately one, say.
 * A failing inspector never stops the others (nor the flow).
 *
 * @example
 * ```ts
 * import { createWebSocketInspector } from "@statelyai/inspect"
 * const stately = createWebSocketInspector({ url: "ws://127.0.0.1:8080", ...statelySanitizers })
 * const config = { ...authConfig, inspect: combineInspectors(inspector.inspect, stately.inspect) }
 * ```
 */
export function combineInspectors(...targets: InspectTarget[]): Observer<InspectionEvent> {
  return {
    next(event) {
      for (const target of targets) {
        try {
          if (typeof target === "function") target(event)
          else target.next?.(event)
        } catch {
          // One inspector's failure is not the flow's, nor the other inspectors'.
        }
      }
    },
  }
}
