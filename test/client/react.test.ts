/**
 * `authflow/react` rendered on the server (no effects run, so no request is sent): what
 * `useSession` returns for a given `SessionProvider` state.
 */
import { createElement, type ReactNode } from "react"
import { renderToString } from "react-dom/server"
import { describe, expect, it, vi } from "vitest"
import { SessionProvider, useAccounts, useSession } from "../../src/client/react.js"
import { clientConfig, configure } from "../../src/client/index.js"
import type { Session } from "../../src/types.js"

function Probe({ required }: { required?: boolean }): ReactNode {
  const { status, data } = useSession({ required: required ?? false })
  return `${status}:${data?.user?.name ?? "-"}`
}

const session: Session = { user: { name: "Ada Lovelace", email: "ada@example.test" }, expires: "2099-01-01T00:00:00.000Z" }

function render(props: { session?: Session | null; basePath?: string }, required?: boolean): string {
  return renderToString(createElement(SessionProvider, props, createElement(Probe, { required })))
}

describe("SessionProvider and useSession", () => {
  it("start from the session the server passed", () => {
    expect(render({ session })).toBe("authenticated:Ada Lovelace")
    expect(render({ session: null })).toBe("unauthenticated:-")
  })

  it("are loading until the first read when no session was passed", () => {
    expect(render({})).toBe("loading:-")
  })

  it("never report unauthenticated when the session is required", () => {
    expect(render({ session: null }, true)).toBe("loading:-")
    expect(render({ session }, true)).toBe("authenticated:Ada Lovelace")
  })

  it("configure the client's base path from the basePath prop", () => {
    const before = clientConfig().basePath
    try {
      render({ session: null, basePath: "/custom/auth" })
      expect(clientConfig().basePath).toBe("/custom/auth")
    } finally {
      configure({ basePath: before })
    }
  })

  it("useSession outside a SessionProvider is an error", () => {
    vi.spyOn(console, "error").mockImplementation(() => {})
    expect(() => renderToString(createElement(Probe))).toThrow(/SessionProvider/)
    vi.restoreAllMocks()
  })
})

describe("useAccounts", () => {
  it("is loading until the first listing (rendered on the server, where no request is sent)", () => {
    function Accounts(): ReactNode {
      const { status, accounts, switchAccount, signOut, refresh } = useAccounts()
      return `${status}:${accounts === undefined}:${[switchAccount, signOut, refresh].map((action) => typeof action).join(",")}`
    }
    expect(renderToString(createElement(Accounts))).toBe("loading:true:function,function,function")
  })
})
