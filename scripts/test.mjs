#!/usr/bin/env node
// `npm test`: runs the whole vitest suite and ends with the plain line `N passed, N failed`
// (read from vitest's JSON report), exiting with vitest's own exit code.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { ensureSupportedNode } from './node-runtime.mjs'

// Nuxt 4.5 needs Node 22.19+ or 24.11+: on an older system Node this re-runs on Node 22 from .cache/.
ensureSupportedNode(import.meta.filename)

const root = resolve(import.meta.dirname, '..')
const report = resolve(root, 'test-results/vitest.json')
mkdirSync(resolve(root, 'test-results'), { recursive: true })
rmSync(report, { force: true })

// The browser tests need Debian's Chromium and the DNS-rebinding test iproute2: install what is
// missing instead of failing on a fresh machine.
if (process.platform === 'linux' && (!existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') || !['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip'].some(path => existsSync(path)))) {
  spawnSync('bash', [resolve(root, 'scripts/ensure-debian-packages.sh')], { cwd: root, stdio: 'inherit' })
}

// The suite takes 5 to 10 minutes on two cores. Vitest's own timeouts cover tests and hooks, not
// a stuck worker or teardown: past this deadline the run is stopped and counted as failed.
const DEADLINE_MS = 40 * 60_000
const vitest = resolve(root, 'node_modules/vitest/vitest.mjs')
const result = spawnSync(process.execPath, [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  timeout: DEADLINE_MS,
})
if (result.error) console.error(`vitest did not finish within ${DEADLINE_MS / 60_000} minutes (${result.error.message}); the run counts as failed.`)

let passed = 0
let failed = 0
let skipped = 0
if (existsSync(report)) {
  const json = JSON.parse(readFileSync(report, 'utf8'))
  passed = json.numPassedTests ?? 0
  // A file that fails to load has no failed test but a failed suite: count it too.
  failed = (json.numFailedTests ?? 0) || (json.numFailedTestSuites ?? 0)
  skipped = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0)
}
else {
  failed = 1
}
const code = result.status ?? 1
if (code !== 0 && failed === 0) failed = 1
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(code)
