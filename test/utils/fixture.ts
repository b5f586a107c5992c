import { spawn, execFile } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)
export const repoRoot = resolve(import.meta.dirname, '../..')
const nuxi = resolve(repoRoot, 'node_modules/@nuxt/cli/bin/nuxi.mjs')

/** Absolute path of a fixture app under test/fixtures. */
export function fixtureDir(name: string): string {
  return resolve(repoRoot, 'test/fixtures', name)
}

/** Every source file a fixture build depends on, for a content hash. */
function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (['node_modules', '.output', '.nuxt', '.data'].includes(entry.name) || entry.name.startsWith('.tmp')) return []
    const path = join(dir, entry.name)
    return entry.isDirectory() ? sourceFiles(path) : [path]
  })
}

/** Fixtures share layers (basic extends basic-layer), so any fixture change rebuilds them all. */
function buildHash(): string {
  const hash = createHash('sha256')
  for (const file of [...sourceFiles(resolve(repoRoot, 'src')), ...sourceFiles(resolve(repoRoot, 'test/fixtures')), resolve(repoRoot, 'package-lock.json')].sort()) {
    hash.update(file).update(readFileSync(file))
  }
  return hash.digest('hex')
}

/**
 * Builds a fixture with `nuxi build` (production output in `.output`). Throws with the build log
 * when the build fails, so a test can assert on a build error. With `reuse`, an output built from
 * the same sources (module and fixture) is kept, which keeps local re-runs fast; CI starts clean.
 */
export async function buildFixture(name: string, options: { reuse?: boolean } = {}): Promise<void> {
  const stamp = resolve(fixtureDir(name), '.output/.source-hash')
  const hash = buildHash()
  if (options.reuse && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return
  try {
    await run(process.execPath, [nuxi, 'build', fixtureDir(name)], { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NODE_ENV: 'production' } })
    writeFileSync(stamp, hash)
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
