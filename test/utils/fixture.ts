import { spawn, execFile } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)
export const repoRoot = resolve(import.meta.dirname, '../..')
const nuxi = resolve(repoRoot, 'node_modules/@nuxt/cli/bin/nuxi.mjs')

/** Absolute path of a fixture app under test/fixtures. */
export function fixtureDir(name: string): string {
  return resolve(repoRoot, 'test/fixtures', name)
}

/**
 * Builds a fixture with `nuxi build` (production output in `.output`). Throws with the build log
 * when the build fails, so a test can assert on a build error.
 */
export async function buildFixture(name: string): Promise<void> {
  try {
    await run(process.execPath, [nuxi, 'build', fixtureDir(name)], { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NODE_ENV: 'production' } })
  }
  catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string, stderr?: string }
    throw new Error(`nuxi build ${name} failed:\n${stdout}\n${stderr}`)
  }
}

/** A free loopback port. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolvePort(port))
    })
  })
}

export interface RunningFixture {
  /** Base URL, e.g. http://127.0.0.1:4312 */
  origin: string
  /** The MCP endpoint URL. */
  url: URL
  process: ChildProcess
  /** Everything the server printed. */
  output: () => string
  stop: () => Promise<void>
}

/**
 * Starts a built fixture's `.output/server/index.mjs` on a free loopback port and waits until it
 * answers HTTP.
 */
export async function startFixture(name: string, env: Record<string, string> = {}): Promise<RunningFixture> {
  const entry = resolve(fixtureDir(name), '.output/server/index.mjs')
  if (!existsSync(entry)) throw new Error(`Fixture ${name} is not built (${entry} missing): the global setup builds it.`)
  const port = await freePort()
  let log = ''
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NITRO_HOST: '127.0.0.1', NITRO_PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (chunk: Buffer) => { log += chunk.toString() })
  child.stderr?.on('data', (chunk: Buffer) => { log += chunk.toString() })
  const origin = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 20_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Fixture ${name} exited early:\n${log}`)
    try {
      await fetch(`${origin}/`, { signal: AbortSignal.timeout(1000) })
      break
    }
    catch {
      if (Date.now() > deadline) throw new Error(`Fixture ${name} did not start within 20 s:\n${log}`)
      await new Promise(r => setTimeout(r, 100))
    }
  }
  return {
    origin,
    url: new URL('/mcp', origin),
    process: child,
    output: () => log,
    stop: async () => {
      if (child.exitCode !== null) return
      const exited = new Promise(r => child.once('exit', r))
      child.kill('SIGTERM')
      // Graceful shutdown waits for open streams; a test server need not.
      const force = setTimeout(() => child.kill('SIGKILL'), 3000)
      await exited
      clearTimeout(force)
    },
  }
}
