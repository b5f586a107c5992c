// Throughput and latency of one MCP request under wrk: legacy inside an open session (its
// Mcp-Session-Id in the script's headers), modern stateless with the 2026-07-28 headers + _meta.
import { closeSession, legacyBody, legacyHeaders, modernBody, modernHeaders, openSession, send } from '../lib/mcp-http.mjs'
import { cpuMs } from '../lib/proc.mjs'
import { summarize } from '../lib/stats.mjs'
import { startTimed } from './cold-start.mjs'
import { runLoad } from './load.mjs'

const ID = 987654321

/** The body (with __ID__ for wrk) and headers of one request in one era. */
export function loadSpec(era, sessionId, method, params) {
  const body = era === 'legacy' ? legacyBody(method, params, ID) : modernBody(method, params, ID)
  const headers = era === 'legacy' ? legacyHeaders(sessionId) : modernHeaders(method, params.name)
  return { headers, body: JSON.stringify(body).replace(String(ID), '__ID__') }
}

export const ECHO = ['tools/call', { name: 'echo', arguments: { text: 'hello' } }]
export const LIST = ['tools/list', {}]

/** Sends the request once and checks the answer, so a broken setup fails loudly, not fast. */
export async function checkOnce(url, spec, expect) {
  const r = await send(url, { headers: spec.headers, body: spec.body.replace('__ID__', '1') })
  const text = JSON.stringify(r.messages)
  if (r.status !== 200 || !text.includes(expect)) throw new Error(`check failed: HTTP ${r.status} ${r.text.slice(0, 300) || text.slice(0, 300)}`)
}

/**
 * Runs wrk at each connection count; returns { c1: {rps, p50_ms, p99_ms, cpu_ms_per_1k, …}, … }.
 * `cpu_ms_per_1k` is the server's own CPU time per 1000 requests: unlike req/s it hardly moves
 * when other work shares the machine.
 */
export async function measureThroughput(url, spec, connectionCounts, seconds, expect = '"result"', pid) {
  await checkOnce(url, spec, expect)
  const out = {}
  for (const connections of connectionCounts) {
    const cpuBefore = pid && await cpuMs(pid)
    const r = await runLoad({ url, ...spec, connections, seconds, expect })
    if (pid && r.requests > 0) r.cpu_ms_per_1k = ((await cpuMs(pid)) - cpuBefore) / r.requests * 1000
    if (r.errors > 0) r.note = `${r.errors} bad answers of ${r.requests}`
    out[`c${connections}`] = r
  }
  return out
}

/**
 * Starts a server cold (`start` as for startTimed), runs a 2 s warm-up and one measured echo load
 * in `era` at `connections`, stops it; resolves with that load's figures (the A/B aids' unit).
 */
export async function echoFromCold(start, { era = 'modern', connections = 10, seconds = 5 } = {}) {
  const { server } = await startTimed(start)
  try {
    const sessionId = era === 'legacy' ? await openSession(server.url) : undefined
    const spec = loadSpec(era, sessionId, ...ECHO)
    await runLoad({ url: server.url, ...spec, connections: 10, seconds: 2, expect: '"hello"' })
    const r = (await measureThroughput(server.url, spec, [connections], seconds, '"hello"', server.pid))[`c${connections}`]
    if (sessionId) await closeSession(server.url, sessionId)
    return r
  }
  finally {
    await server.stop()
  }
}

/**
 * The A/B aids' loop: each contender (name → start, as for startTimed) started cold in turn for
 * `rounds` interleaved rounds, the order reversed every other round, one echo load each
 * (`load` as for echoFromCold). Logs every load; resolves with name → the loads' figures.
 */
export async function compareFromCold(contenders, { rounds, ...load }) {
  const names = Object.keys(contenders)
  const figures = Object.fromEntries(names.map(name => [name, []]))
  for (let round = 1; round <= rounds; round++) {
    for (const name of round % 2 ? names : [...names].reverse()) {
      const r = await echoFromCold(contenders[name], load)
      figures[name].push(r)
      console.log(`round ${round} ${name}: ${r.rps.toFixed(0)} req/s, p99 ${r.p99_ms.toFixed(2)} ms, CPU ${r.cpu_ms_per_1k.toFixed(0)} ms per 1000 requests${r.errors ? `, ${r.errors} errors` : ''}`)
    }
  }
  return figures
}

/** The median of one figure (`rps`, `cpu_ms_per_1k`, `p99_ms`) over a contender's loads. */
export function medianOf(loads, key) {
  return summarize(loads.map(r => r[key])).median
}
