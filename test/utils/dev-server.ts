import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cp, mkdir, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fixtureDir, freePort, repoRoot } from './fixture'
import { userEnv } from './pack'

/** A `nuxi dev` server on a throwaway copy of test/fixtures/dev. */
export interface DevApp {
  dir: string
  url: URL
  /** Everything the dev server printed so far. */
  log: () => string
  alive: () => boolean
  stop: () => Promise<void>
}

const nuxi = resolve(repoRoot, 'node_modules/@nuxt/cli/bin/nuxi.mjs')

function withoutCi(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { CI: _ci, ...rest } = env
  return rest
}

/**
 * Copies test/fixtures/dev beside the fixtures (so it resolves `nuxt` and `zod` from the repo),
 * writes `files` (path → content; `null` removes the path), and starts `nuxi dev` on it (listening on
 * `options.host`, default 127.0.0.1). Resolves once it printed where it listens, with that URL
 * (another port than the one asked for when that was taken); callers poll for what they need.
 *
 * @example
 * ```ts
 * const app = await startDevApp({ 'server/mcp/tools/ask.ts': source })
 * ```
 */
export async function startDevApp(files: Record<string, string | null> = {}, options: { host?: string } = {}): Promise<DevApp> {
  const dir = resolve(repoRoot, 'test/fixtures', `.tmp-dev-${randomBytes(4).toString('hex')}`)
  await cp(fixtureDir('dev'), dir, { recursive: true, filter: source => !/[\\/](?:\.nuxt|\.output|node_modules)$/.test(source) })
  // An absolute module path: the copy must not depend on where it sits.
  await writeFile(join(dir, 'nuxt.config.ts'), `export default defineNuxtConfig({
  modules: [${JSON.stringify(resolve(repoRoot, 'src/module'))}],
  compatibilityDate: '2026-11-01',
  devtools: { enabled: false },
  mcp: { name: 'dev-fixture' },
})
`)
  for (const [path, content] of Object.entries(files)) {
    if (content === null) {
      await rm(join(dir, path), { recursive: true, force: true })
      continue
    }
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), content)
  }
  const port = await freePort()
  let log = ''
  const child: ChildProcess = spawn(process.execPath, [nuxi, 'dev', dir, '--port', String(port), '--host', options.host ?? '127.0.0.1'], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // As on a developer's machine: with CI set, Nitro's dev server terminates the old worker
    // without its graceful shutdown, and a request in flight during a reload hangs.
    env: withoutCi(userEnv({ NUXT_TELEMETRY_DISABLED: '1' })),
  })
  child.stdout?.on('data', (chunk: Buffer) => { log += chunk.toString() })
  child.stderr?.on('data', (chunk: Buffer) => { log += chunk.toString() })
  child.once('exit', (code, signal) => { log += `\n[nuxi dev exited: ${code ?? signal}]` })
  const alive = () => child.exitCode === null && child.signalCode === null
  const stop = async () => {
    if (child.pid && alive()) {
      const exited = new Promise<void>(r => child.once('exit', () => r()))
      // nuxi dev forks the Nuxt server: signal the whole process group it leads.
      process.kill(-child.pid, 'SIGTERM')
      const force = setTimeout(() => {
        if (alive() && child.pid) process.kill(-child.pid, 'SIGKILL')
      }, 5000)
      await exited.finally(() => clearTimeout(force))
    }
    await rm(dir, { recursive: true, force: true })
  }
  // nuxi dev moves to another port when the one asked for was taken meanwhile (listhen): the
  // port it printed is the one it serves, so nothing else can answer in its place.
  const deadline = Date.now() + 120_000
  let served = listeningPort(log)
  while (served === undefined) {
    if (!alive() || Date.now() > deadline) {
      await stop()
      throw new Error(`nuxi dev did not say where it listens (asked for port ${port}):\n${log.slice(-4000)}`)
    }
    await new Promise(resolve => setTimeout(resolve, 100))
    served = listeningPort(log)
  }
  return { dir, url: new URL(`http://127.0.0.1:${served}/mcp`), log: () => log, alive, stop }
}

/** The port of the `Local:` URL nuxi dev prints (colours stripped); `undefined` until it has. */
function listeningPort(output: string): number | undefined {
  // eslint-disable-next-line no-control-regex
  const match = /Local:\s+https?:\/\/[^\s/]+:(\d+)/.exec(output.replace(/\x1B\[[0-9;]*m/g, ''))
  return match ? Number(match[1]) : undefined
}
