// The observability phase of `npm run bench` (issue 33): what watching and caching cost or save.
// Three builds of the same app (node-server, from src/): "none" (no listener, OpenTelemetry left
// out: today's default), "hooks" (listeners on mcp:call, mcp:question and mcp:server, which adds
// a method to every server built) and "otel" (a tracer provider, every span sampled, batched to
// an exporter that drops them). All three run at once; each round measures them in turn, the
// order reversed every other round: legacy and modern echo at 10 connections, and on "none" a
// resources/read of the same page with `cache` and without. Ratios are of medians over rounds.
import { resolve } from 'node:path'
import { startRuntime } from '../../scripts/runtimes.mjs'
import { closeSession, modernHeaders, openSession } from '../lib/mcp-http.mjs'
import { workDir } from '../lib/paths.mjs'
import { freePort } from '../lib/proc.mjs'
import { STATE_SECRET } from '../servers/catalog.mjs'
import { buildApp, generateApp } from '../servers/nuxt-apps.mjs'
import { runLoad } from './load.mjs'
import { ECHO, loadSpec, measureThroughput } from './throughput.mjs'

const VARIANTS = ['none', 'hooks', 'otel']
const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const fmt = (value, digits = 2) => (value === undefined || Number.isNaN(value) ? 'n/a' : value.toFixed(digits))

async function echoLoads(url, pid, seconds) {
  const sessionId = await openSession(url)
  try {
    const legacy = loadSpec('legacy', sessionId, ...ECHO)
    const modern = loadSpec('modern', undefined, ...ECHO)
    await runLoad({ url, ...legacy, connections: 10, seconds: 2, expect: '"hello"' })
    const legacyC10 = (await measureThroughput(url, legacy, [10], seconds, '"hello"', pid)).c10
    await runLoad({ url, ...modern, connections: 10, seconds: 2, expect: '"hello"' })
    const modernC10 = (await measureThroughput(url, modern, [10], seconds, '"hello"', pid)).c10
    return { legacy: legacyC10, modern: modernC10 }
  }
  finally {
    await closeSession(url, sessionId)
  }
}

async function readLoads(url, pid, seconds) {
  const out = {}
  for (const name of ['page', 'cached-page']) {
    const uri = `bench://${name}`
    // A read's Mcp-Name header is its URI (loadSpec names tools).
    const spec = { ...loadSpec('modern', undefined, 'resources/read', { uri }), headers: modernHeaders('resources/read', uri) }
    await runLoad({ url, ...spec, connections: 10, seconds: 2, expect: 'item 199' })
    out[name] = (await measureThroughput(url, spec, [10], seconds, 'item 199', pid)).c10
  }
  return out
}

/**
 * Runs the phase; resolves with the per-round figures, their medians and bench/results/observe.md.
 *
 * @example
 * const { markdown } = await benchObserve({ rounds: 3, seconds: 10, log: console.log })
 */
