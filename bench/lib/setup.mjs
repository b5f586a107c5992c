// First-run setup: bench/node_modules from bench/package.json (never the root's), and wrk from
// Debian (apt-get update first) — autocannon into bench/node_modules only if wrk cannot be had.
import { execFile, execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { promisify } from 'node:util'
import { benchDir } from './paths.mjs'

const run = promisify(execFile)

function has(command) {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' })
    return true
  }
  catch {
    return false
  }
}

export async function ensureBenchDeps(log) {
  if (existsSync(resolve(benchDir, 'node_modules/@nuxtjs/mcp-toolkit/package.json'))) return
  const lock = existsSync(resolve(benchDir, 'package-lock.json'))
  log(`  installing bench/ dependencies (npm ${lock ? 'ci' : 'install'}; peers come from the root)…`)
  // --legacy-peer-deps: nuxt, vue, vite and h3 are the root's; do not install second copies here.
  await run('npm', [lock ? 'ci' : 'install', '--legacy-peer-deps', '--no-audit', '--no-fund'], { cwd: benchDir, timeout: 300_000 })
}

/** Returns 'wrk' or 'autocannon', installing what is needed. */
export async function ensureLoadTool(log) {
  if (has('wrk')) return 'wrk'
  if (has('apt-get')) {
    log('  wrk missing: apt-get update && apt-get install -y wrk …')
    try {
      await run('apt-get', ['update'], { timeout: 300_000 })
      await run('apt-get', ['install', '-y', 'wrk'], { timeout: 300_000, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
      if (has('wrk')) return 'wrk'
    }
    catch (error) {
      log(`  apt-get could not install wrk (${error.message.split('\n')[0]})`)
    }
  }
  log('  FALLBACK: using autocannon (installing it into bench/node_modules); wrk was not available')
  if (!existsSync(resolve(benchDir, 'node_modules/autocannon'))) {
    await run('npm', ['install', '--no-save', '--legacy-peer-deps', '--no-audit', '--no-fund', 'autocannon@8'], { cwd: benchDir, timeout: 300_000 })
  }
  return 'autocannon'
}
