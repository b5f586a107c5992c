// CPU profiles (node --cpu-prof) of one server under one scenario, summarized: self time by
// function and by source (bundled chunks mapped back to src/ through their source maps),
// inclusive time of the functions from our own src/.
// Standalone: node bench/measure/profile.mjs [server ids, default us,v2,v1] (after one bench build).
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, readdir, rm } from 'node:fs/promises'
import { SourceMap } from 'node:module'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { closeSession, openSession } from '../lib/mcp-http.mjs'
import { workDir } from '../lib/paths.mjs'
import { startTimed } from './cold-start.mjs'
import { measureElicitRtt } from './elicit-rtt.mjs'
import { runLoad } from './load.mjs'
import { ECHO, loadSpec } from './throughput.mjs'

const maps = new Map()
function sourceMapFor(url) {
  if (!maps.has(url)) {
    let map
    try {
      const file = fileURLToPath(url)
      if (file.includes('/.output/server/chunks/') && existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')))
    }
    catch {}
    maps.set(url, map)
  }
  return maps.get(url)
}

/** "src/runtime/server/transport/sessions/legacy-sessions.ts:40" for bundled code of ours, else "pkg/file" or the url. */
function where(frame) {
  const map = frame.url && sourceMapFor(frame.url)
  if (map) {
    const entry = map.findEntry(frame.lineNumber, frame.columnNumber)
    if (entry?.originalSource) return `${entry.originalSource.replace(/^.*?(src\/runtime\/)/, '$1').replace(/^.*node_modules\//, '')}:${entry.originalLine + 1}`
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(frame.url ?? '')
  if (pkg) return `${pkg[1]}/${pkg[2].split('/').pop()}:${frame.lineNumber + 1}`
  return frame.url ? `${frame.url.replace(/^.*\/(\.output|bench)\//, '$1/')}:${frame.lineNumber + 1}` : '(native)'
}

/** Which layer a frame belongs to, for the per-request breakdown. */
function layerOf(name, at) {
  if (name === '(garbage collector)') return 'GC'
  if (/^node:internal\/(modules|bootstrap)/.test(at) || /^compile/.test(name)) return 'startup (module loading)'
  if (at.startsWith('src/')) return 'ours (src/)'
  if (/^(h3|nitropack|nitro|unenv|ufo|radix3|destr|hookable|unctx|ofetch)\//.test(at) || at.startsWith('.output/server/chunks')) return 'Nitro / h3'
  if (at.startsWith('@modelcontextprotocol/')) return 'MCP SDK'
  if (at.startsWith('zod/')) return 'zod'
  if (at.startsWith('@hono/') || at.startsWith('hono/')) return 'hono node bridge (v1 SDK)'
  if (/^node:internal\/(deps\/undici|webstreams|abort_controller|event_target|url)/.test(at)) return 'web Request/Response/streams/AbortSignal'
  if (at.startsWith('node:')) return 'node core (http, streams, async_hooks)'
  if (at.startsWith('bench/')) return 'floor code (bench/servers)'
  if (at === '(native)') return 'native (I/O writes, V8 builtins)'
  return 'other'
}

export function summarizeProfile(profile, top = 20, requests) {
  const byId = new Map(profile.nodes.map(n => [n.id, n]))
  const interval = (profile.endTime - profile.startTime) / Math.max(1, profile.samples.length) / 1000
  const self = new Map()
  const bySource = new Map()
  const byLayer = new Map()
  const inclusive = new Map()
  let total = 0
  const parent = new Map()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  for (const n of profile.nodes) {
    const name = n.callFrame.functionName || '(anonymous)'
    if (name === '(idle)') continue
    const ms = n.hitCount * interval
    total += ms
    const key = `${name} @ ${where(n.callFrame)}`
    self.set(key, (self.get(key) ?? 0) + ms)
    const src = where(n.callFrame).replace(/:\d+$/, '')
    bySource.set(src, (bySource.get(src) ?? 0) + ms)
    const layer = layerOf(name, src)
    byLayer.set(layer, (byLayer.get(layer) ?? 0) + ms)
    // Inclusive time of our own functions: charge each sample to every distinct ancestor of ours.
    const seen = new Set()
    for (let id = n.id; id !== undefined; id = parent.get(id)) {
      const a = byId.get(id)
      const at = where(a.callFrame)
      if (!at.startsWith('src/')) continue
      const k = `${a.callFrame.functionName || '(anonymous)'} @ ${at}`
      if (seen.has(k)) continue
      seen.add(k)
      inclusive.set(k, (inclusive.get(k) ?? 0) + ms)
    }
  }
  const rank = m => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, ms]) => ({ where: k, ms, pct: (100 * ms) / total }))
  const layers = [...byLayer].sort((a, b) => b[1] - a[1]).map(([layer, ms]) => ({ layer, ms, per_1k_requests_ms: requests ? (ms * 1000) / requests : undefined }))
  return { total_ms: total, requests, layers, self: rank(self), sources: rank(bySource), ours_inclusive: rank(inclusive) }
}

