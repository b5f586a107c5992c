// Where the echo tail comes from: each server under wrk (one era, one connection count, long runs),
// with tail-probe.mjs inside it reporting the event-loop delay and the garbage collections of the
// run. Interleaved rounds; prints one line per run and a JSON summary.
// Standalone, after one bench build: node bench/measure/tail.mjs [seconds=10] [rounds=3] [connections=1,10]
import { resolve } from 'node:path'
import { benchDir } from '../lib/paths.mjs'
import { closeSession, openSession } from '../lib/mcp-http.mjs'
import { sleep } from '../lib/proc.mjs'
import { prepareServers } from '../servers/catalog.mjs'
import { startTimed } from './cold-start.mjs'
import { runLoad } from './load.mjs'
import { ECHO, checkOnce, loadSpec } from './throughput.mjs'

const [seconds = 10, rounds = 3] = process.argv.slice(2, 4).map(Number)
const connectionCounts = (process.argv[4] ?? '1,10').split(',').map(Number)
const PROBE = resolve(benchDir, 'measure/tail-probe.mjs')

const { entries } = await prepareServers({ reuse: true, log: () => {} })
const runs = [
  { server: 'us', era: 'legacy' }, { server: 'v1', era: 'legacy' },
  { server: 'us', era: 'modern' }, { server: 'v2', era: 'modern' },
]

/** Asks the probe for its figures since the last ask, read from the server's output. */
async function probe(server) {
  const before = server.output().length
  server.child.kill('SIGUSR2')
  for (let i = 0; i < 100; i++) {
    const line = server.output().slice(Math.max(0, before - 200)).split('\n').reverse().find(l => l.startsWith('TAILJSON '))
    if (line && server.output().length > before) return JSON.parse(line.slice('TAILJSON '.length))
    await sleep(20)
  }
  throw new Error('the probe did not answer')
}

const results = []
for (let round = 1; round <= rounds; round++) {
  for (const { server: id, era } of runs) {
    const base = entries[id].base
    const { server } = await startTimed({ ...base, nodeArgs: ['--import', PROBE] })
    try {
      const sessionId = era === 'legacy' ? await openSession(server.url) : undefined
      const spec = loadSpec(era, sessionId, ...ECHO)
      await checkOnce(server.url, spec, '"result"')
      await runLoad({ url: server.url, ...spec, connections: 10, seconds: 2 }) // warm-up
      for (const connections of connectionCounts) {
        await probe(server)
        const load = await runLoad({ url: server.url, ...spec, connections, seconds })
        const inside = await probe(server)
        const gc = Object.fromEntries(Object.entries(inside.gc).map(([kind, g]) => [kind, `${g.count}× ${g.total_ms.toFixed(0)} ms (max ${g.max_ms.toFixed(1)})`]))
        const row = { round, id, era, connections, rps: Math.round(load.rps), p50_ms: load.p50_ms, p99_ms: load.p99_ms, eld_p99_ms: inside.eld_p99_ms, eld_max_ms: inside.eld_max_ms, gc_per_1k: Object.values(inside.gc).reduce((n, g) => n + g.count, 0) / load.requests * 1000, gc_ms_per_1k: Object.values(inside.gc).reduce((n, g) => n + g.total_ms, 0) / load.requests * 1000, gc }
        results.push(row)
        console.log(JSON.stringify(row))
      }
      if (sessionId) await closeSession(server.url, sessionId)
    }
    finally {
      await server.stop()
    }
  }
}
console.log(`TAILSUMMARY ${JSON.stringify(results)}`)