export async function benchObserve({ rounds, seconds, log }) {
  const apps = {}
  for (const variant of VARIANTS) {
    const dir = await generateApp('us', `observe-${variant}`, 'node-server')
    log(`observe: building ${variant}`)
    await buildApp(dir, resolve(workDir, 'logs', `build-us-observe-${variant}.log`))
    apps[variant] = dir
  }
  const running = {}
  const raw = []
  try {
    for (const variant of VARIANTS) running[variant] = await startRuntime({ target: 'node', root: apps[variant], port: await freePort(), env: { NUXT_MCP_STATE_SECRET: STATE_SECRET } })
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 ? VARIANTS : [...VARIANTS].reverse()
      const figures = {}
      for (const variant of order) {
        const { url, pid } = running[variant]
        figures[variant] = await echoLoads(url.href, pid, seconds)
        log(`observe round ${round}/${rounds} ${variant}: legacy echo c10 ${fmt(figures[variant].legacy.rps, 0)} req/s, modern ${fmt(figures[variant].modern.rps, 0)} req/s`)
      }
      figures.reads = await readLoads(running.none.url.href, running.none.pid, seconds)
      log(`observe round ${round}/${rounds} reads: uncached ${fmt(figures.reads.page.rps, 0)} req/s, cached ${fmt(figures.reads['cached-page'].rps, 0)} req/s`)
      raw.push(figures)
    }
  }
  finally {
    for (const app of Object.values(running)) await app.stop()
  }
  const pick = path => raw.map(path)
  const medians = {}
  for (const variant of VARIANTS) {
    for (const era of ['legacy', 'modern']) {
      medians[`${variant}_${era}_rps`] = median(pick(r => r[variant][era].rps))
      medians[`${variant}_${era}_p99_ms`] = median(pick(r => r[variant][era].p99_ms))
      medians[`${variant}_${era}_cpu_ms_per_1k`] = median(pick(r => r[variant][era].cpu_ms_per_1k))
    }
  }
  medians.read_uncached_rps = median(pick(r => r.reads.page.rps))
  medians.read_cached_rps = median(pick(r => r.reads['cached-page'].rps))
  // Each round's own ratio, then their median: the rounds share the machine's state of the moment.
  const ratio = (a, b) => median(raw.map(r => a(r) / b(r)))
  const ratios = {
    hooks_legacy: ratio(r => r.hooks.legacy.rps, r => r.none.legacy.rps),
    hooks_modern: ratio(r => r.hooks.modern.rps, r => r.none.modern.rps),
    otel_legacy: ratio(r => r.otel.legacy.rps, r => r.none.legacy.rps),
    otel_modern: ratio(r => r.otel.modern.rps, r => r.none.modern.rps),
    cached_read: ratio(r => r.reads['cached-page'].rps, r => r.reads.page.rps),
  }
  const spread = key => {
    const values = raw.map(r => key(r))
    return `${fmt(Math.min(...values), 0)}–${fmt(Math.max(...values), 0)}`
  }
  const rows = VARIANTS.flatMap(variant => ['legacy', 'modern'].map(era =>
    `| ${variant} | ${era} | ${fmt(medians[`${variant}_${era}_rps`], 0)} (${spread(r => r[variant][era].rps)}) | ${fmt(medians[`${variant}_${era}_p99_ms`])} | ${fmt(medians[`${variant}_${era}_cpu_ms_per_1k`], 0)} |`))
  const markdown = `## Echo at 10 connections, ${rounds} round(s) of ${seconds} s, medians (range)

| app | era | req/s | p99 ms | server CPU ms / 1000 req |
|---|---|---|---|---|
${rows.join('\n')}

| figure | ratio (median of per-round ratios) |
|---|---|
| hooks / none, legacy echo throughput | ${fmt(ratios.hooks_legacy)}× |
| hooks / none, modern echo throughput | ${fmt(ratios.hooks_modern)}× |
| OpenTelemetry / none, legacy echo throughput | ${fmt(ratios.otel_legacy)}× |
| OpenTelemetry / none, modern echo throughput | ${fmt(ratios.otel_modern)}× |

"hooks" listens to \`mcp:call\` and \`mcp:question\` and adds a method in \`mcp:server\` (a modern
request builds a server each, so its listener runs per request); "otel" samples every span.

## A resource read, cached and not (2026-07-28, 10 connections, the "none" app)

| read | req/s (range) |
|---|---|
| \`bench://page\`, no cache | ${fmt(medians.read_uncached_rps, 0)} (${spread(r => r.reads.page.rps)}) |
| \`bench://cached-page\`, \`cache: { maxAge: '10m', scope: 'shared' }\` | ${fmt(medians.read_cached_rps, 0)} (${spread(r => r.reads['cached-page'].rps)}) |
| cached / uncached | ${fmt(ratios.cached_read)}× |

The page is 200 table rows rendered per read (about 4 kB): what a cache saves grows with what the
handler does; the floor is the request itself.
`
  return { raw, medians: { ...medians, ratios }, markdown }
}