const SCENARIOS = {
  'legacy-echo-c10': async (url, seconds) => {
    const sessionId = await openSession(url)
    const r = await runLoad({ url, ...loadSpec('legacy', sessionId, ...ECHO), connections: 10, seconds, expect: '"hello"' })
    await closeSession(url, sessionId)
    return r.requests
  },
  'modern-echo-c10': async (url, seconds) => (await runLoad({ url, ...loadSpec('modern', undefined, ...ECHO), connections: 10, seconds, expect: '"hello"' })).requests,
  // Each iteration = one echo + one ask_form call by the same client (see elicit-rtt.mjs).
  'legacy-elicitation': async url => (await measureElicitRtt('legacy', url, 300, 0)).iterations,
  'modern-elicitation': async url => (await measureElicitRtt('modern', url, 300, 0)).iterations,
}

/** Profiles one server (entries from servers/catalog) under each scenario in its own process. */
export async function profileServer(id, entry, { seconds = 5, scenarios = Object.keys(SCENARIOS) } = {}) {
  const out = {}
  for (const scenario of scenarios) {
    const dir = resolve(workDir, 'profiles', `${id}-${scenario}`)
    await rm(dir, { recursive: true, force: true })
    await mkdir(dir, { recursive: true })
    const { server } = await startTimed({ ...entry, nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir] })
    let requests
    try {
      requests = await SCENARIOS[scenario](server.url, seconds)
    }
    catch (error) {
      out[scenario] = { error: error.message.split('\n')[0] }
    }
    finally {
      await server.stop()
    }
    const file = (await readdir(dir)).find(f => f.endsWith('.cpuprofile'))
    if (file && !out[scenario]) out[scenario] = { file: resolve(dir, file), ...summarizeProfile(JSON.parse(readFileSync(resolve(dir, file), 'utf8')), 20, requests) }
    else if (!out[scenario]) out[scenario] = { error: 'no profile written (the process did not exit cleanly)' }
  }
  return out
}

export function profileMarkdown(results) {
  const lines = ['## CPU profiles (node --cpu-prof, one process per scenario)', '']
  for (const [id, scenarios] of Object.entries(results)) {
    for (const [scenario, r] of Object.entries(scenarios)) {
      lines.push(`### ${id}: ${scenario}`, '')
      if (r.error) {
        lines.push(`not available: ${r.error}`, '')
        continue
      }
      lines.push(`profile: \`${r.file.replace(/^.*\/bench\//, 'bench/')}\`, ${r.total_ms.toFixed(0)} ms sampled (idle excluded)`, '')
      lines.push(`| layer (self time)${r.requests ? `, ${r.requests} requests` : ''} | ms | per 1000 requests |`, '|---|---|---|', ...r.layers.map(x => `| ${x.layer} | ${x.ms.toFixed(0)} | ${x.per_1k_requests_ms === undefined ? '' : x.per_1k_requests_ms.toFixed(0)} |`), '')
      lines.push('| self time: function @ source | ms | % |', '|---|---|---|', ...r.self.map(x => `| ${x.where} | ${x.ms.toFixed(0)} | ${x.pct.toFixed(1)} |`), '')
      lines.push('| self time by source | ms | % |', '|---|---|---|', ...r.sources.map(x => `| ${x.where} | ${x.ms.toFixed(0)} | ${x.pct.toFixed(1)} |`), '')
      if (r.ours_inclusive.length) lines.push('| inclusive time, our src/ functions | ms | % |', '|---|---|---|', ...r.ours_inclusive.map(x => `| ${x.where} | ${x.ms.toFixed(0)} | ${x.pct.toFixed(1)} |`), '')
    }
  }
  return lines.join('\n')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { prepareServers } = await import('../servers/catalog.mjs')
  const { agent } = await import('../lib/mcp-http.mjs')
  const ids = (process.argv[2] ?? 'us,v2,v1').split(',')
  const scenarios = process.argv[3]?.split(',')
  const { entries } = await prepareServers({ reuse: true, log: console.log })
  const results = {}
  for (const id of ids) results[id] = await profileServer(id, entries[id].base, { scenarios })
  console.log(profileMarkdown(results))
  agent.destroy()
}
