// The several-instances phase of `npm run bench`: the same app (the module in default config,
// node-server) as one in-process instance behind nginx, against two instances sharing their state
// through Redis (NUXT_MCP_REDIS_URL) behind the same nginx, round-robin with no affinity.
// Interleaved rounds; per setup: legacy echo throughput in one session at 10 connections (its
// requests alternate between the instances), the legacy elicitation round trip (v1 Client), modern
// echo throughput, and the Redis commands an ordinary legacy request costs.
import { resolve } from 'node:path'
import { startLoadBalancer, startRedis } from '../../scripts/cluster.mjs'
import { startRuntime } from '../../scripts/runtimes.mjs'
import { closeSession, legacyCall, openSession } from '../lib/mcp-http.mjs'
import { workDir } from '../lib/paths.mjs'
import { freePort } from '../lib/proc.mjs'
import { percentile } from '../lib/stats.mjs'
import { buildApp, generateApp } from '../servers/nuxt-apps.mjs'
import { measureElicitRtt } from './elicit-rtt.mjs'
import { ECHO, loadSpec, measureThroughput } from './throughput.mjs'
import { STATE_SECRET } from '../servers/catalog.mjs'

const SETUPS = ['one instance', 'two instances + Redis']
/** Ordinary legacy requests sent to count Redis commands per request. */
const COUNTED_REQUESTS = 200

async function startSetup(setup, root) {
  const redis = setup === SETUPS[1] ? await startRedis() : undefined
  const count = redis ? 2 : 1
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()))
  const env = { NUXT_MCP_STATE_SECRET: STATE_SECRET, ...(redis && { NUXT_MCP_REDIS_URL: redis.url }) }
  const instances = await Promise.all(ports.map(port => startRuntime({ target: 'node', root, port, env })))
  const lb = await startLoadBalancer(ports)
  return {
    redis,
    url: `${lb.origin}/mcp`,
    stop: async () => {
      await lb.stop()
      await Promise.all(instances.map(instance => instance.stop()))
      await redis?.stop()
    },
  }
}

/** Redis commands per ordinary legacy request (echo in an open session), after every instance has the session. */
async function redisCommandsPerRequest(url, redis) {
  const sessionId = await openSession(url)
  try {
    for (let i = 0; i < 4; i++) await legacyCall(url, sessionId, ...ECHO)
    const before = await redis.commandsProcessed()
    for (let i = 0; i < COUNTED_REQUESTS; i++) await legacyCall(url, sessionId, ...ECHO)
    // INFO itself counts as one command.
    return (await redis.commandsProcessed() - before - 1) / COUNTED_REQUESTS
  }
  finally {
    await closeSession(url, sessionId)
  }
}

function median(values) {
  const present = values.filter(value => typeof value === 'number')
  return present.length ? percentile(present, 50) : undefined
}

/**
 * Runs `rounds` interleaved rounds over the two setups; returns the per-round figures, their
 * medians and the markdown section for bench/results/shared-state.md.
 */
export async function benchSharedState({ rounds, seconds, iterations, log }) {
  log('several instances: building the app (node-server)')
  const root = await generateApp('us', 'base', 'node-server')
  await buildApp(root, resolve(workDir, 'logs', 'build-us-shared-state.log'))
  const raw = Object.fromEntries(SETUPS.map(setup => [setup, []]))
  for (let round = 1; round <= rounds; round++) {
    for (const setup of SETUPS) {
      const running = await startSetup(setup, root)
      try {
        const sessionId = await openSession(running.url)
        const legacy = await measureThroughput(running.url, loadSpec('legacy', sessionId, ...ECHO), [10], seconds, '"result"')
        await closeSession(running.url, sessionId)
        const modern = await measureThroughput(running.url, loadSpec('modern', undefined, ...ECHO), [10], seconds, '"result"')
        const rtt = await measureElicitRtt('legacy', running.url, iterations)
        const commands = running.redis ? await redisCommandsPerRequest(running.url, running.redis) : 0
        raw[setup].push({ legacy_echo_c10_rps: legacy.c10.rps, modern_echo_c10_rps: modern.c10.rps, legacy_elicit_p50_ms: rtt.elicit_p50_ms, redis_commands_per_request: commands })
        log(`  round ${round}/${rounds} ${setup}: legacy echo c10 ${legacy.c10.rps.toFixed(0)} req/s, modern ${modern.c10.rps.toFixed(0)} req/s, legacy elicitation ${rtt.elicit_p50_ms.toFixed(2)} ms, Redis commands per request ${commands.toFixed(2)}`)
      }
      catch (error) {
        raw[setup].push(undefined)
        log(`  ! ${setup} failed: ${error.message.split('\n')[0]}`)
      }
      finally {
        await running.stop()
      }
    }
  }
  const keys = ['legacy_echo_c10_rps', 'modern_echo_c10_rps', 'legacy_elicit_p50_ms', 'redis_commands_per_request']
  const medians = Object.fromEntries(SETUPS.map(setup => [setup, Object.fromEntries(keys.map(key => [key, median(raw[setup].filter(Boolean).map(run => run[key]))]))]))
  const [one, two] = SETUPS.map(setup => medians[setup])
  const ratio = (value, base) => (value === undefined || base === undefined ? 'n/a' : `${(value / base).toFixed(2)}×`)
  const fmt = (value, digits) => (value === undefined ? 'n/a' : value.toFixed(digits))
  const lines = [
    '## Several instances: two instances + Redis against one, both behind nginx',
    '',
    `The module's app (default config, node-server) behind nginx round-robin; ${rounds} interleaved round(s), medians. Goals (issue 15): legacy echo ≥ 0.7×, legacy elicitation round trip ≤ 1.5×, modern ≥ 0.95× the one instance's.`,
    '',
    '| setup | legacy echo c10 (req/s) | modern echo c10 (req/s) | legacy elicitation p50 (ms) | Redis commands per legacy request |',
    '|---|---|---|---|---|',
    ...SETUPS.map(setup => `| ${setup} | ${fmt(medians[setup].legacy_echo_c10_rps, 0)} | ${fmt(medians[setup].modern_echo_c10_rps, 0)} | ${fmt(medians[setup].legacy_elicit_p50_ms, 2)} | ${fmt(medians[setup].redis_commands_per_request, 2)} |`),
    `| two ÷ one | ${ratio(two.legacy_echo_c10_rps, one.legacy_echo_c10_rps)} | ${ratio(two.modern_echo_c10_rps, one.modern_echo_c10_rps)} | ${ratio(two.legacy_elicit_p50_ms, one.legacy_elicit_p50_ms)} | |`,
  ]
  return { raw, medians, markdown: `${lines.join('\n')}\n` }
}
