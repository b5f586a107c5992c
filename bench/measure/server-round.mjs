// One server's turn in one round: start it cold, then every measurement in a fixed order, then
// stop it; the same again for its 500-tool variant (tools/list only).
import { closeSession, openSession } from '../lib/mcp-http.mjs'
import { rssMb, sleep } from '../lib/proc.mjs'
import { GENERATED_TOOLS, generatedToolName } from '../lib/tools-spec.mjs'
import { startTimed } from './cold-start.mjs'
import { measureElicitRtt } from './elicit-rtt.mjs'
import { runLoad } from './load.mjs'
import { measureMemory } from './memory.mjs'
import { ECHO, LIST, checkOnce, loadSpec, measureThroughput } from './throughput.mjs'

/** Does this server answer a 2026-07-28 request? (Only the SDK v2 based ones do.) */
async function servesModern(url) {
  try {
    await checkOnce(url, loadSpec('modern', undefined, ...ECHO), '"hello"')
    return true
  }
  catch {
    return false
  }
}

async function throughputBothEras({ url, pid }, [method, params], connections, plan, out, key, modern, expect) {
  const sessionId = await openSession(url)
  try {
    const legacy = loadSpec('legacy', sessionId, method, params)
    await checkOnce(url, legacy, expect)
    await runLoad({ url, ...legacy, connections: 10, seconds: plan.warmupSeconds, expect })
    out[`${key}_legacy`] = await measureThroughput(url, legacy, connections, plan.seconds, expect, pid)
    if (modern) {
      const spec = loadSpec('modern', undefined, method, params)
      await runLoad({ url, ...spec, connections: 10, seconds: plan.warmupSeconds, expect })
      out[`${key}_modern`] = await measureThroughput(url, spec, connections, plan.seconds, expect, pid)
    }
  }
  finally {
    await closeSession(url, sessionId)
  }
}

/**
 * One round of a comparison-only server (`modernEchoOnly` in the catalog: the v2 floor with
 * module-level schemas): modern echo at 10 connections, the one figure it is judged against.
 */
async function runModernEchoRound(entries, plan) {
  const { server, coldStartMs } = await startTimed(entries.base)
  try {
    const spec = loadSpec('modern', undefined, ...ECHO)
    await checkOnce(server.url, spec, '"hello"')
    await runLoad({ url: server.url, ...spec, connections: 10, seconds: plan.warmupSeconds, expect: '"hello"' })
    return { cold_start_ms: coldStartMs, serves_modern: true, echo_modern: await measureThroughput(server.url, spec, [10], plan.seconds, '"hello"', server.pid) }
  }
  finally {
    await server.stop()
  }
}

export async function runServerRound(entries, plan, log, id, { modernEchoOnly = false } = {}) {
  if (modernEchoOnly) return runModernEchoRound(entries, plan)
  const out = {}
  const notes = []
  const step = async (name, fn) => {
    try {
      await fn()
    }
    catch (error) {
      notes.push(`${name}: ${error.message.split('\n')[0]}`)
      log(`    ! ${name} failed: ${error.message.split('\n')[0]}`)
    }
  }

  const { server, coldStartMs } = await startTimed(entries.base)
  try {
    out.cold_start_ms = coldStartMs
    await sleep(1000)
    out.idle_rss_mb = await rssMb(server.pid)
    const modern = await servesModern(server.url)
    out.serves_modern = modern
    await step('echo throughput', () => throughputBothEras(server, ECHO, [1, 10, 50], plan, out, 'echo', modern, '"hello"'))
    await step('elicitation RTT (legacy)', async () => { out.rtt_legacy = await measureElicitRtt('legacy', server.url, plan.rttIterations) })
    if (modern) await step('elicitation RTT (modern)', async () => { out.rtt_modern = await measureElicitRtt('modern', server.url, plan.rttIterations) })
    // Ours also serves the form with its shape defined once: the breakdown in the report.
    if (modern && id === 'us') await step('elicitation RTT (modern, shape at module level)', async () => { out.rtt_modern_hoisted = await measureElicitRtt('modern', server.url, plan.rttIterations, 10, 'ask_form_hoisted') })
    // And behind a once() step: the flow with the replay guard (the floor keeps no replay record).
    if (modern && id === 'us') await step('elicitation RTT (modern, with a once() step)', async () => { out.rtt_modern_once = await measureElicitRtt('modern', server.url, plan.rttIterations, 10, 'ask_form_once') })
    out.rss_after_load_mb = await rssMb(server.pid)
    await step('memory', async () => { out.memory = await measureMemory(server, plan.memory) })
  }
  finally {
    await server.stop()
  }

  const list = await startTimed(entries.list)
  try {
    out.cold_start_list_ms = list.coldStartMs
    await step('tools/list 500', () => throughputBothEras(list.server, LIST, [10], plan, out, 'list', out.serves_modern, `"${generatedToolName(GENERATED_TOOLS - 1)}"`))
  }
  finally {
    await list.server.stop()
  }
  if (notes.length) out.notes = notes
  return out
}
