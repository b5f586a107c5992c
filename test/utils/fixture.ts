import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import { startRuntime } from '../../scripts/runtimes.mjs'
import type { RuntimeApp, RuntimeTarget } from '../../scripts/runtimes.mjs'
import { startMcpTestApp } from '../../src/testing'
import type { McpTestApp } from '../../src/testing'

const run = promisify(execFile)
export const repoRoot = resolve(import.meta.dirname, '../..')
const nuxi = resolve(repoRoot, 'node_modules/@nuxt/cli/bin/nuxi.mjs')

/** Absolute path of a fixture app under test/fixtures. */
export function fixtureDir(name: string): string {
  return resolve(repoRoot, 'test/fixtures', name)
}

/**
 * The fixtures many e2e files start: the global setup builds them in the background from the
 * first second of a run, and the e2e files wait for them (test/fixtures-ready.ts).
 */
export const SHARED_FIXTURES = ['elicitation', 'basic', 'guards', 'shared-state', 'host', 'views', 'oauth'] as const

/**
 * Every source file a fixture build depends on, for a content hash. Dot-entries are what tools
 * write beside the sources (`.output`, `.nuxt`, `.data`, wrangler's `.wrangler`, `.tmp-dev-*`
 * copies), never sources: counted, they changed the hash in the middle of a run (wrangler writes
 * its state while other files start clusters), and a later `buildFixture(…, { reuse })` rebuilt
 * a fixture other files were serving, two at once (a CI run failed that way).
 */
function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return []
    const path = join(dir, entry.name)
    return entry.isDirectory() ? sourceFiles(path) : [path]
  })
}

/**
 * Fixtures share layers (basic extends basic-layer), and the host fixture is the playground's
 * pages and server: any change to one rebuilds them all.
 */
export function buildHash(): string {
  const hash = createHash('sha256')
  const sources = [...sourceFiles(resolve(repoRoot, 'src')), ...sourceFiles(resolve(repoRoot, 'test/fixtures')), ...sourceFiles(resolve(repoRoot, 'playground')), resolve(repoRoot, 'package-lock.json')]
  for (const file of sources.sort()) {
    hash.update(file).update(readFileSync(file))
  }
  return hash.digest('hex')
}

/** Where the fixtures' build locks live: in node_modules, which git ignores and each checkout has its own of. */
const BUILD_LOCKS = resolve(repoRoot, 'node_modules/.cache/nuxt-mcp-fixture-builds')
/** A build waits this long for another build of its fixture before it says who holds the lock. */
const BUILD_LOCK_WAIT_MS = 20 * 60_000

/** Whether the process `pid` is still running (a lock left by a killed run is taken over). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  }
  catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Runs `work` holding `name`'s build lock, across every vitest process (the global setup and the
 * test files alike): two builds of one fixture at once would clobber its `.output` (a CI run
 * failed that way). With the lock, the global setup builds in the background while the first test
 * files run, and a file that needs a fixture the setup is building waits for that build.
 *
 * @example
 * ```ts
 * await withBuildLock('basic', () => run(process.execPath, [nuxi, 'build', fixtureDir('basic')]))
 * ```
 */
