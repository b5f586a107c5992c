import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { installIntoCache } from '../../scripts/node-runtime.mjs'
import { fixtureDir, freePort } from './fixture'

/** The real runtimes the deploy-target tests run fixtures in, from npm (binaries inside). */
const RUNTIME_PACKAGES = ['deno@2.9.6', 'bun@1.4.5', 'wrangler@4.164.0']

/** A deploy target: the fixture built with its preset, and how its runtime serves it. */
export type RuntimeTarget = 'node' | 'bun' | 'deno' | 'workers' | 'workers-poly'

/** A fixture served by its runtime on a free loopback port. */
export interface RuntimeApp {
  target: RuntimeTarget
  origin: string
  url: URL
  output: () => string
  stop: () => Promise<void>
}

/** Installs (once) and returns the folder of the runtimes' npm packages, under .cache/runtimes. */
export function runtimesDir(): string {
  return installIntoCache('runtimes', RUNTIME_PACKAGES)
}

function command(target: RuntimeTarget, root: string, port: number, env: Record<string, string>): { file: string, args: string[], cwd: string } {
  const bin = (name: string) => resolve(runtimesDir(), 'node_modules/.bin', name)
  switch (target) {
    case 'node':
      return { file: process.execPath, args: [resolve(root, '.output/server/index.mjs')], cwd: root }
    case 'bun':
      return { file: bin('bun'), args: [resolve(root, '.output/server/index.mjs')], cwd: root }
    case 'deno':
      // What the preset's own `deno.json` start task runs.
      return { file: bin('deno'), args: ['run', '--allow-net', '--allow-read', '--allow-write', '--allow-env', '--unstable-byonm', '--unstable-node-globals', './server/index.mjs'], cwd: resolve(root, '.output') }
    case 'workers':
    case 'workers-poly': {
      // `wrangler dev` runs Cloudflare's runtime (workerd) locally: the command Nitro prints. With no
      // wrangler config it would use its own current date; the polyfilled build is run at the date
      // Nuxt gave it (2025-07-15, before nodejs_compat became the default), as a deployment would.
      const wrangler = resolve(runtimesDir(), 'node_modules/wrangler/bin/wrangler.js')
      const date = target === 'workers-poly' ? ['--compatibility-date', '2025-07-15'] : []
      const vars = Object.entries(env).flatMap(([name, value]) => ['--var', `${name}:${value}`])
      return { file: process.execPath, args: [wrangler, 'dev', '.output/server/index.mjs', '--assets', '.output/public', '--ip', '127.0.0.1', '--port', String(port), ...date, ...vars], cwd: root }
    }
  }
}

/**
 * Starts the built `runtime-<target>` fixture with its real runtime (Node, Bun, Deno, or workerd
 * through `wrangler dev`) in its own process group, and resolves once it answers HTTP.
 *
 * @example
 * ```ts
 * const app = await startRuntimeApp('bun', { NUXT_MCP_STATE_SECRET: secret })
 * ```
 */
export async function startRuntimeApp(target: RuntimeTarget, env: Record<string, string> = {}): Promise<RuntimeApp> {
  const root = fixtureDir(`runtime-${target}`)
  if (!existsSync(resolve(root, '.output/server/index.mjs'))) throw new Error(`runtime-${target} is not built: buildFixture('runtime-${target}') first.`)
  const port = await freePort()
  const { file, args, cwd } = command(target, root, port, env)
  let log = ''
  const child: ChildProcess = spawn(file, args, {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NITRO_PORT: String(port), NITRO_HOST: '127.0.0.1', WRANGLER_SEND_METRICS: 'false', ...env },
  })
  child.stdout?.on('data', (chunk: Buffer) => { log += chunk.toString() })
  child.stderr?.on('data', (chunk: Buffer) => { log += chunk.toString() })
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) return
    const exited = new Promise(done => child.once('exit', done))
    // wrangler forks workerd: signal the whole group.
    process.kill(-child.pid, 'SIGTERM')
    const force = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), 5000)
    await exited
    clearTimeout(force)
  }
  const origin = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${target} exited before it answered:\n${log}`)
    try {
      await fetch(origin, { signal: AbortSignal.timeout(2000) })
      break
    }
    catch {
      if (Date.now() > deadline) {
        await stop()
        throw new Error(`${target} did not answer within 60 s:\n${log}`)
      }
      await new Promise(done => setTimeout(done, 200))
    }
  }
  return { target, origin, url: new URL('/mcp', origin), output: () => log, stop }
}
