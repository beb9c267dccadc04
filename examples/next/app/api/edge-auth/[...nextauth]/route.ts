// app/api/edge-auth/[...nextauth]/route.ts: authflow's routes on the edge runtime (see README.md).
import type { NextRequest } from "next/server"
import { handlers } from "@/edge-auth"

export const runtime = "edge"

/** Marks each answer with the runtime that served it: `EdgeRuntime` is defined only on the edge. */
function marked(handler: (request: NextRequest) => Promise<Response>) {
  return async (request: NextRequest) => {
    const response = await handler(request)
    const headers = new Headers(response.headers)
    headers.set("x-runtime", typeof (globalThis as { EdgeRuntime?: unknown }).EdgeRuntime === "string" ? "edge" : "nodejs")
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  }
}

export const GET = marked(handlers.GET)
export const POST = marked(handlers.POST)
