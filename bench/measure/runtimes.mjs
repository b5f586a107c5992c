// The runtimes phase of `npm run bench`: the same app (echo + ask_form, this module, default
// config) built with each deploy target's Nitro preset and served by its real runtime, measured
// side by side in interleaved rounds: modern echo throughput at 10 connections and the modern
// elicitation flow (two HTTP rounds) with the v2 Client. Workers run under `wrangler dev`, a local
// development server: its figures say how the module behaves in workerd, not what Cloudflare serves.
import { resolve } from 'node:path'
import { RUNTIME_PRESETS, startRuntime } from '../../scripts/runtimes.mjs'
import { freePort } from '../lib/proc.mjs'
import { percentile } from '../lib/stats.mjs'
import { buildApp, generateApp } from '../servers/nuxt-apps.mjs'
import { workDir } from '../lib/paths.mjs'
import { measureElicitRtt } from './elicit-rtt.mjs'
import { ECHO, loadSpec, measureThroughput } from './throughput.mjs'
import { STATE_SECRET } from '../servers/catalog.mjs'

export const RUNTIME_TARGETS = ['node', 'bun', 'deno', 'workers']

/** Builds one app per target; returns target → app folder. */
async function buildRuntimeApps(log) {
  const roots = {}
  for (const target of RUNTIME_TARGETS) {
    const preset = RUNTIME_PRESETS[target]
    const dir = await generateApp('us', 'base', preset)
    const built = await buildApp(dir, resolve(workDir, 'logs', `build-us-${preset}.log`))
    log(`  us on ${target} (${preset}): build ${(built.buildMs / 1000).toFixed(1)} s`)
    roots[target] = dir
  }
  return roots
}

function median(values) {
  const present = values.filter(value => typeof value === 'number')
  return present.length ? percentile(present, 50) : undefined
}

/**
 * Runs `rounds` interleaved rounds over the targets; returns per target the per-round figures and
 * their medians, and the markdown section for bench/results/runtimes.md.
 */
export async function benchRuntimes({ rounds, seconds, iterations, log }) {
  log('runtimes: building the app with each preset')
  const roots = await buildRuntimeApps(log)
  const raw = Object.fromEntries(RUNTIME_TARGETS.map(target => [target, []]))
  for (let round = 1; round <= rounds; round++) {
    for (const target of RUNTIME_TARGETS) {
      const app = await startRuntime({ target, root: roots[target], port: await freePort(), env: { NUXT_MCP_STATE_SECRET: STATE_SECRET } })
      try {
        const echo = await measureThroughput(app.url.href, loadSpec('modern', undefined, ...ECHO), [10], seconds, '"result"')
        const rtt = await measureElicitRtt('modern', app.url.href, iterations)
        raw[target].push({ echo_c10_rps: echo.c10.rps, echo_c10_p99_ms: echo.c10.p99_ms, call_p50_ms: rtt.echo_p50_ms, flow_p50_ms: rtt.elicit_p50_ms })
        log(`  round ${round}/${rounds} ${target}: modern echo c10 ${echo.c10.rps.toFixed(0)} req/s, elicitation flow ${rtt.elicit_p50_ms.toFixed(2)} ms (one call ${rtt.echo_p50_ms.toFixed(2)} ms)`)
      }
      catch (error) {
        raw[target].push(undefined)
        log(`  ! ${target} failed: ${error.message.split('\n')[0]}`)
      }
      finally {
        await app.stop()
      }
    }
  }
  const medians = Object.fromEntries(RUNTIME_TARGETS.map((target) => {
    const runs = raw[target].filter(Boolean)
    return [target, Object.fromEntries(['echo_c10_rps', 'echo_c10_p99_ms', 'call_p50_ms', 'flow_p50_ms'].map(key => [key, median(runs.map(run => run[key]))]))]
  }))
  const node = medians.node
  const ratio = (value, base) => (value === undefined || base === undefined ? 'n/a' : `${(value / base).toFixed(2)}×`)
  const fmt = (value, digits) => (value === undefined ? 'n/a' : value.toFixed(digits))
  const lines = [
    '## Runtimes: the module on each deploy target',
    '',
    `Same app (the bench's tools, default config, built from src/) built with each preset and served by its runtime; ${rounds} interleaved round(s), medians. Workers: \`wrangler dev\` (workerd locally), a development server.`,
    '',
    '| target | modern echo c10 (req/s) | ÷ Node | echo c10 p99 (ms) | one modern call p50 (ms) | modern elicitation flow p50 (ms) | ÷ Node |',
    '|---|---|---|---|---|---|---|',
    ...RUNTIME_TARGETS.map((target) => {
      const m = medians[target]
      return `| ${target} | ${fmt(m.echo_c10_rps, 0)} | ${ratio(m.echo_c10_rps, node.echo_c10_rps)} | ${fmt(m.echo_c10_p99_ms, 1)} | ${fmt(m.call_p50_ms, 2)} | ${fmt(m.flow_p50_ms, 2)} | ${ratio(m.flow_p50_ms, node.flow_p50_ms)} |`
    }),
  ]
  return { raw, medians, markdown: `${lines.join('\n')}\n` }
}
