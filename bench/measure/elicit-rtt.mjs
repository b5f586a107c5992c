// Elicitation round trip per era with an auto-answering SDK client, next to a plain echo call by
// the same client (interleaved call by call): legacy = the v1 SDK Client (pushed
// elicitation/create answered on its own POST), modern = the v2 Client pinned to 2026-07-28
// (input_required, then the retry: both HTTP rounds are inside one measured callTool).
import { performance } from 'node:perf_hooks'
import { importRoot } from '../lib/paths.mjs'
import { FORM_ANSWER } from '../lib/tools-spec.mjs'
import { percentile } from '../lib/stats.mjs'

const v1 = {
  Client: (await importRoot('sdk-v1/client')).Client,
  Transport: (await importRoot('sdk-v1/client-http')).StreamableHTTPClientTransport,
  ElicitRequestSchema: (await importRoot('sdk-v1/types')).ElicitRequestSchema,
}
const v2 = await importRoot('sdk-v2/client')

/** An auto-answering SDK client of one era: legacy = v1 `Client`, modern = v2 `Client` pinned to 2026-07-28. */
export async function connect(era, url) {
  if (era === 'legacy') {
    const client = new v1.Client({ name: 'bench-legacy', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } })
    client.setRequestHandler(v1.ElicitRequestSchema, async () => FORM_ANSWER)
    const transport = new v1.Transport(new URL(url))
    await client.connect(transport)
    return { client, close: async () => { await transport.terminateSession().catch(() => {}); await client.close() } }
  }
  const client = new v2.Client({ name: 'bench-modern', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } })
  client.setRequestHandler('elicitation/create', async () => FORM_ANSWER)
  await client.connect(new v2.StreamableHTTPClientTransport(new URL(url)))
  return { client, close: () => client.close() }
}

async function timed(fn) {
  const started = performance.now()
  const result = await fn()
  return { ms: performance.now() - started, result }
}

function textOf(result) {
  return (result?.content ?? []).map(item => item.text ?? '').join('')
}

/** N interleaved echo / `tool` calls; medians and p99 in ms. Throws if an answer is wrong. */
export async function measureElicitRtt(era, url, iterations, warmup = 10, tool = 'ask_form') {
  const { client, close } = await connect(era, url)
  const echo = []
  const elicit = []
  try {
    for (let i = 0; i < warmup + iterations; i++) {
      const e = await timed(() => client.callTool({ name: 'echo', arguments: { text: 'hello' } }))
      const f = await timed(() => client.callTool({ name: tool, arguments: {} }))
      if (textOf(e.result) !== 'hello') throw new Error(`echo answered ${JSON.stringify(e.result).slice(0, 200)}`)
      if (!textOf(f.result).includes('"Ada"')) throw new Error(`${tool} answered ${JSON.stringify(f.result).slice(0, 300)}`)
      if (i >= warmup) {
        echo.push(e.ms)
        elicit.push(f.ms)
      }
    }
  }
  finally {
    await close()
  }
  return {
    echo_p50_ms: percentile(echo, 50), echo_p99_ms: percentile(echo, 99),
    elicit_p50_ms: percentile(elicit, 50), elicit_p99_ms: percentile(elicit, 99),
    iterations,
  }
}
