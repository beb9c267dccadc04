import type { AnyStateMachine } from "xstate"
import { clientScript } from "./assets/client.js"
import { pageHtml } from "./assets/page.js"
import { styles } from "./assets/styles.js"
import { isLoopbackAddress, parseAddress } from "../core/rate-limit/ip.js"
import { peerAddressOf } from "../core/rate-limit/peer.js"
import { allStates, describeMachine, type MachineDescription } from "./describe.js"
import { layoutMachine } from "./layout.js"
import { MissingElk } from "../core/errors.js"
import type { FlowRecorder, FlowStatus } from "./recorder.js"
import { renderSvg } from "./svg.js"

/**
 * Options of {@link createInspectorHandler}.
 *
 * @example
 * ```ts
 * createInspectorHandler(recorder, { basePath: "/inspect", authorize: (request) => request.headers.get("x-admin-token") === adminToken })
 * ```
 */
export interface InspectorHandlerOptions {
  /** Where the handler is mounted: every URL it serves and links to starts with it. Default `/inspect`. */
  basePath?: string
  /**
   * Who may see the inspector: asked on every request, in every environment, when given.
   *
   * @default only requests from this machine, and none when `NODE_ENV` is `production`: the
   * socket's peer (recorded with `withClientAddress`, as `authflow/node`'s `toWebRequest` and the
   * framework wrappers do) is a loopback address, no proxy header says the request was forwarded,
   * and the Host names a loopback address or `localhost`. Everything else answers 403.
   */
  authorize?: (request: Request) => boolean | Promise<boolean>
  /** The page's title. Default `authflow inspector`. */
  title?: string
}

const pageSize = 50
const maxPageSize = 200
const maxStreams = 32
const statuses: ReadonlySet<string> = new Set(["running", "waiting", "succeeded", "ended", "error", "stopped"])

const securityHeaders: Record<string, string> = {
  "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-store",
}

function respond(body: BodyInit | null, status: number, type: string, head: boolean, extra: Record<string, string> = {}): Response {
  return new Response(head ? null : body, { status, headers: { ...securityHeaders, "content-type": type, ...extra } })
}

function text(message: string, status: number, head = false, extra: Record<string, string> = {}): Response {
  return respond(message, status, "text/plain; charset=utf-8", head, extra)
}

function json(data: unknown, head: boolean): Response {
  return respond(JSON.stringify(data), 200, "application/json; charset=utf-8", head)
}

/** `/inspect/` → `/inspect`, `inspect` → `/inspect`, `/` → `` (mounted at the root). */
function normalizeBase(basePath: string): string {
  const trimmed = basePath.trim().replace(/\/+$/, "")
  return trimmed === "" ? "" : trimmed.startsWith("/") ? trimmed : `/${trimmed}`
}

/** Headers a proxy adds when it forwards a request: a request from this machine that carries one may come from anywhere. */
const forwardingHeaders = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip", "x-client-ip", "x-cluster-client-ip", "cf-connecting-ip", "true-client-ip", "fastly-client-ip", "via"]

const openIt = "Pass `authorize: (request) => boolean` to createInspector() to let the requests you trust see it."

/**
 * Why a request without an `authorize` check may not see the inspector, or `undefined` when it came
 * from this machine: its socket's peer is loopback (a header cannot say so: only the recorded peer
 * counts), no proxy forwarded it, and its Host is a loopback name, so that a page elsewhere whose
 * name was rebound to 127.0.0.1 cannot read it through the developer's browser.
 */
