import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
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

/**
 * The origin a Nitro server printed it listens on (`Listening on http://127.0.0.1:41234`, as the
 * `node-server` preset prints once it is bound), or `undefined` while it has not.
 */
function listeningOrigin(output: string): string | undefined {
  const printed = /Listening on (https?:\/\/\S+)/.exec(output)?.[1]
  if (!printed) return undefined
  try {
    return new URL(printed).origin
  }
  catch {
    return undefined
  }
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
 * Starts an app you built with `nuxi build` (`<rootDir>/.output/server/index.mjs`) on a loopback
 * port the kernel picks (`PORT=0`; read back from the server's "Listening on" line, so apps
 * started at once never share one) and resolves once it answers HTTP.
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
  let log = ''
  // Port 0: the server binds a port the kernel picks and prints it. (A port probed free and handed
  // over can be taken by another server in between: two apps started at once could share one.)
  const child = spawn(options.node ?? process.execPath, [entry], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout?.on('data', (chunk: Buffer) => { log += chunk.toString() })
  child.stderr?.on('data', (chunk: Buffer) => { log += chunk.toString() })
  const deadline = Date.now() + 20_000
  let origin: string | undefined
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The app exited before it answered:\n${log}`)
    origin ??= listeningOrigin(log)
    try {
      if (origin) {
        await fetch(origin, { signal: AbortSignal.timeout(1000) })
        break
      }
    }
    catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(origin ? `The app did not answer at ${origin} within 20 s:\n${log}` : `The app did not print "Listening on <url>" within 20 s (is it a node-server build?):\n${log}`)
    }
    await new Promise(done => setTimeout(done, 50))
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
