#!/usr/bin/env node
// `node scripts/test-durations.mjs`: rewrites test/durations.json, the seconds each test file took,
// from the JSON report of the last full `npm test` (test-results/vitest.json). The test sequencer
// (test/sequencer.ts) starts the longest files first by it; run this on the 2-CPU reference
// machine, idle, after a run in which every file passed.
import { readFileSync, writeFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const report = JSON.parse(readFileSync(resolve(root, 'test-results/vitest.json'), 'utf8'))
const seconds = {}
for (const file of report.testResults ?? []) {
  if (file.status !== 'passed') throw new Error(`${relative(root, file.name)} did not pass in the last run (${file.status}): its time would mislead; run the suite again.`)
  seconds[relative(root, file.name).split('\\').join('/')] = Math.round((file.endTime - file.startTime) / 100) / 10
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a, x], [b, y]) => y - x || a.localeCompare(b)))
writeFileSync(resolve(root, 'test/durations.json'), `${JSON.stringify(sorted, null, 2)}\n`)
console.log(`test/durations.json: ${Object.keys(sorted).length} files, ${Math.round(Object.values(sorted).reduce((sum, s) => sum + s, 0))} s in all`)