function notFromThisMachine(request: Request): string | undefined {
  const peer = peerAddressOf(request)
  if (!peer) {
    return `Forbidden: the authflow inspector serves only requests from this machine, and this request's address is unknown (record it with withClientAddress(request, socketAddress); authflow/node's toWebRequest does). ${openIt}`
  }
  const local = "Forbidden: the authflow inspector serves only requests from this machine, straight to localhost, not through a proxy."
  if (!isLoopbackAddress(peer) || forwardingHeaders.some((name) => request.headers.has(name))) return `${local} ${openIt}`
  let hostname: string
  try {
    hostname = new URL(`http://${request.headers.get("host") ?? new URL(request.url).host}`).hostname.toLowerCase()
  } catch {
    return `${local} ${openIt}`
  }
  const loopbackName = hostname === "localhost" || hostname.endsWith(".localhost") || (parseAddress(hostname) !== undefined && isLoopbackAddress(hostname))
  return loopbackName ? undefined : `${local} ${openIt}`
}

function isProduction(): boolean {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.NODE_ENV === "production"
}

function machineSummary(description: MachineDescription): string {
  const states = allStates(description)
  const transitions = states.reduce((sum, state) => sum + state.transitions.length, description.transitions.length)
  const effects = [...new Set(states.flatMap((state) => (state.effect ? [state.effect] : [])))]
  const finals = states.filter((state) => state.type === "final").length
  return `${states.length} states (${finals} final), ${transitions} transitions. Effects: ${effects.join(", ") || "none"}.`
}

/**
 * The inspector's HTTP handler: the page, its script and stylesheet, the machines (as JSON and as
 * SVG statecharts laid out by ELK), the recorded flows (JSON, paginated), and a server-sent event
 * stream of flow updates. Everything is served from `basePath`, nothing from elsewhere, so the page
 * works without network access. Read-only: no route changes a flow or the record.
 *
 * @example
 * ```ts
 * const recorder = new FlowRecorder()
 * const handler = createInspectorHandler(recorder, { basePath: "/debug/auth", authorize: (request) => isAdmin(request) })
 * ```
 */
