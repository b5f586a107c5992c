// The schemas phase of `npm run bench`: the same echo tool and the same 5-field form written with
// Zod, Valibot and ArkType, in one app (node-server, from src/), measured in turn with the order
// rotated every round: modern echo at 10 connections per tool (the input checked by its library
// on every call) and the modern elicitation flow per form (the form built from the library's JSON
// Schema, once; the answer checked by the library). Ratios to Zod are per round, then the median.
import { resolve } from 'node:path'
import { startRuntime } from '../../scripts/runtimes.mjs'
import { workDir } from '../lib/paths.mjs'
import { freePort } from '../lib/proc.mjs'
import { summarize } from '../lib/stats.mjs'
import { STATE_SECRET } from '../servers/catalog.mjs'
import { buildApp, generateApp } from '../servers/nuxt-apps.mjs'
import { SCHEMA_LIBRARIES } from '../servers/schema-files.mjs'
import { measureElicitRtt } from './elicit-rtt.mjs'
import { runLoad } from './load.mjs'
import { loadSpec, measureThroughput } from './throughput.mjs'

const fmt = (value, digits = 2) => (value === undefined || Number.isNaN(value) ? 'n/a' : value.toFixed(digits))
const median = values => summarize(values)?.median

/**
 * Runs the phase; resolves with the per-round figures, their medians and bench/results/schemas.md.
 *
 * @example
 * const { markdown } = await benchSchemas({ rounds: 3, seconds: 10, iterations: 60, log: console.log })
 */
export async function benchSchemas({ rounds, seconds, iterations, log }) {
  const dir = await generateApp('us', 'schemas', 'node-server')
  log('schemas: building the app (Zod, Valibot and ArkType tools)')
  const built = await buildApp(dir, resolve(workDir, 'logs', 'build-us-schemas.log'))
  const app = await startRuntime({ target: 'node', root: dir, port: await freePort(), env: { NUXT_MCP_STATE_SECRET: STATE_SECRET } })
  const raw = []
  try {
    for (let round = 1; round <= rounds; round++) {
      const order = [...SCHEMA_LIBRARIES.slice(round - 1), ...SCHEMA_LIBRARIES.slice(0, round - 1)]
      const figures = {}
      for (const library of order) {
        const spec = loadSpec('modern', undefined, 'tools/call', { name: `echo_${library}`, arguments: { text: 'hello' } })
        await runLoad({ url: app.url.href, ...spec, connections: 10, seconds: 2, expect: '"hello"' })
        const echo = (await measureThroughput(app.url.href, spec, [10], seconds, '"hello"', app.pid)).c10
        const flow = await measureElicitRtt('modern', app.url.href, iterations, 10, `form_${library}`)
        figures[library] = { echo_rps: echo.rps, echo_p99_ms: echo.p99_ms, cpu_ms_per_1k: echo.cpu_ms_per_1k, flow_p50_ms: flow.elicit_p50_ms }
        log(`schemas round ${round}/${rounds} ${library}: modern echo c10 ${fmt(echo.rps, 0)} req/s, form flow ${fmt(flow.elicit_p50_ms)} ms`)
      }
      raw.push(figures)
    }
  }
  finally {
    await app.stop()
  }
  const medians = Object.fromEntries(SCHEMA_LIBRARIES.map(library => [library, Object.fromEntries(['echo_rps', 'echo_p99_ms', 'cpu_ms_per_1k', 'flow_p50_ms'].map(key => [key, median(raw.map(r => r[library][key]))]))]))
  const ratio = (library, key) => median(raw.map(r => r[library][key] / r.zod[key]))
  const rows = SCHEMA_LIBRARIES.map(library => `| ${library} | ${fmt(medians[library].echo_rps, 0)} | ${fmt(ratio(library, 'echo_rps'))}× | ${fmt(medians[library].echo_p99_ms)} | ${fmt(medians[library].cpu_ms_per_1k, 0)} | ${fmt(medians[library].flow_p50_ms)} | ${fmt(ratio(library, 'flow_p50_ms'))}× |`)
  const markdown = `## The same tool and form in Zod, Valibot and ArkType (2026-07-28), ${rounds} round(s), medians

| library | echo c10 req/s | ÷ Zod | echo p99 ms | server CPU ms / 1000 req | form flow p50 ms | ÷ Zod |
|---|---|---|---|---|---|---|
${rows.join('\n')}

Build time of the app with the three libraries' tools: ${fmt(built.buildMs / 1000, 1)} s. The
echo input is \`{ text }\`, 1 to 200 characters; the form is the bench's 5-field \`ask_form\`
(name, age, plan, tags, subscribe), its schema at module level in each file. For a form, the
JSON Schema each library produces is converted once, when first asked; every answer is checked by
the library's own \`validate\`.
`
  return { raw, medians, build_ms: built.buildMs, markdown }
}
