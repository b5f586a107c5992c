import { execFile } from 'node:child_process'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { envWithNode, isStaleCacheFailure } from '../../scripts/node-runtime.mjs'
import { repoRoot } from './fixture'

const run = promisify(execFile)
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

/**
 * The environment a user's shell would have: without the variables vitest and `npm run` add
 * (`NODE_ENV=test`, `TEST`, `VITEST*`, `npm_*`), which would otherwise leak into the scratch
 * app's install and build and make them differ from a real one.
 */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(?:npm_|VITEST|TEST$|NODE_ENV$)/.test(key)) continue
    env[key] = value
  }
  return { ...env, ...extra }
}

/** Runs a command, and on failure (or past `timeout` ms) throws with everything it printed. */
async function runLogged(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeout = 0): Promise<string> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout })
    return `${stdout}\n${stderr}`
  }
  catch (error) {
    const { stdout = '', stderr = '', killed = false } = error as { stdout?: string, stderr?: string, killed?: boolean }
    const why = killed ? `was stopped after ${timeout / 1000} s` : 'failed'
    throw new Error(`${file} ${args.join(' ')} ${why} in ${cwd}:\n${stdout}\n${stderr}`)
  }
}

export interface PackedModule {
  /** Absolute path of the .tgz. */
  tarball: string
  /** Paths inside the package (without the `package/` prefix). */
  files: string[]
}

/**
 * `npm pack` of the repo into `destination`: runs the `prepack` script (the module build) exactly
 * as `npm publish` would, and lists what the tarball holds.
 */
export async function packModule(destination: string): Promise<PackedModule> {
  await mkdir(destination, { recursive: true })
  await runLogged(npm, ['pack', '--pack-destination', destination], repoRoot, userEnv())
  // Found on disk, not parsed from stdout: the prepack script prints there too.
  const tarballs = (await readdir(destination)).filter(name => name.endsWith('.tgz'))
  if (tarballs.length !== 1) throw new Error(`Expected one tarball in ${destination}, found: ${tarballs.join(', ') || 'none'}`)
  const tarball = join(destination, tarballs[0]!)
  const listing = await runLogged('tar', ['-tzf', tarball], destination, userEnv())
  const files = listing.split('\n').map(line => line.trim()).filter(line => line.startsWith('package/')).map(line => line.slice('package/'.length))
  return { tarball, files }
}

/** Writes files (paths relative to `root`), creating folders as needed. */
export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    const full = resolve(root, path)
    await mkdir(dirname(full), { recursive: true })
    await writeFile(full, text)
  }
}

/**
 * `npm install` in a scratch app, preferring the warm cache so it stays fast, with `node` (default:
 * the one running the tests) first on PATH, as a user of that Node would install. When the cache
 * is stale (a release since its metadata was cached: ETARGET) or damaged, it says so in one line
 * and installs online. npm has no deadline for a download that stalls mid-body, so an install is
 * stopped after two minutes; one that fails or is stopped is tried once more, online.
 */
export async function installApp(root: string, node = process.execPath): Promise<string> {
  const install = (offline: boolean) => runLogged(npm, ['install', '--no-audit', '--no-fund', ...(offline ? ['--prefer-offline'] : []), '--loglevel=warn'], root, envWithNode(node, userEnv()), 120_000)
  return install(true).catch((error: unknown) => {
    const why = error instanceof Error && isStaleCacheFailure(error.message) ? 'on stale cache metadata' : 'or ran past two minutes'
    console.error(`npm install --prefer-offline in ${root} failed ${why}; installing online instead.`)
    return install(false)
  })
}

/** `nuxi build` with the app's own Nuxt CLI on `node`, as the app's own `npm run build` would. */
export async function buildApp(root: string, node = process.execPath): Promise<string> {
  const nuxi = resolve(root, 'node_modules/@nuxt/cli/bin/nuxi.mjs')
  return runLogged(node, [nuxi, 'build'], root, envWithNode(node, userEnv({ NODE_ENV: 'production' })))
}

/** Runs the repo's TypeScript compiler on a scratch project (its tsconfig.json in `root`). */
export async function typecheckApp(root: string): Promise<string> {
  const tsc = resolve(repoRoot, 'node_modules/typescript/bin/tsc')
  return runLogged(process.execPath, [tsc, '-p', resolve(root, 'tsconfig.json')], root, userEnv())
}
