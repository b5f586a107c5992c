// Cold start: from spawning the server process to its first answered MCP request (a legacy
// initialize, which every server under test serves), polled every 10 ms.
import { performance } from 'node:perf_hooks'
import { closeSession, openSession } from '../lib/mcp-http.mjs'
import { freePort, sleep, spawnServer } from '../lib/proc.mjs'

export async function startTimed({ entry, env, nodeArgs, cwd }, { timeoutMs = 30_000, node } = {}) {
  const port = await freePort()
  const started = performance.now()
  const server = spawnServer({ entry, env, nodeArgs, cwd, port, node })
  for (;;) {
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`)
    try {
      const sessionId = await openSession(server.url)
      const coldStartMs = performance.now() - started
      await closeSession(server.url, sessionId)
      return { server, coldStartMs }
    }
    catch {
      if (performance.now() - started > timeoutMs) {
        await server.stop()
        throw new Error(`server did not answer within ${timeoutMs} ms:\n${server.output()}`)
      }
      await sleep(10)
    }
  }
}
