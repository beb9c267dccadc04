/**
 * One cold start, run in a fresh Node process by bench/cold.ts: imports an auth library's `Auth`
 * and its Credentials provider, answers one GET /session carrying a session cookie, and prints
 * what each step took (ms, on the wall clock and in the process's CPU time) as JSON. Plain JavaScript, so no TypeScript loader weighs on either side.
 *
 *   node bench/cold-start.mjs <auth module> <credentials module> <cookie header> <secret> <basePath>
 */
const [authModule, credentialsModule, cookie, secret, basePath] = process.argv.slice(2)

const cpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}
const start = performance.now()
const startCpu = cpuMs()
const { Auth } = await import(authModule)
const { default: Credentials } = await import(credentialsModule)
const imported = performance.now()
const importedCpu = cpuMs()

const config = {
  secret,
  trustHost: true,
  basePath,
  providers: [Credentials({ credentials: { username: {} }, authorize: (credentials) => ({ id: "1", name: String(credentials.username) }) })],
}
const response = await Auth(new Request(`https://bench.test${basePath}/session`, { headers: { cookie } }), config)
const session = await response.json()
const answered = performance.now()
const answeredCpu = cpuMs()

if (response.status !== 200 || session?.user?.name !== "Ada Lovelace") {
  throw new Error(`${authModule} did not read the session: ${response.status} ${JSON.stringify(session)}`)
}
process.stdout.write(
  JSON.stringify({ importMs: imported - start, sessionMs: answered - imported, importCpuMs: importedCpu - startCpu, sessionCpuMs: answeredCpu - importedCpu }),
)
