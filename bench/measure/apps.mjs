// The apps phase of `npm run bench` (issue 32): what an MCP App view costs.
// - Build: `nuxi build` of the bench app with one view (variant "apps") against the same app
//   without it (variant "base"), alternating, node-server: the time one view adds.
// - Size: the view's HTML as `resources/read` serves it, raw and gzip (goal ≤ 100 kB gzip for a
//   view with one component, Vue and ext-apps' `App` included), and where the bytes go: Vue's
//   runtime alone and ext-apps' `App` alone, each bundled by Vite the way a view is (minified, one
//   ES module).
// - Serving: `resources/read` of the view, sequential 2026-07-28 requests on one keep-alive
//   connection, alternating between our app and the bare v2 SDK server holding the same HTML at
//   module level (servers/v2-floor.mjs with BENCH_VIEW_HTML_FILE); requests/s from the p50s.
import { mkdir, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { gzipSync } from 'node:zlib'
import { startRuntime } from '../../scripts/runtimes.mjs'
import { modernHeaders, modernMeta, newId, send } from '../lib/mcp-http.mjs'
import { benchDir, importRoot, repoRoot, workDir } from '../lib/paths.mjs'
import { freePort, spawnServer } from '../lib/proc.mjs'
import { percentile, summarize } from '../lib/stats.mjs'
import { STATE_SECRET } from '../servers/catalog.mjs'
import { buildApp, generateApp } from '../servers/nuxt-apps.mjs'

const READ = { uri: 'ui://chart' }

async function readView(url) {
  const response = await send(url, { headers: modernHeaders('resources/read', READ.uri), body: { jsonrpc: '2.0', id: newId(), method: 'resources/read', params: { ...READ, _meta: modernMeta() } } })
  const text = response.messages.at(-1)?.result?.contents?.[0]?.text
  if (typeof text !== 'string') throw new Error(`resources/read ui://chart answered HTTP ${response.status}: ${response.text.slice(0, 300)}`)
  return text
}

/** p50 of `iterations` sequential reads per server, alternating (after a warm-up). */
async function measureReads(ours, floor, iterations, warmup = 30) {
  const times = { ours: [], floor: [] }
  for (let i = 0; i < warmup + iterations; i++) {
    for (const [name, url] of [['ours', ours], ['floor', floor]]) {
      const started = performance.now()
      await readView(url)
      if (i >= warmup) times[name].push(performance.now() - started)
    }
  }
  return { ours_p50_ms: percentile(times.ours, 50), floor_p50_ms: percentile(times.floor, 50) }
}

/** gzip bytes of `code` bundled by Vite as a view is (minified, one ES module), from the repo root. */
async function bundledGzip(name, code) {
  const { build } = await importRoot('vite')
  const dir = resolve(workDir, 'apps-parts')
  await mkdir(dir, { recursive: true })
  const entry = resolve(dir, `${name}.mjs`)
  await writeFile(entry, code)
  const result = await build({ configFile: false, logLevel: 'silent', root: repoRoot, mode: 'production', define: { 'process.env.NODE_ENV': '"production"' }, build: { write: false, minify: true, modulePreload: false, rolldownOptions: { input: entry, output: { format: 'es', codeSplitting: false } } } })
  const output = (Array.isArray(result) ? result : [result]).flatMap(entryResult => entryResult.output)
  return gzipSync(output.filter(chunk => chunk.type === 'chunk').map(chunk => chunk.code).join('\n')).length
}

const kb = bytes => (bytes / 1000).toFixed(1)
const fmt = (value, digits) => (value === undefined ? 'n/a' : value.toFixed(digits))

/**
 * Runs `rounds` rounds (two builds, then the serving comparison); returns the per-round figures,
 * their medians and the markdown for bench/results/apps.md.
 *
 * @example
 * const { markdown } = await benchApps({ rounds: 3, iterations: 200, log: console.log })
 */
export async function benchApps({ rounds, iterations, log }) {
  const withView = await generateApp('us', 'apps', 'node-server')
  const without = await generateApp('us', 'base', 'node-server')
  const raw = []
  let html = ''
  for (let round = 1; round <= rounds; round++) {
    const base = await buildApp(without, resolve(workDir, 'logs', 'build-us-base-apps.log'))
    const apps = await buildApp(withView, resolve(workDir, 'logs', 'build-us-apps.log'))
    const app = await startRuntime({ target: 'node', root: withView, port: await freePort(), env: { NUXT_MCP_STATE_SECRET: STATE_SECRET } })
    let floor
    try {
      html = await readView(app.url.href)
      const htmlFile = resolve(workDir, 'apps-parts', 'chart.html')
      await mkdir(resolve(workDir, 'apps-parts'), { recursive: true })
      await writeFile(htmlFile, html)
      floor = spawnServer({ entry: resolve(benchDir, 'servers/v2-floor.mjs'), port: await freePort(), env: { BENCH_VIEW_HTML_FILE: htmlFile } })
      await waitForFloor(floor.url)
      const reads = await measureReads(app.url.href, floor.url, iterations)
      raw.push({ build_base_s: base.buildMs / 1000, build_apps_s: apps.buildMs / 1000, view_build_s: (apps.buildMs - base.buildMs) / 1000, ...reads })
      log(`  round ${round}/${rounds}: build ${fmt(base.buildMs / 1000, 1)} s without the view, ${fmt(apps.buildMs / 1000, 1)} s with it; resources/read p50 ${fmt(reads.ours_p50_ms, 3)} ms ours, ${fmt(reads.floor_p50_ms, 3)} ms bare SDK`)
    }
    finally {
      await app.stop()
      await floor?.stop()
    }
  }
  const medians = Object.fromEntries(Object.keys(raw[0]).map(key => [key, summarize(raw.map(run => run[key]))?.median]))
  const vue = await bundledGzip('vue-only', `import { createApp, h } from 'vue'\ncreateApp({ render: () => h('p', 'x') }).mount('#app')\n`)
  const appOnly = await bundledGzip('app-only', `import { App } from '@modelcontextprotocol/ext-apps'\nnew App({ name: 'x', version: '1' }).connect()\n`)
  const htmlGzip = gzipSync(html).length
  const m = medians
  const rate = value => (value ? 1000 / value : undefined)
  const lines = [
    '## MCP Apps: what a view costs',
    '',
    `The bench app (the module from src/, node-server) with one view (\`app/mcp/chart.vue\`: one component using \`useMcpView()\`, scoped CSS) and its tool, against the same app without them; ${rounds} round(s), medians. Serving: ${iterations} sequential \`resources/read\` per server per round on one keep-alive connection, alternating with the bare v2 SDK server holding the same HTML at module level.`,
    '',
    '| figure | value | goal |',
    '|---|---|---|',
    `| build time one view adds (s) | ${fmt(m.view_build_s, 1)} (${fmt(m.build_apps_s, 1)} with, ${fmt(m.build_base_s, 1)} without) | once per build |`,
    `| the view's HTML, raw / gzip (kB) | ${kb(html.length)} / ${kb(htmlGzip)} | ≤ 100 gzip |`,
    `| of which Vue's runtime alone (gzip, kB) | ${kb(vue)} | |`,
    `| of which ext-apps' \`App\` alone, with the MCP protocol and zod it brings (gzip, kB) | ${kb(appOnly)} | |`,
    `| resources/read p50 (ms): ours / bare SDK | ${fmt(m.ours_p50_ms, 3)} / ${fmt(m.floor_p50_ms, 3)} | |`,
    `| resources/read rate, ours against the bare SDK | ${rate(m.ours_p50_ms) && rate(m.floor_p50_ms) ? `${(rate(m.ours_p50_ms) / rate(m.floor_p50_ms)).toFixed(2)}×` : 'n/a'} | ≥ 1.0× |`,
    '',
  ]
  return { raw, medians, markdown: lines.join('\n') }
}

async function waitForFloor(url) {
  const deadline = Date.now() + 20_000
  for (;;) {
    try {
      await readView(url)
      return
    }
    catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise(r => setTimeout(r, 100))
    }
  }
}
