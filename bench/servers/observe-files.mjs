// The observability phase's app files (bench/measure/observe.mjs), beside the variants of
// nuxt-apps.mjs: the same resource cached and not, and what an app listening to every hook, or
// tracing, registers.
import { mkdir, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'

// Variants "observe-none", "observe-hooks", "observe-otel".
const PAGE_RESOURCE = (name, cache) => `export default defineMcpResource({
  name: '${name}',
  uri: 'bench://${name}',
  mimeType: 'text/markdown',${cache ? `\n  cache: { maxAge: '10m', scope: 'shared' },` : ''}
  handler: () => {
    // A page of the size and making a docs resource has: 200 rows rendered each read.
    const rows = Array.from({ length: 200 }, (_, i) => \`| \${i} | item \${i} | \${(i * 7919 % 1000) / 10} |\`)
    return ['| # | name | value |', '|---|---|---|', ...rows].join('\\n')
  },
})
`
const HOOKS_PLUGIN = `import { z } from 'zod'

let calls = 0
let questions = 0
// What a metrics plugin does: count, never block. Plus a method of its own on every server.
export default defineNitroPlugin((nitro) => {
  nitro.hooks.hook('mcp:call', (call) => { calls += call.durationMs >= 0 ? 1 : 0 })
  nitro.hooks.hook('mcp:question', () => { questions++ })
  nitro.hooks.hook('mcp:server', (server) => {
    server.addRequestHandler('bench/stats', { params: z.object({}) }, () => ({ calls, questions }))
  })
})
`
const OTEL_PLUGIN = `import { context, propagation, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base'

// An app's tracing setup with every span sampled and batched to an exporter that drops them
// (an OTLP exporter's network cost is the collector's, not the module's).
const dropping = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} }
export default defineNitroPlugin(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)] }))
})
`

/** Writes the observability phase's resources and, but for "observe-none", its plugin. */
export async function writeObserveFiles(dir, variant) {
  const resources = resolve(dir, 'server/mcp/resources')
  await mkdir(resources, { recursive: true })
  await writeFile(resolve(resources, 'page.ts'), PAGE_RESOURCE('page', false))
  await writeFile(resolve(resources, 'cached-page.ts'), PAGE_RESOURCE('cached-page', true))
  if (variant === 'observe-none') return
  await mkdir(resolve(dir, 'server/plugins'), { recursive: true })
  await writeFile(resolve(dir, 'server/plugins/observe.ts'), variant === 'observe-hooks' ? HOOKS_PLUGIN : OTEL_PLUGIN)
}

