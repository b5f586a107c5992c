// Where the objects that outlive a young-generation GC are allocated, per server, under echo at
// one connection: survivors-probe.mjs inside the server, then self size by allocation site
// (bundled code mapped back through Nitro's source maps) and by package.
// Standalone, after one bench build: node bench/measure/survivors.mjs [seconds=5] [era=legacy] [servers=us,v1] [top=25]
import { existsSync, readFileSync } from 'node:fs'
import { SourceMap } from 'node:module'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { benchDir, workDir } from '../lib/paths.mjs'
import { closeSession, openSession } from '../lib/mcp-http.mjs'
import { sleep } from '../lib/proc.mjs'
import { prepareServers } from '../servers/catalog.mjs'
import { startTimed } from './cold-start.mjs'
import { runLoad } from './load.mjs'
import { ECHO, checkOnce, loadSpec } from './throughput.mjs'

const seconds = Number(process.argv[2] ?? 5)
const era = process.argv[3] ?? 'legacy'
const ids = (process.argv[4] ?? (era === 'legacy' ? 'us,v1' : 'us,v2')).split(',')
const top = Number(process.argv[5] ?? 25)
const PROBE = resolve(benchDir, 'measure/survivors-probe.mjs')
const { entries } = await prepareServers({ reuse: true, log: () => {} })

const maps = new Map()
function where(frame) {
  let map = maps.get(frame.url)
  if (map === undefined) {
    map = null
    try {
      const file = fileURLToPath(frame.url)
      if (existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')))
    }
    catch {}
    maps.set(frame.url, map)
  }
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber)
  if (entry?.originalSource) return `${entry.originalSource.replace(/^.*?(src\/runtime\/)/, '$1').replace(/^.*node_modules\//, '')}:${entry.originalLine + 1}`
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(frame.url ?? '')
  if (pkg) return `${pkg[1]}/${pkg[2].split('/').pop()}:${frame.lineNumber + 1}`
  return frame.url ? `${frame.url.replace(/^.*\/(\.output|bench)\//, '$1/')}:${frame.lineNumber + 1}` : '(native)'
}

/** Self size per allocation site, with its nearest caller of ours or of a package, for context. */
function summarize(profile, requests) {
  const sites = new Map()
  let total = 0
  const walk = (node, stack) => {
    const frame = node.callFrame
    const here = `${frame.functionName || '(anonymous)'} ${where(frame)}`
    const path = [...stack, here]
    if (node.selfSize > 0) {
      const key = path.slice(-3).join(' ← ')
      sites.set(key, (sites.get(key) ?? 0) + node.selfSize)
      total += node.selfSize
    }
    for (const child of node.children ?? []) walk(child, path)
  }
  walk(profile.head, [])
  const rows = [...sites].sort((a, b) => b[1] - a[1]).slice(0, top)
  return { total_kb_per_request: +(total / 1024 / requests).toFixed(2), top: rows.map(([site, bytes]) => `${(bytes / 1024 / requests).toFixed(3)} KB/req  ${site.split(' ← ').reverse().join(' ← ')}`) }
}

for (const id of ids) {
  const out = resolve(workDir, `survivors-${id}-${era}.json`)
  const { server } = await startTimed({ ...entries[id].base, nodeArgs: ['--import', PROBE], env: { ...entries[id].base.env, SURVIVORS_OUT: out } })
  try {
    const sessionId = era === 'legacy' ? await openSession(server.url) : undefined
    const spec = loadSpec(era, sessionId, ...ECHO)
    await checkOnce(server.url, spec, '"result"')
    await runLoad({ url: server.url, ...spec, connections: 10, seconds: 2 })
    server.child.kill('SIGUSR2')
    await sleep(500)
    const load = await runLoad({ url: server.url, ...spec, connections: 1, seconds })
    server.child.kill('SIGUSR2')
    await sleep(1500)
    const summary = summarize(JSON.parse(readFileSync(out, 'utf8')), load.requests)
    console.log(`\n== ${id} ${era}: ${Math.round(load.rps)} req/s, ${summary.total_kb_per_request} KB per request outlived a scavenge (sampled)`)
    for (const row of summary.top) console.log(row)
    if (sessionId) await closeSession(server.url, sessionId)
  }
  finally {
    await server.stop()
  }
}
