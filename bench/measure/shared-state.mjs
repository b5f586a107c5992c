// The several-instances phase of `npm run bench`: the same app (the module in default config,
// node-server, with the tasks phase's task-capable echo) as one instance behind nginx, against two
// and three instances sharing their state through Redis (NUXT_MCP_REDIS_URL) behind the same
// nginx, round-robin with no affinity. Interleaved rounds; per setup: legacy echo throughput in one
// session at 10 connections (its requests go round the instances), the legacy elicitation round
// trip (v1 Client), modern echo throughput, an echo task from call to result (`echo_task_later`,
// which waits on a timer so its task is handed out; its `tasks/get` lands on the next instance,
// which reads the record from Redis), and the Redis commands an ordinary legacy request costs.
import { resolve } from 'node:path'
import { startLoadBalancer, startRedis } from '../../scripts/cluster.mjs'
import { startRuntime } from '../../scripts/runtimes.mjs'
import { closeSession, legacyCall, openSession } from '../lib/mcp-http.mjs'
import { workDir } from '../lib/paths.mjs'
import { freePort } from '../lib/proc.mjs'
import { summarize } from '../lib/stats.mjs'
import { buildApp, generateApp } from '../servers/nuxt-apps.mjs'
import { measureElicitRtt } from './elicit-rtt.mjs'
import { measureTaskLatency } from './tasks.mjs'
import { ECHO, loadSpec, measureThroughput } from './throughput.mjs'
import { STATE_SECRET } from '../servers/catalog.mjs'

/** Each setup and how many instances it runs; more than one share their state through Redis. */
const SETUPS = [['one instance', 1], ['two instances + Redis', 2], ['three instances + Redis', 3]]
/** Ordinary legacy requests sent to count Redis commands per request. */
const COUNTED_REQUESTS = 200
/** Echo tasks per round (after 20 warm-up pairs), each against the same tool inline. */
const TASK_PAIRS = 60

async function startSetup(count, root) {
  const redis = count > 1 ? await startRedis() : undefined
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
    for (let i = 0; i < 6; i++) await legacyCall(url, sessionId, ...ECHO)
    const before = await redis.commandsProcessed()
    for (let i = 0; i < COUNTED_REQUESTS; i++) await legacyCall(url, sessionId, ...ECHO)
    // INFO itself counts as one command.
    return (await redis.commandsProcessed() - before - 1) / COUNTED_REQUESTS
  }
  finally {
    await closeSession(url, sessionId)
  }
}

/** One round of one setup: every figure of the phase's table. */
async function measureSetup(running, iterations) {
  const sessionId = await openSession(running.url)
  const legacy = await measureThroughput(running.url, loadSpec('legacy', sessionId, ...ECHO), [10], running.seconds, '"result"')
  await closeSession(running.url, sessionId)
  const modern = await measureThroughput(running.url, loadSpec('modern', undefined, ...ECHO), [10], running.seconds, '"result"')
  const rtt = await measureElicitRtt('legacy', running.url, iterations)
  const task = await measureTaskLatency(running.url, TASK_PAIRS, 20, 'echo_task_later')
  const commands = running.redis ? await redisCommandsPerRequest(running.url, running.redis) : 0
  return { legacy_echo_c10_rps: legacy.c10.rps, modern_echo_c10_rps: modern.c10.rps, legacy_elicit_p50_ms: rtt.elicit_p50_ms, task_echo_p50_ms: task.task_p50_ms, inline_echo_p50_ms: task.inline_p50_ms, redis_commands_per_request: commands }
}

const KEYS = ['legacy_echo_c10_rps', 'modern_echo_c10_rps', 'legacy_elicit_p50_ms', 'task_echo_p50_ms', 'inline_echo_p50_ms', 'redis_commands_per_request']

