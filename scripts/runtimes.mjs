// The real runtimes the deploy targets are served by, for the tests (test/e2e/runtimes/runtimes.test.ts)
// and the bench: Node, Bun and Deno, and Cloudflare's workerd through `wrangler dev`, from npm
// (their packages ship the binaries), cached in .cache/runtimes, never project dependencies.
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { installIntoCache } from './node-runtime.mjs'
import { onFreePort, printedPort } from './ports.mjs'

/** Pinned: what the tests and the deploy pages name. */
export const RUNTIME_PACKAGES = ['deno@2.9.6', 'bun@1.4.5', 'wrangler@4.164.0']

/** The Nitro preset each target is built with. */
export const RUNTIME_PRESETS = { 'node': 'node-server', 'bun': 'bun', 'deno': 'deno-server', 'workers': 'cloudflare-module', 'workers-poly': 'cloudflare-module' }

/** Installs (once) and returns the folder of the runtimes' npm packages. */
export function runtimesDir() {
  return installIntoCache('runtimes', RUNTIME_PACKAGES)
}

function command(target, root, port, env) {
  const bin = name => resolve(runtimesDir(), 'node_modules/.bin', name)
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
      // The command Nitro prints. With no wrangler config, wrangler uses its own current date; the
      // polyfilled build runs at the date Nuxt gave it (2025-07-15, before nodejs_compat became
      // the default), as a deployment of it would.
      const wrangler = resolve(runtimesDir(), 'node_modules/wrangler/bin/wrangler.js')
      const date = target === 'workers-poly' ? ['--compatibility-date', '2025-07-15'] : []
      const vars = Object.entries(env).flatMap(([name, value]) => ['--var', `${name}:${value}`])
      return { file: process.execPath, args: [wrangler, 'dev', '.output/server/index.mjs', '--assets', '.output/public', '--ip', '127.0.0.1', '--port', String(port), ...date, ...vars], cwd: root }
    }
    default:
      throw new Error(`Unknown deploy target "${target}": pick one of ${Object.keys(RUNTIME_PRESETS).join(', ')}.`)
  }
}

/** The targets whose server binds port 0 and prints the port it got (Nitro's node-server and deno-server presets). */
const REPORTS_ITS_PORT = new Set(['node', 'deno'])

/**
 * Starts the app built in `root` (`.output/`) with `target`'s runtime, in its own process group
 * (wrangler forks workerd), and resolves once it has printed the port it listens on and answers HTTP
 * there (an answer alone may come from another process). On `port` when given; else Node and
 * Deno bind port 0 and print the port they got, and Bun and workerd get a free port, drawn again
 * when another process took it first.
 *
 * @example
 * const app = await startRuntime({ target: 'bun', root, env: { NUXT_MCP_STATE_SECRET: secret } })
 */
export async function startRuntime({ target, root, port, env = {} }) {
  if (port !== undefined) return startOnPort(target, root, port, env)
  if (REPORTS_ITS_PORT.has(target)) return startOnPort(target, root, 0, env)
  return onFreePort(free => startOnPort(target, root, free, env))
}

async function startOnPort(target, root, port, env) {
  const { file, args, cwd } = command(target, root, port, env)
  let log = ''
  const child = spawn(file, args, {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NITRO_PORT: String(port), NITRO_HOST: '127.0.0.1', WRANGLER_SEND_METRICS: 'false', ...env },
  })
  child.stdout?.on('data', (chunk) => { log += chunk.toString() })
  child.stderr?.on('data', (chunk) => { log += chunk.toString() })
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) return
    const exited = new Promise(done => child.once('exit', done))
    process.kill(-child.pid, 'SIGTERM')
    const force = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), 5000)
    await exited
    clearTimeout(force)
  }
  const deadline = Date.now() + 60_000
  // The port this process printed, never merely the one it was handed: another process that took
  // that port first would answer the probe below in its place (a 404 from someone else's server
  // once failed a whole test file), and this one would exit with EADDRINUSE a moment later.
  let bound
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${target} exited before it answered:\n${log}`)
    bound ??= printedPort(log)
    if (bound !== undefined && port !== 0 && bound !== port) {
      await stop()
      throw new Error(`${target} listens on ${bound}, not on the port ${port} it was handed:\n${log}`)
    }
    try {
      if (bound) {
        await fetch(`http://127.0.0.1:${bound}`, { signal: AbortSignal.timeout(2000) })
        break
      }
    }
    catch {}
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`${target} did not answer within 60 s:\n${log}`)
    }
    await new Promise(done => setTimeout(done, bound ? 200 : 50))
  }
  const origin = `http://127.0.0.1:${bound}`
  return { target, origin, url: new URL('/mcp', origin), pid: child.pid, output: () => log, stop }
}
