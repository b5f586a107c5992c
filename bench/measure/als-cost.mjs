// What an AsyncLocalStorage request scope costs by itself: the v1 floor as it is, and the same
// floor with each request run inside `AsyncLocalStorage.run` (BENCH_ALS=1), started cold in turn,
// interleaved rounds, legacy echo. The figure prices the scope that `useMcpElicitation()` and
// every other composable read their request from; run it under each Node to compare.
// With `two`, the scoped side runs each request inside two nested scopes (BENCH_ALS=2), against one.
// Standalone: node bench/measure/als-cost.mjs [connections=10] [seconds=5] [rounds=5] [two]
import { resolve } from 'node:path'
import { benchDir } from '../lib/paths.mjs'
import { compareFromCold, medianOf } from './throughput.mjs'

const [connections = '10', seconds = '5', rounds = '5', two] = process.argv.slice(2)
const entry = resolve(benchDir, 'servers/v1-floor.mjs')
const [plain, scoped] = two === 'two' ? ['1', '2'] : ['0', '1']
console.log(`Node ${process.version}: v1 floor with ${plain} against ${scoped} AsyncLocalStorage scopes, legacy echo at ${connections} connections, ${seconds} s × ${rounds} rounds`)
const figures = await compareFromCold({ plain: { entry, env: { BENCH_ALS: plain } }, scoped: { entry, env: { BENCH_ALS: scoped } } }, { rounds: Number(rounds), era: 'legacy', connections: Number(connections), seconds: Number(seconds) })
for (const key of ['rps', 'cpu_ms_per_1k', 'p99_ms']) console.log(`${key}: plain ${medianOf(figures.plain, key).toFixed(2)}, scoped ${medianOf(figures.scoped, key).toFixed(2)}, scoped ÷ plain ${(medianOf(figures.scoped, key) / medianOf(figures.plain, key)).toFixed(3)}`)
