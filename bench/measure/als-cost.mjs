// What an AsyncLocalStorage request scope costs by itself: the v1 floor as it is, and the same
// floor with each request run inside `AsyncLocalStorage.run` (BENCH_ALS=1), started cold in turn,
// interleaved rounds, legacy echo. The figure prices the scope that `useMcpElicitation()` and
// every other composable read their request from; run it under each Node to compare.
// With `two`, the scoped side runs each request inside two nested scopes (BENCH_ALS=2), against one.
// Standalone: node bench/measure/als-cost.mjs [connections=10] [seconds=5] [rounds=5] [two]
import { resolve } from 'node:path'
import { benchDir } from '../lib/paths.mjs'
import { summarize } from '../lib/stats.mjs'
import { echoFromCold } from './throughput.mjs'

const [connections = '10', seconds = '5', rounds = '5', two] = process.argv.slice(2)
const entry = resolve(benchDir, 'servers/v1-floor.mjs')
const variants = two === 'two' ? { plain: { BENCH_ALS: '1' }, scoped: { BENCH_ALS: '2' } } : { plain: { BENCH_ALS: '0' }, scoped: { BENCH_ALS: '1' } }
const figures = { plain: [], scoped: [] }

console.log(`Node ${process.version}: v1 floor with ${variants.plain.BENCH_ALS} against ${variants.scoped.BENCH_ALS} AsyncLocalStorage scopes, legacy echo at ${connections} connections, ${seconds} s × ${rounds} rounds`)
for (let round = 1; round <= Number(rounds); round++) {
  const order = round % 2 ? ['plain', 'scoped'] : ['scoped', 'plain']
  for (const label of order) {
    const r = await echoFromCold({ entry, env: variants[label] }, { era: 'legacy', connections: Number(connections), seconds: Number(seconds) })
    figures[label].push(r)
    console.log(`round ${round} ${label}: ${r.rps.toFixed(0)} req/s, p99 ${r.p99_ms.toFixed(2)} ms, CPU ${r.cpu_ms_per_1k.toFixed(0)} ms per 1000 requests`)
  }
}
const med = (label, key) => summarize(figures[label].map(r => r[key])).median
for (const key of ['rps', 'cpu_ms_per_1k', 'p99_ms']) console.log(`${key}: plain ${med('plain', key).toFixed(2)}, scoped ${med('scoped', key).toFixed(2)}, scoped ÷ plain ${(med('scoped', key) / med('plain', key)).toFixed(3)}`)
