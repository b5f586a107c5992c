// What the module's hooks cost, and that they cost nothing when nobody listens (issue 49, item 5).
// One build of the bench app (node-server, from src/, OpenTelemetry left out) started twice at
// once: "none" with no listener, "all" with one listener on each of the module's seven hooks
// (`BENCH_HOOK_LISTENERS=1`; each listener counts what it hears, so the run checks they ran). One
// client in this process alternates echo calls between the two, pair by pair, the order of each
// pair swapped every other pair and the rounds reversed every other round, so machine drift hits
// both alike: per round and era, each server's p50 call time and its CPU per 1000 calls (from
// /proc), then the median of the rounds. On the echo path `mcp:auth`, `mcp:request`, `mcp:call`
// and (per modern request, per legacy session) `mcp:server` run; `mcp:auth:token` (opaque tokens
// while `mcp.auth` is on), `mcp:question` (echo asks nothing) and `mcp:host-owner` (host routes)
// are listened to but not called. Against no hook code at all: the checks an echo request makes
// with nobody listening (hooks.ts's `listening()` on Nitro's own hook table), timed in this
// process against the same loop without them, and set against "none"'s server CPU per call.
// Results: bench/results/hooks.md and .json.
//   node bench/measure/hooks.mjs [pairs=300] [rounds=5] [--reuse]
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { availableParallelism, loadavg } from 'node:os'
import { mkdir, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { startRuntime } from '../../scripts/runtimes.mjs'
import { registerSourceHooks } from '../../scripts/source-hooks.mjs'
import { agent, closeSession, legacyCall, modernCall, openSession } from '../lib/mcp-http.mjs'
import { repoRoot, resultsDir, workDir } from '../lib/paths.mjs'
import { cpuMs } from '../lib/proc.mjs'
import { percentile, ratio, summarize } from '../lib/stats.mjs'
import { STATE_SECRET } from '../servers/catalog.mjs'
import { appDirOf, buildApp, generateApp } from '../servers/nuxt-apps.mjs'

const HOOKS = ['mcp:auth', 'mcp:auth:token', 'mcp:request', 'mcp:server', 'mcp:call', 'mcp:question', 'mcp:host-owner']
const WARMUP = 50
const ECHO = { name: 'echo', arguments: { text: 'hello' } }

// What an app listening to every hook registers: a counter per hook, never blocking.
const LISTENERS_PLUGIN = `const heard: Record<string, number> = globalThis.__benchHeard ??= {}

export default defineNitroPlugin((nitro) => {
  if (process.env.BENCH_HOOK_LISTENERS !== '1') return
  for (const name of ${JSON.stringify(HOOKS)}) {
    heard[name] = 0
    nitro.hooks.hook(name, () => { heard[name]++ })
  }
})
`
const HEARD_ROUTE = `export default defineEventHandler(() => globalThis.__benchHeard ?? {})
`

async function prepareApp(reuse, log) {
  const dir = appDirOf('us', 'hooks', 'node-server')
  if (reuse && existsSync(resolve(dir, '.output/server/index.mjs'))) return dir
  await generateApp('us', 'hooks', 'node-server')
  await mkdir(resolve(dir, 'server/plugins'), { recursive: true })
  await writeFile(resolve(dir, 'server/plugins/hook-listeners.ts'), LISTENERS_PLUGIN)
  await writeFile(resolve(dir, 'server/routes/__bench/heard.get.ts'), HEARD_ROUTE)
  await mkdir(resolve(workDir, 'logs'), { recursive: true })
  log('hooks: building the app')
  await buildApp(dir, resolve(workDir, 'logs', 'build-us-hooks.log'))
  return dir
}

/** The hooks an echo request looks up: `mcp:auth`, `mcp:request`, `mcp:call`, and `mcp:server` (per modern request). */
const ECHO_PATH_HOOKS = ['mcp:auth', 'mcp:request', 'mcp:call', 'mcp:server']

/**
 * What hook code costs an echo request when nobody listens, against no hook code: the real
 * `mcpHookOf(...).listening()` of each hook on the echo path, on a hook table made by the
 * hookable Nitro runs with, in a loop of `iterations` requests, against the same loop without
 * the checks. CPU time, median of `rounds`; nanoseconds per request.
 */
export async function measureIdleChecks(rounds = 9, iterations = 2_000_000) {
  registerSourceHooks(resolve(repoRoot, 'src'))
  const { mcpHookOf } = await import(pathToFileURL(resolve(repoRoot, 'src/runtime/server/hooks.ts')).href)
  const hookable = createRequire(resolve(repoRoot, 'node_modules/nitropack/package.json')).resolve('hookable')
  const { createHooks } = await import(pathToFileURL(hookable).href)
  const checks = ECHO_PATH_HOOKS.map(name => mcpHookOf(createHooks(), name))
  // `heard` is read after the loop, so neither loop can be dropped as dead code.
  let heard = 0
  const cpuNs = (body) => {
    const start = process.cpuUsage()
    for (let i = 0; i < iterations; i++) heard += body(i)
    const { user, system } = process.cpuUsage(start)
    return (user + system) * 1000
  }
  const withChecks = (i) => {
    let listening = 0
    for (const check of checks) if (check.listening()) listening++
    return listening + (i & 1)
  }
  const without = i => i & 1
  const differences = []
  for (let round = -2; round < rounds; round++) {
    const a = cpuNs(withChecks)
    const b = cpuNs(without)
    if (round >= 0) differences.push((a - b) / iterations)
  }
  if (heard !== Math.floor(iterations / 2) * 2 * (rounds + 2)) throw new Error(`a hook was listened to in the idle-check loop (${heard})`)
  return summarize(differences)
}

/** One echo call; resolves with its time in ms, after checking the answer. */
async function timedEcho(server, era) {
  const started = performance.now()
  const response = era === 'legacy' ? await legacyCall(server.url.href, server.sessionId, 'tools/call', ECHO) : await modernCall(server.url.href, 'tools/call', ECHO)
  const ms = performance.now() - started
  const text = response.messages.at(-1)?.result?.content?.[0]?.text
  if (text !== 'hello') throw new Error(`${server.id} ${era} echo answered HTTP ${response.status} ${response.text.slice(0, 300)}`)
  return ms
}

/** `pairs` alternating echo calls on both servers in `era`: each server's p50 and CPU per 1000 calls. */
async function measurePairs(servers, era, pairs) {
  for (let i = 0; i < WARMUP; i++) for (const server of servers) await timedEcho(server, era)
  const samples = servers.map(() => [])
  const cpuBefore = await Promise.all(servers.map(server => cpuMs(server.pid)))
  for (let i = 0; i < pairs; i++) {
    const order = i % 2 ? [1, 0] : [0, 1]
    for (const at of order) samples[at].push(await timedEcho(servers[at], era))
  }
  const cpuAfter = await Promise.all(servers.map(server => cpuMs(server.pid)))
  return Object.fromEntries(servers.map((server, at) => [server.id, {
    p50_ms: percentile(samples[at], 50),
    cpu_ms_per_1000: ((cpuAfter[at] - cpuBefore[at]) * 1000) / pairs,
  }]))
}

const fmt = (value, digits = 2) => (value === undefined || Number.isNaN(value) ? 'n/a' : value.toFixed(digits))

function render({ rounds, pairs, eras, heard, date, load, idle }) {
  const lines = [
    '# nuxt-mcp-elicitation benchmark — the hooks, with nobody listening and with a listener on each',
    '',
    `Generated by \`node bench/measure/hooks.mjs ${pairs} ${rounds}\` on ${date}, Node ${process.version}, one build (node-server, from src/) started twice at once, ${availableParallelism()} CPU(s), load average ${fmt(load.start, 1)} at the start and ${fmt(load.end, 1)} at the end (read the ranges with it).`,
    '',
    'With nobody listening, each hook is one look into Nitro\'s hook table per request (or per call, per server built): no context or event is built and no `await` added (`src/runtime/server/hooks.ts`, `common/hooks.ts`). "All" has one listener on each of the seven hooks, each counting what it hears; the echo path calls four of them.',
    '',
    `## Echo, one call at a time, ${pairs} alternating pairs per round, ${rounds} rounds: medians of the rounds (range)`,
    '',
    '| era | listeners | p50 ms | server CPU ms / 1000 calls |',
    '|---|---|---|---|',
  ]
  for (const [era, figures] of Object.entries(eras)) {
    for (const id of ['none', 'all']) {
      const p50 = figures[id].p50_ms
      const cpu = figures[id].cpu_ms_per_1000
      lines.push(`| ${era} | ${id === 'none' ? 'none' : 'one on each hook'} | ${fmt(p50.median, 3)} (${fmt(p50.min, 3)}–${fmt(p50.max, 3)}) | ${fmt(cpu.median, 0)} (${fmt(cpu.min, 0)}–${fmt(cpu.max, 0)}) |`)
    }
  }
  lines.push('', '| figure | all ÷ none (median of per-round ratios) |', '|---|---|')
  for (const [era, figures] of Object.entries(eras)) {
    lines.push(`| ${era} echo p50 | ${fmt(figures.ratio_p50.median)}× (${fmt(figures.ratio_p50.min)}–${fmt(figures.ratio_p50.max)}) |`)
    lines.push(`| ${era} echo server CPU per call | ${fmt(figures.ratio_cpu.median)}× (${fmt(figures.ratio_cpu.min)}–${fmt(figures.ratio_cpu.max)}) |`)
  }
  lines.push('', `Listeners heard, on "all" (none on "none"): ${HOOKS.map(name => `\`${name}\` ${heard.all[name] ?? 0}`).join(', ')}.`, '')
  lines.push('## Nobody listening, against no hook code', '')
  lines.push(`The ${ECHO_PATH_HOOKS.length} checks an echo request makes with nobody listening (${ECHO_PATH_HOOKS.map(name => `\`${name}\``).join(', ')}: \`listening()\` on a hook table made by Nitro's hookable), in a loop in this process against the same loop without them (CPU time, median of ${idle.n} rounds): **${fmt(idle.median, 1)} ns per request** (${fmt(idle.min, 1)}–${fmt(idle.max, 1)}).`)
  lines.push('')
  lines.push('| era | "none"\'s server CPU per echo call | the checks\' share of it |', '|---|---|---|')
  for (const [era, figures] of Object.entries(eras)) {
    const perCallNs = figures.none.cpu_ms_per_1000.median * 1000
    lines.push(`| ${era} | ${fmt(perCallNs / 1000, 0)} µs | ${fmt((idle.median / perCallNs) * 100, 4)} % |`)
  }
  lines.push('')
  return `${lines.join('\n')}\n`
}

