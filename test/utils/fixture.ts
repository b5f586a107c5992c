import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
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

/** A loopback port free at the time of asking (scripts/ports.mjs: start what binds it with `onFreePort`). */
export { freePort } from '../../scripts/ports.mjs'

/** A started fixture: the testing helper's app handle. */
export type RunningFixture = McpTestApp

/**
 * Starts a built fixture on a free loopback port with the module's own testing helper
 * (`startMcpTestApp`), so our tests use what users use.
 */
export async function startFixture(name: string, env: Record<string, string> = {}): Promise<RunningFixture> {
  const entry = resolve(fixtureDir(name), '.output/server/index.mjs')
  if (!existsSync(entry)) throw new Error(`Fixture ${name} is not built (${entry} missing): the global setup builds it.`)
  return startMcpTestApp(fixtureDir(name), { env })
}
