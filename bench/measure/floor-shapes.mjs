// What the app's shape does to the v2 floor's modern echo: the floor with its tools' Zod schemas
// built in the per-request factory (the SDK's examples; the bench's floor), the floor with them
// built once at module level, the floor with only echo + ask_form (the bench's tool set before
// 2026-12-02), and `us`; interleaved rounds, CPU per 1000 requests and req/s at 10 connections.
// Standalone, after one bench build: node bench/measure/floor-shapes.mjs [seconds=5] [rounds=4]
import { resolve } from 'node:path'
import { benchDir } from '../lib/paths.mjs'
import { summarize } from '../lib/stats.mjs'
import { prepareServers } from '../servers/catalog.mjs'
import { compareFromCold } from './throughput.mjs'

const [seconds = 5, rounds = 4] = process.argv.slice(2, 4).map(Number)
const { entries } = await prepareServers({ reuse: true, log: () => {} })
const floor = resolve(benchDir, 'servers/v2-floor.mjs')
const contenders = {
  'us': entries.us.base,
  'v2 floor, shapes in the factory': { entry: floor, env: {} },
  'v2 floor, shapes at module level': { entry: floor, env: { BENCH_SHAPES: 'module' } },
  'v2 floor, echo + ask_form only': { entry: floor, env: { BENCH_APP_TOOLS: 'none' } },
}
const figures = await compareFromCold(contenders, { rounds, seconds })
for (const [name, runs] of Object.entries(figures)) {
  const rps = summarize(runs.map(r => r.rps))
  const cpu = summarize(runs.map(r => r.cpu_ms_per_1k))
  console.log(`${name}: ${rps.median.toFixed(0)} req/s [${rps.min.toFixed(0)}–${rps.max.toFixed(0)}], CPU ${cpu.median.toFixed(0)} ms per 1000 [${cpu.min.toFixed(0)}–${cpu.max.toFixed(0)}]`)
}
