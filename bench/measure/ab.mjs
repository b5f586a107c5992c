// A/B of two builds of the same app (e.g. `us` before and after a change): each build started
// cold in turn, interleaved rounds, one echo load per era; the server's CPU time per 1000
// requests (steadier than req/s on a shared machine) and req/s side by side.
// A side may also be a server script (`bench/servers/v1-floor.mjs`): us against a floor under
// another Node (run this file with that Node; servers start with the Node that runs it).
// Standalone: node bench/measure/ab.mjs <A .output dir | .mjs> <B .output dir | .mjs> [era=modern] [connections=10] [seconds=5] [rounds=5]
import { resolve } from 'node:path'
import { STATE_SECRET } from '../servers/catalog.mjs'
import { compareFromCold, medianOf } from './throughput.mjs'

const [a, b, era = 'modern', connections = '10', seconds = '5', rounds = '5'] = process.argv.slice(2)
if (!a || !b) throw new Error('usage: node bench/measure/ab.mjs <A .output dir | .mjs> <B .output dir | .mjs> [era] [connections] [seconds] [rounds]')
const startOf = side => ({ entry: side.endsWith('.mjs') ? resolve(side) : resolve(side, 'server/index.mjs'), env: { NUXT_MCP_STATE_SECRET: STATE_SECRET } })
const figures = await compareFromCold({ A: startOf(a), B: startOf(b) }, { rounds: Number(rounds), era, connections: Number(connections), seconds: Number(seconds) })
for (const key of ['rps', 'cpu_ms_per_1k', 'p99_ms']) console.log(`${key}: A ${medianOf(figures.A, key).toFixed(2)}, B ${medianOf(figures.B, key).toFixed(2)}, B ÷ A ${(medianOf(figures.B, key) / medianOf(figures.A, key)).toFixed(3)}`)
