import type { Metadata } from "next"
import Link from "next/link"
import type { ReactNode } from "react"
import { SessionProvider } from "authflow/react"
import "./styles.css"

export const metadata: Metadata = { title: "authflow + Next.js" }

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <nav>
          <Link href="/">Home</Link>
          <Link href="/protected">Protected (Server Component)</Link>
          <Link href="/middleware-protected">Protected (proxy)</Link>
          <Link href="/signin">Sign in</Link>
        </nav>
        <SessionProvider>
          <main>{children}</main>
        </SessionProvider>
      </body>
    </html>
  )
}
