import { SessionPanel } from "./session-panel"

export default function Home() {
  return (
    <>
      <h1>authflow + Next.js</h1>
      <p>This page is public. Sign in as ada / lovelace.</p>
      <SessionPanel />
    </>
  )
}