/**
 * Runs the measurement; resolves with the per-round figures, their medians and the markdown.
 *
 * @example
 * const { markdown } = await benchHooks({ pairs: 300, rounds: 5, reuse: false, log: console.log })
 */
export async function benchHooks({ pairs, rounds, reuse, log }) {
  const dir = await prepareApp(reuse, log)
  const env = listeners => ({ NUXT_MCP_STATE_SECRET: STATE_SECRET, BENCH_HOOK_LISTENERS: listeners })
  const none = { id: 'none', ...await startRuntime({ target: 'node', root: dir, env: env('0') }) }
  const all = { id: 'all', ...await startRuntime({ target: 'node', root: dir, env: env('1') }).catch(async (error) => {
    await none.stop()
    throw error
  }) }
  const raw = []
  const load = { start: loadavg()[0] }
  let heard
  try {
    for (const server of [none, all]) server.sessionId = await openSession(server.url.href)
    for (let round = 1; round <= rounds; round++) {
      const servers = round % 2 ? [none, all] : [all, none]
      const figures = {}
      for (const era of round % 2 ? ['legacy', 'modern'] : ['modern', 'legacy']) {
        figures[era] = await measurePairs(servers, era, pairs)
        log(`hooks round ${round}/${rounds} ${era}: p50 none ${fmt(figures[era].none.p50_ms, 3)} ms, all ${fmt(figures[era].all.p50_ms, 3)} ms; CPU/1000 none ${fmt(figures[era].none.cpu_ms_per_1000, 0)} ms, all ${fmt(figures[era].all.cpu_ms_per_1000, 0)} ms`)
      }
      raw.push(figures)
    }
    load.end = loadavg()[0]
    heard = {}
    for (const server of [none, all]) heard[server.id] = await (await fetch(new URL('/__bench/heard', server.origin))).json()
    for (const server of [none, all]) await closeSession(server.url.href, server.sessionId)
  }
  finally {
    await none.stop()
    await all.stop()
  }
  // The listeners ran on "all" (every echo call told `mcp:call`), and nothing was heard on "none".
  const calls = rounds * 2 * (pairs + WARMUP)
  if ((heard.all['mcp:call'] ?? 0) < calls || !(heard.all['mcp:auth'] > 0) || !(heard.all['mcp:request'] > 0) || !(heard.all['mcp:server'] > 0)) throw new Error(`The "all" server's listeners did not hear every call: ${JSON.stringify(heard.all)} for ${calls} echo calls`)
  if (Object.keys(heard.none).length > 0) throw new Error(`The "none" server has listeners: ${JSON.stringify(heard.none)}`)
  const eras = {}
  for (const era of ['legacy', 'modern']) {
    const of = (id, key) => summarize(raw.map(round => round[era][id][key]))
    eras[era] = {
      none: { p50_ms: of('none', 'p50_ms'), cpu_ms_per_1000: of('none', 'cpu_ms_per_1000') },
      all: { p50_ms: of('all', 'p50_ms'), cpu_ms_per_1000: of('all', 'cpu_ms_per_1000') },
      ratio_p50: summarize(raw.map(round => ratio(round[era].all.p50_ms, round[era].none.p50_ms))),
      ratio_cpu: summarize(raw.map(round => ratio(round[era].all.cpu_ms_per_1000, round[era].none.cpu_ms_per_1000))),
    }
  }
  const idle = await measureIdleChecks()
  const result = { date: new Date().toISOString(), node: process.version, pairs, rounds, load, raw, eras, heard, idle }
  return { ...result, markdown: render(result) }
}

if (process.argv[1] === import.meta.filename) {
  const args = process.argv.slice(2)
  const [pairs = 300, rounds = 5] = args.filter(arg => !arg.startsWith('--')).map(Number)
  const result = await benchHooks({ pairs, rounds, reuse: args.includes('--reuse'), log: console.log })
  const { markdown, ...json } = result
  await writeFile(resolve(resultsDir, 'hooks.md'), markdown)
  await writeFile(resolve(resultsDir, 'hooks.json'), `${JSON.stringify(json, null, 2)}\n`)
  console.log(markdown)
  agent.destroy()
}
