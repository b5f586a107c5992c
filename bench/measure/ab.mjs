// A/B of two builds of the same app (e.g. `us` before and after a change): each build started
// cold in turn, interleaved rounds, one echo load per era; the server's CPU time per 1000
// requests (steadier than req/s on a shared machine) and req/s side by side.
// A side may also be a server script (`bench/servers/v1-floor.mjs`): us against a floor under
// another Node (run this file with that Node; servers start with the Node that runs it).
// Standalone: node bench/measure/ab.mjs <A .output dir | .mjs> <B .output dir | .mjs> [era=modern] [connections=10] [seconds=5] [rounds=5]
import { resolve } from 'node:path'
import { summarize } from '../lib/stats.mjs'
import { STATE_SECRET } from '../servers/catalog.mjs'
import { echoFromCold } from './throughput.mjs'

const [a, b, era = 'modern', connections = '10', seconds = '5', rounds = '5'] = process.argv.slice(2)
if (!a || !b) throw new Error('usage: node bench/measure/ab.mjs <A .output dir> <B .output dir> [era] [connections] [seconds] [rounds]')
const figures = { A: [], B: [] }

for (let round = 1; round <= Number(rounds); round++) {
  for (const [label, dir] of round % 2 ? [['A', a], ['B', b]] : [['B', b], ['A', a]]) {
    const r = await echoFromCold({ entry: dir.endsWith('.mjs') ? resolve(dir) : resolve(dir, 'server/index.mjs'), env: { NUXT_MCP_STATE_SECRET: STATE_SECRET } }, { era, connections: Number(connections), seconds: Number(seconds) })
    figures[label].push(r)
    console.log(`round ${round} ${label}: ${r.rps.toFixed(0)} req/s, p99 ${r.p99_ms.toFixed(2)} ms, CPU ${r.cpu_ms_per_1k.toFixed(0)} ms per 1000 requests${r.errors ? `, ${r.errors} errors` : ''}`)
  }
}
const med = (label, key) => summarize(figures[label].map(r => r[key])).median
for (const key of ['rps', 'cpu_ms_per_1k', 'p99_ms']) console.log(`${key}: A ${med('A', key).toFixed(2)}, B ${med('B', key).toFixed(2)}, B ÷ A ${(med('B', key) / med('A', key)).toFixed(3)}`)
