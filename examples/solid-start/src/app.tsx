import { A, Router } from "@solidjs/router"
import { FileRoutes } from "@solidjs/start/router"
import { Suspense } from "solid-js"

export default function App() {
  return (
    <Router
      root={(props) => (
        <>
          <nav>
            <A href="/">Home</A> | <A href="/protected">Protected (server-rendered)</A> |{" "}
            <A href="/client-protected">Protected (client-rendered)</A>
          </nav>
          <main>
            <Suspense>{props.children}</Suspense>
          </main>
        </>
      )}
    >
      <FileRoutes />
    </Router>
  )
}
