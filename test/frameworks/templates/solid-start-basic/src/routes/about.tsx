import { Title } from "@solidjs/meta"

export default function About() {
  return (
    <main>
      <Title>About</Title>
      <h1>About</h1>
    </main>
  )
}
