import { Title } from "@solidjs/meta"
import Counter from "~/components/Counter"

export default function Home() {
  return (
    <main>
      <Title>Hello World</Title>
      <h1>Hello world!</h1>
      <Counter />
      <p>Edit src/routes/index.tsx to change this page.</p>
    </main>
  )
}
