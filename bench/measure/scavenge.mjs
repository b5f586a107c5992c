// How much of what a request allocates outlives a young-generation GC, per server: V8's
// --trace-gc-nvp line of every scavenge under echo (bytes allocated since the last one, bytes that
// survived it, its pause), summed over the run and divided by the requests served. A scavenge's
// pause follows what survives it, and the young generation grows to the same size in every
// server (64 MB here), so the survival rate (survived / allocated) is what sets the tail: a server
// that allocates less per request but keeps a larger share of it pauses longer.
// Standalone, after one bench build:
//   node bench/measure/scavenge.mjs [seconds=10] [connections=10] [era=legacy] [servers=us,v1] [rounds=2]
// (EXTRA_V8 adds V8 flags to every server, e.g. EXTRA_V8=--no-allocation-site-pretenuring.)
import { closeSession, openSession } from '../lib/mcp-http.mjs'
import { prepareServers } from '../servers/catalog.mjs'
import { startTimed } from './cold-start.mjs'
import { runLoad } from './load.mjs'
import { ECHO, checkOnce, loadSpec } from './throughput.mjs'

const seconds = Number(process.argv[2] ?? 10)
const connections = Number(process.argv[3] ?? 10)
const era = process.argv[4] ?? 'legacy'
const ids = (process.argv[5] ?? (era === 'legacy' ? 'us,v1' : 'us,v2')).split(',')
const rounds = Number(process.argv[6] ?? 2)
const { entries } = await prepareServers({ reuse: true, log: () => {} })

/** The `name=value` fields of each scavenge line in V8's trace. */
function scavenges(trace) {
  return trace.split('\n').filter(line => / gc=s /.test(line)).map(line => Object.fromEntries([...line.matchAll(/(\S+)=(\S+)/g)].map(([, k, v]) => [k, Number(v)])))
}
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

async function measure(id) {
  const { server } = await startTimed({ ...entries[id].base, nodeArgs: ['--trace-gc-nvp', ...(process.env.EXTRA_V8 ? process.env.EXTRA_V8.split(' ') : [])] })
  try {
    const sessionId = era === 'legacy' ? await openSession(server.url) : undefined
    const spec = loadSpec(era, sessionId, ...ECHO)
    await checkOnce(server.url, spec, '"result"')
    await runLoad({ url: server.url, ...spec, connections: 10, seconds: 2 }) // warm-up: the young generation grows to its size
    // The server's own output keeps only its tail: read the trace as it comes.
    let trace = ''
    const keep = (chunk) => { trace += chunk.toString() }
    server.child.stdout.on('data', keep)
    const load = await runLoad({ url: server.url, ...spec, connections, seconds })
    server.child.stdout.off('data', keep)
    const list = scavenges(trace)
    const sum = field => list.reduce((total, s) => total + (s[field] ?? 0), 0)
    const kb = bytes => +(bytes / load.requests / 1024).toFixed(2)
    if (sessionId) await closeSession(server.url, sessionId)
    return {
      id, era, connections, rps: Math.round(load.rps), p99_ms: load.p99_ms, scavenges: list.length,
      pause_median_ms: median(list.map(s => s.pause)), pause_max_ms: Math.max(...list.map(s => s.pause)),
      allocated_kb_per_request: kb(sum('allocated')), survived_kb_per_request: kb(sum('new_space_survived')),
      survival_rate: +(sum('new_space_survived') / sum('allocated')).toFixed(3),
      young_generation_mb: median(list.map(s => s.new_space_capacity)) / 2 ** 20,
    }
  }
  finally {
    await server.stop()
  }
}

const results = []
for (let round = 1; round <= rounds; round++) {
  for (const id of ids) {
    const row = { round, ...await measure(id) }
    results.push(row)
    console.log(JSON.stringify(row))
  }
}
console.log(`NVPSUMMARY ${JSON.stringify(results)}`)
