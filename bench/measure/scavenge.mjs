// What survives the young generation: each server under legacy (or modern) echo at one
// connection with V8's --trace-gc-nvp, averaged over the scavenges at the end of the run:
// bytes copied within the young generation and promoted to the old one per scavenge, and the
// pause. Objects that outlive a scavenge are what makes it slow.
// Standalone, after one bench build: node bench/measure/scavenge.mjs [seconds=5] [era=legacy] [servers=us,v1]
import { closeSession, openSession } from '../lib/mcp-http.mjs'
import { prepareServers } from '../servers/catalog.mjs'
import { startTimed } from './cold-start.mjs'
import { runLoad } from './load.mjs'
import { ECHO, checkOnce, loadSpec } from './throughput.mjs'

const seconds = Number(process.argv[2] ?? 5)
const era = process.argv[3] ?? 'legacy'
const ids = (process.argv[4] ?? (era === 'legacy' ? 'us,v1' : 'us,v2')).split(',')
const { entries } = await prepareServers({ reuse: true, log: () => {} })

const field = (line, name) => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(line)?.[1] ?? Number.NaN)
const mean = values => values.reduce((a, b) => a + b, 0) / values.length

for (const id of ids) {
  const { server } = await startTimed({ ...entries[id].base, nodeArgs: ['--trace-gc-nvp', ...(process.env.EXTRA_V8 ? process.env.EXTRA_V8.split(' ') : [])] })
  try {
    const sessionId = era === 'legacy' ? await openSession(server.url) : undefined
    const spec = loadSpec(era, sessionId, ...ECHO)
    await checkOnce(server.url, spec, '"result"')
    await runLoad({ url: server.url, ...spec, connections: 10, seconds: 2 })
    const load = await runLoad({ url: server.url, ...spec, connections: 1, seconds })
    const scavenges = server.output().split('\n').filter(line => line.includes('gc=s '))
    console.log(JSON.stringify({
      id, era, rps: Math.round(load.rps), p99_ms: load.p99_ms, sampled: scavenges.length,
      pause_ms: +mean(scavenges.map(l => field(l, 'pause'))).toFixed(2),
      copied_kb_per_scavenge: Math.round(mean(scavenges.map(l => field(l, 'semi_space_copied'))) / 1024),
      promoted_kb_per_scavenge: Math.round(mean(scavenges.map(l => field(l, 'promoted'))) / 1024),
    }))
    if (sessionId) await closeSession(server.url, sessionId)
  }
  finally {
    await server.stop()
  }
}