async function withBuildLock<T>(name: string, work: () => Promise<T>): Promise<T> {
  mkdirSync(BUILD_LOCKS, { recursive: true })
  const lock = join(BUILD_LOCKS, `${name}.lock`)
  const deadline = Date.now() + BUILD_LOCK_WAIT_MS
  for (;;) {
    try {
      mkdirSync(lock)
      writeFileSync(join(lock, 'pid'), String(process.pid))
      break
    }
    catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    // The holder writes its pid right after taking the lock: a lock without one is being taken.
    const holder = Number(existsSync(join(lock, 'pid')) ? readFileSync(join(lock, 'pid'), 'utf8') : Number.NaN)
    if (Number.isInteger(holder) && holder > 0 && !isRunning(holder)) {
      rmSync(lock, { recursive: true, force: true })
      continue
    }
    if (Date.now() > deadline) throw new Error(`The build lock of fixture ${name} (${lock}) is held by pid ${holder} for ${BUILD_LOCK_WAIT_MS / 60_000} minutes: if no build of it runs, remove that folder.`)
    await sleep(200)
  }
  try {
    return await work()
  }
  finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

/** Whether `name`'s `.output` was built from the sources whose hash is `hash`. */
function isBuiltFrom(name: string, hash: string): boolean {
  const stamp = resolve(fixtureDir(name), '.output/.source-hash')
  return existsSync(stamp) && readFileSync(stamp, 'utf8') === hash
}

/**
 * Builds a fixture with `nuxi build` (production output in `.output`), holding its build lock.
 * Throws with the build log when the build fails, so a test can assert on a build error. With
 * `reuse`, an output built from the same sources (module and fixture) is kept: the global setup's
 * build is reused by every file, and local re-runs stay fast; CI starts clean.
 *
 * @example
 * ```ts
 * await buildFixture('oauth', { reuse: true })
 * ```
 */
export async function buildFixture(name: string, options: { reuse?: boolean } = {}): Promise<void> {
  if (options.reuse && isBuiltFrom(name, buildHash())) return
  await withBuildLock(name, async () => {
    // Another process may have built it while this one waited for the lock.
    const hash = buildHash()
    if (options.reuse && isBuiltFrom(name, hash)) return
    try {
      await run(process.execPath, [nuxi, 'build', fixtureDir(name)], { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NODE_ENV: 'production' } })
      writeFileSync(resolve(fixtureDir(name), '.output/.source-hash'), hash)
    }
    catch (error) {
      const { stdout = '', stderr = '' } = error as { stdout?: string, stderr?: string }
      throw new Error(`nuxi build ${name} failed:\n${stdout}\n${stderr}`)
    }
  })
}

/**
 * Waits until every shared fixture is built from today's sources, building any the global setup
 * has not reached yet (one hash of the sources for all of them when they are all built).
 *
 * @example
 * ```ts
 * await buildSharedFixtures()
 * ```
 */
export async function buildSharedFixtures(): Promise<void> {
  const hash = buildHash()
  for (const name of SHARED_FIXTURES) {
    if (!isBuiltFrom(name, hash)) await buildFixture(name, { reuse: true })
  }
}

/**
 * The folder of `name`, built from today's sources (built now if the global setup has not got to
 * it yet, or waiting for the build that runs): what every file that starts a fixture goes through.
 *
 * @example
 * ```ts
 * const root = await builtFixture('shared-state')
 * ```
 */
export async function builtFixture(name: string): Promise<string> {
  await buildFixture(name, { reuse: true })
  return fixtureDir(name)
}

/** A loopback port free at the time of asking (scripts/ports.mjs: start what binds it with `onFreePort`). */
export { freePort } from '../../scripts/ports.mjs'

/** A started fixture: the testing helper's app handle. */
export type RunningFixture = McpTestApp

/**
 * Starts a fixture, built from today's sources (`builtFixture`), on a free loopback port with the
 * module's own testing helper (`startMcpTestApp`), so our tests use what users use.
 *
 * @example
 * ```ts
 * const app = await startFixture('elicitation', { NUXT_MCP_STATE_SECRET: 's'.repeat(40) })
 * ```
 */
export async function startFixture(name: string, env: Record<string, string> = {}): Promise<RunningFixture> {
  return startMcpTestApp(await builtFixture(name), { env })
}

export type { RuntimeApp, RuntimeTarget } from '../../scripts/runtimes.mjs'

/**
 * Starts fixture `name`, built from today's sources, with `target`'s real runtime (Node, Bun,
 * Deno, or workerd through `wrangler dev`), as a deployment runs it: on `port` when given, else on
 * one of its own; resolves once it answers HTTP. For several instances of one build (a cluster), an
 * app behind an issuer that must know its URL, or a target other than the testing helper's Node.
 *
 * @example
 * ```ts
 * const app = await startFixtureOn('bun', 'runtime-bun', { env: { NUXT_MCP_STATE_SECRET: secret } })
 * ```
 */
export async function startFixtureOn(target: RuntimeTarget, name: string, options: { env?: Record<string, string>, port?: number } = {}): Promise<RuntimeApp> {
  return startRuntime({ target, root: await builtFixture(name), ...options })
}
