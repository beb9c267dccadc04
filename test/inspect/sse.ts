/** Reads a server-sent event stream from a web Response until told to stop: the raw text and the parsed events. */
export function readEventStream(response: Response) {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let text = ""
  const waiters: { test: () => boolean; resolve: () => void }[] = []
  const events = () =>
    text
      .split("\n\n")
      .filter((block) => block.includes("data: "))
      .map((block) => {
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message"
        const data = block.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)).join("\n")
        return { event, data: JSON.parse(data) as Record<string, unknown>, bytes: Buffer.byteLength(block) }
      })
  const done = (async () => {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
      for (const waiter of [...waiters]) if (waiter.test()) waiters.splice(waiters.indexOf(waiter), 1), waiter.resolve()
    }
  })().catch(() => {})
  return {
    get text() {
      return text
    },
    events,
    /** Resolves once `test` holds for the events read so far. */
    until(test: (list: ReturnType<typeof events>) => boolean, ms = 5000): Promise<void> {
      if (test(events())) return Promise.resolve()
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`event stream: condition not met in ${ms} ms; got ${text.slice(0, 500)}`)), ms)
        waiters.push({ test: () => test(events()), resolve: () => (clearTimeout(timer), resolve()) })
      })
    },
    async close(): Promise<void> {
      await reader.cancel().catch(() => {})
      await done
    },
  }
}
