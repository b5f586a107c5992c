import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { resolve } from 'node:path'

/** A built Nuxt app running on loopback. */
export interface McpTestApp {
  /** e.g. http://127.0.0.1:41234 */
  origin: string
  /** The MCP endpoint (`route` defaults to /mcp). */
  url: URL
  /** Everything the server printed so far. */
  output: () => string
  /** The server process (e.g. to check it is still alive after a load test). */
  process: ChildProcess
  stop: () => Promise<void>
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer()
    server.once('error', fail)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => done(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** Options of {@link startMcpTestApp}. */
export interface McpTestAppOptions {
  /** Environment variables of the server process, over the test's own. */
  env?: Record<string, string>
  /** Where the MCP endpoint lives (default `/mcp`). */
  route?: string
  /** The Node binary that runs the app (default: the one running the tests). */
  node?: string
}

/**
 * Starts an app you built with `nuxi build` (`<rootDir>/.output/server/index.mjs`) on a free
 * loopback port and resolves once it answers HTTP.
 *
 * @example
 * ```ts
 * const app = await startMcpTestApp(fileURLToPath(new URL('..', import.meta.url)), { env: { NUXT_MCP_STATE_SECRET: 'x'.repeat(40) } })
 * // … connectMcpTestClient(app.url, …)
 * await app.stop()
 * ```
 */
export async function startMcpTestApp(rootDir: string, options: McpTestAppOptions = {}): Promise<McpTestApp> {
  const entry = resolve(rootDir, '.output/server/index.mjs')
  if (!existsSync(entry)) throw new Error(`${entry} does not exist: run \`nuxi build\` in ${rootDir} first.`)
  const port = await freePort()
  let log = ''
  const child = spawn(options.node ?? process.execPath, [entry], { env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout?.on('data', (chunk: Buffer) => { log += chunk.toString() })
  child.stderr?.on('data', (chunk: Buffer) => { log += chunk.toString() })
  const origin = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 20_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The app exited before it answered:\n${log}`)
    try {
      await fetch(origin, { signal: AbortSignal.timeout(1000) })
      break
    }
    catch {
      if (Date.now() > deadline) throw new Error(`The app did not answer within 20 s:\n${log}`)
      await new Promise(done => setTimeout(done, 100))
    }
  }
  return {
    origin,
    url: new URL(options.route ?? '/mcp', origin),
    output: () => log,
    process: child,
    stop: async () => {
      if (child.exitCode !== null) return
      const exited = new Promise(done => child.once('exit', done))
      child.kill('SIGTERM')
      const force = setTimeout(() => child.kill('SIGKILL'), 3000)
      await exited
      clearTimeout(force)
    },
  }
}