export function createInspectorHandler(recorder: FlowRecorder, options: InspectorHandlerOptions = {}): (request: Request) => Promise<Response> {
  const base = normalizeBase(options.basePath ?? "/inspect")
  const title = options.title ?? "authflow inspector"
  const descriptions = new Map<string, MachineDescription>()
  const svgs = new Map<string, Promise<string>>()
  let streams = 0

  const describe = (machine: AnyStateMachine): MachineDescription => {
    let description = descriptions.get(machine.id)
    if (!description) descriptions.set(machine.id, (description = describeMachine(machine)))
    return description
  }
  const svgOf = (machine: AnyStateMachine): Promise<string> => {
    let svg = svgs.get(machine.id)
    if (!svg) {
      const description = describe(machine)
      svg = layoutMachine(description).then((diagram) => renderSvg(description, diagram))
      svg.catch(() => svgs.delete(machine.id))
      svgs.set(machine.id, svg)
    }
    return svg
  }

  const eventStream = (request: Request): Response => {
    if (streams >= maxStreams) return text("Too many inspector pages are open at once.", 503)
    streams++
    const encoder = new TextEncoder()
    let cleanup = () => {}
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        let closed = false
        const write = (chunk: string) => {
          if (closed) return
          // A page that stops reading is dropped rather than buffered without bound.
          if ((controller.desiredSize ?? 0) < -1000) return void close()
          controller.enqueue(encoder.encode(chunk))
        }
        const send = (event: string, data: unknown) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
        const pending = new Set<string>()
        let timer: ReturnType<typeof setTimeout> | undefined
        const flush = () => {
          timer = undefined
          const flows = [...pending].flatMap((id) => {
            const flow = recorder.get(id)
            return flow ? [recorder.summary(flow)] : []
          })
          pending.clear()
          // `listed` and `unlisted`: what the unfiltered list counts, and the flows it leaves out.
          if (flows.length) send("flows", { total: recorder.size, listed: recorder.size - recorder.unlisted, unlisted: recorder.unlisted, flows })
        }
        const unsubscribe = recorder.subscribe((flow) => {
          pending.add(flow.id)
          timer ??= setTimeout(flush, 100)
        })
        const keepAlive = setInterval(() => write(": keep-alive\n\n"), 15_000)
        ;(keepAlive as { unref?: () => void }).unref?.()
        const close = () => {
          if (closed) return
          closed = true
          cleanup()
          try {
            controller.close()
          } catch {
            // Already closed by the other side.
          }
        }
        cleanup = () => {
          unsubscribe()
          clearInterval(keepAlive)
          if (timer) clearTimeout(timer)
          closed = true
          streams--
          cleanup = () => {}
        }
        request.signal?.addEventListener("abort", close)
        write("retry: 2000\n\n")
        const { total, flows, unlisted } = recorder.list({ limit: pageSize })
        send("hello", { total, pageSize, flows, unlisted })
      },
      cancel() {
        cleanup()
      },
    })
    return new Response(body, { status: 200, headers: { ...securityHeaders, "content-type": "text/event-stream; charset=utf-8", "x-accel-buffering": "no" } })
  }

  const route = async (request: Request, sub: string, head: boolean): Promise<Response> => {
    switch (sub) {
      case "":
      case "/":
        // Lay every known machine out now, while the page loads its script.
        for (const machine of recorder.machines()) void svgOf(machine).catch(() => {})
        return respond(pageHtml(base, recorder.machines().map((machine) => machine.id), title), 200, "text/html; charset=utf-8", head)
      case "/assets/inspector.js":
        return respond(clientScript, 200, "text/javascript; charset=utf-8", head)
      case "/assets/inspector.css":
        return respond(styles, 200, "text/css; charset=utf-8", head)
      case "/api/machines":
        return json(recorder.machines().map((machine) => ({ description: describe(machine), summary: machineSummary(describe(machine)) })), head)
      case "/api/flows": {
        const query = new URL(request.url).searchParams
        const status = query.get("status") ?? ""
        const list = recorder.list({
          offset: Number(query.get("offset")) || 0,
          limit: Math.min(maxPageSize, Number(query.get("limit")) || pageSize),
          ...(query.get("machine") && { machine: query.get("machine")! }),
          ...(statuses.has(status) && { status: status as FlowStatus }),
        })
        return json({ ...list, recorded: recorder.size }, head)
      }
      case "/api/events":
        return head ? respond(null, 200, "text/event-stream; charset=utf-8", true) : eventStream(request)
    }
    const svg = /^\/api\/machines\/([^/]+)\.svg$/.exec(sub)
    if (svg) {
      const id = decodeURIComponent(svg[1]!)
      const machine = recorder.machines().find((candidate) => candidate.id === id)
      if (!machine) return text(`No machine "${id}".`, 404, head)
      return respond(await svgOf(machine), 200, "image/svg+xml; charset=utf-8", head)
    }
    const flow = /^\/api\/flows\/([A-Za-z0-9_-]+)$/.exec(sub)
    if (flow) {
      const record = recorder.get(flow[1]!)
      if (!record) return text("This flow is not recorded (any more).", 404, head)
      return json({ ...record, summary: recorder.summary(record) }, head)
    }
    return text("Not found.", 404, head)
  }

  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url)
    const path = url.pathname
    if (path !== base && !path.startsWith(`${base}/`)) return text("Not found.", 404)
    const head = request.method === "HEAD"
    if (request.method !== "GET" && !head) return text("The inspector is read-only: GET only.", 405, false, { allow: "GET, HEAD" })
    if (options.authorize) {
      let allowed = false
      try {
        allowed = (await options.authorize(request)) === true
      } catch {
        allowed = false
      }
      if (!allowed) return text("Forbidden: the inspector's authorize check refused this request.", 403, head)
    } else if (isProduction()) {
      return text(`Forbidden: the authflow inspector is off in production: it shows who signs in and how. ${openIt}`, 403, head)
    } else {
      const refusal = notFromThisMachine(request)
      if (refusal) return text(refusal, 403, head)
    }
    try {
      return await route(request, path.slice(base.length), head)
    } catch (error) {
      if (error instanceof MissingElk) return text(error.message, 500, head)
      return text("The inspector could not answer this request.", 500, head)
    }
  }
}
