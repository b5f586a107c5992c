#!/usr/bin/env node
// `npm run chaos [-- --seconds N --seed S --persistence always|everysec|none]`: the chaos run (scripts/chaos/run.mjs) on a fresh build
// of the shared-state fixture. Prints the seed (pass it back to replay the same schedule), the
// events as they happen and the invariants' table; exits 1 when one does not hold.
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { ensureSupportedNode } from './node-runtime.mjs'

ensureSupportedNode(import.meta.filename)

const { values } = parseArgs({ options: { 'seconds': { type: 'string', default: '600' }, 'seed': { type: 'string' }, 'no-build': { type: 'boolean', default: false }, 'persistence': { type: 'string', default: 'always' } } })
const seconds = Number(values.seconds)
if (!Number.isInteger(seconds) || seconds < 20) throw new Error(`--seconds must be a whole number of at least 20 (one kill and the Redis restart need room); got "${values.seconds}".`)
const { newSeed } = await import('./chaos/schedule.mjs')
const seed = values.seed === undefined ? newSeed() : Number(values.seed)
if (!Number.isInteger(seed) || seed < 0) throw new Error(`--seed must be a whole number ≥ 0, as a run printed it; got "${values.seed}".`)

if (!['always', 'everysec', 'none'].includes(values.persistence)) throw new Error(`--persistence is Redis's appendfsync: always, everysec, or none (no persistence); got "${values.persistence}".`)

const root = resolve(import.meta.dirname, '..')
if (!values['no-build']) {
  console.log('chaos: building test/fixtures/shared-state (skip with --no-build)')
  const build = spawnSync(process.execPath, [resolve(root, 'node_modules/@nuxt/cli/bin/nuxi.mjs'), 'build', resolve(root, 'test/fixtures/shared-state')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NODE_ENV: 'production' } })
  if (build.status !== 0) process.exit(build.status ?? 1)
}
const { runChaos } = await import('./chaos/run.mjs')
const run = await runChaos({ root, seconds, seed, persistence: values.persistence, log: line => console.log(line) })
console.log(`\n${run.report}`)
process.exit(run.ok ? 0 : 1)