/** The markdown section for bench/results/shared-state.md. */
function renderSection(medians, rounds) {
  const ratio = (value, base) => (value === undefined || base === undefined ? 'n/a' : `${(value / base).toFixed(2)}×`)
  const fmt = (value, digits) => (value === undefined ? 'n/a' : value.toFixed(digits))
  const one = medians[SETUPS[0][0]]
  return [
    '## Several instances: two and three instances + Redis against one, all behind nginx',
    '',
    `The module's app (default config, node-server, with a task-capable echo that waits on a 0 ms timer, so its task is always handed out) behind nginx round-robin; ${rounds} interleaved round(s), medians. Goals (issue 15): legacy echo ≥ 0.7×, legacy elicitation round trip ≤ 1.5×, modern ≥ 0.95× the one instance's. The echo task is created on one instance and read back (\`tasks/get\` at once, no poll interval) through the next, which finds its record in Redis.`,
    '',
    '| setup | legacy echo c10 (req/s) | modern echo c10 (req/s) | legacy elicitation p50 (ms) | echo task, call to result p50 (ms) | the same echo inline p50 (ms) | Redis commands per legacy request |',
    '|---|---|---|---|---|---|---|',
    ...SETUPS.map(([setup]) => {
      const m = medians[setup]
      return `| ${setup} | ${fmt(m.legacy_echo_c10_rps, 0)} | ${fmt(m.modern_echo_c10_rps, 0)} | ${fmt(m.legacy_elicit_p50_ms, 2)} | ${fmt(m.task_echo_p50_ms, 2)} | ${fmt(m.inline_echo_p50_ms, 2)} | ${fmt(m.redis_commands_per_request, 2)} |`
    }),
    ...SETUPS.slice(1).map(([setup, count]) => {
      const m = medians[setup]
      return `| ${count === 2 ? 'two' : 'three'} ÷ one | ${ratio(m.legacy_echo_c10_rps, one.legacy_echo_c10_rps)} | ${ratio(m.modern_echo_c10_rps, one.modern_echo_c10_rps)} | ${ratio(m.legacy_elicit_p50_ms, one.legacy_elicit_p50_ms)} | ${ratio(m.task_echo_p50_ms, one.task_echo_p50_ms)} | ${ratio(m.inline_echo_p50_ms, one.inline_echo_p50_ms)} | |`
    }),
    '',
    'Reading it: every instance runs on the same machine as nginx, Redis and the load generator, so more instances share the same CPUs rather than adding any; the ratios are what sharing the state costs, not what scaling out gains.',
  ].join('\n')
}

/**
 * Runs `rounds` interleaved rounds over the setups; returns the per-round figures, their medians
 * and the markdown section for bench/results/shared-state.md.
 *
 * @example
 * const { markdown } = await benchSharedState({ rounds: 3, seconds: 10, iterations: 60, log: console.log })
 */
export async function benchSharedState({ rounds, seconds, iterations, log }) {
  log('several instances: building the app (node-server, with the task-capable echo)')
  const root = await generateApp('us', 'tasks', 'node-server')
  await buildApp(root, resolve(workDir, 'logs', 'build-us-tasks.log'))
  const raw = Object.fromEntries(SETUPS.map(([setup]) => [setup, []]))
  for (let round = 1; round <= rounds; round++) {
    for (const [setup, count] of SETUPS) {
      const running = { ...await startSetup(count, root), seconds }
      try {
        const figures = await measureSetup(running, iterations)
        raw[setup].push(figures)
        log(`  round ${round}/${rounds} ${setup}: legacy echo c10 ${figures.legacy_echo_c10_rps.toFixed(0)} req/s, modern ${figures.modern_echo_c10_rps.toFixed(0)} req/s, legacy elicitation ${figures.legacy_elicit_p50_ms.toFixed(2)} ms, echo task ${figures.task_echo_p50_ms.toFixed(2)} ms (inline ${figures.inline_echo_p50_ms.toFixed(2)}), Redis commands per request ${figures.redis_commands_per_request.toFixed(2)}`)
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
  const medians = Object.fromEntries(SETUPS.map(([setup]) => [setup, Object.fromEntries(KEYS.map(key => [key, summarize(raw[setup].filter(Boolean).map(run => run[key]))?.median]))]))
  return { raw, medians, markdown: `${renderSection(medians, rounds)}\n` }
}
