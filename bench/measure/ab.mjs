// A/B of two builds of the same app (e.g. `us` before and after a change): each build started
// cold in turn, interleaved rounds, one echo load per era; the server's CPU time per 1000
// requests (steadier than req/s on a shared machine) and req/s side by side.
// Standalone: node bench/measure/ab.mjs <A .output dir> <B .output dir> [era=modern] [connections=10] [seconds=5] [rounds=5]
import { resolve } from 'node:path'
import { closeSession, openSession } from '../lib/mcp-http.mjs'
import { summarize } from '../lib/stats.mjs'
import { startTimed } from './cold-start.mjs'
import { runLoad } from './load.mjs'
import { ECHO, loadSpec, measureThroughput } from './throughput.mjs'

const [a, b, era = 'modern', connections = '10', seconds = '5', rounds = '5'] = process.argv.slice(2)
if (!a || !b) throw new Error('usage: node bench/measure/ab.mjs <A .output dir> <B .output dir> [era] [connections] [seconds] [rounds]')
const env = { NUXT_MCP_STATE_SECRET: 'bench-state-secret-bench-state-secret-0123456789' }
const figures = { A: [], B: [] }

for (let round = 1; round <= Number(rounds); round++) {
  for (const [label, dir] of round % 2 ? [['A', a], ['B', b]] : [['B', b], ['A', a]]) {
    const { server } = await startTimed({ entry: resolve(dir, 'server/index.mjs'), env })
    try {
      const sessionId = era === 'legacy' ? await openSession(server.url) : undefined
      const spec = loadSpec(era, sessionId, ...ECHO)
      await runLoad({ url: server.url, ...spec, connections: 10, seconds: 2, expect: '"hello"' })
      const r = (await measureThroughput(server.url, spec, [Number(connections)], Number(seconds), '"hello"', server.pid))[`c${connections}`]
      figures[label].push(r)
      console.log(`round ${round} ${label}: ${r.rps.toFixed(0)} req/s, p99 ${r.p99_ms.toFixed(2)} ms, CPU ${r.cpu_ms_per_1k.toFixed(0)} ms per 1000 requests${r.errors ? `, ${r.errors} errors` : ''}`)
      if (sessionId) await closeSession(server.url, sessionId)
    }
    finally {
      await server.stop()
    }
  }
}
const med = (label, key) => summarize(figures[label].map(r => r[key])).median
for (const key of ['rps', 'cpu_ms_per_1k', 'p99_ms']) console.log(`${key}: A ${med('A', key).toFixed(2)}, B ${med('B', key).toFixed(2)}, B ÷ A ${(med('B', key) / med('A', key)).toFixed(3)}`)
