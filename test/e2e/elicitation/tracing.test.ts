import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import type { Answerer, ConnectOptions } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { CLIENT, ERROR, SERVER, SESSION_TAG, newTrace, spansOf as spansAt } from '../../utils/traces'
import type { RecordedSpan } from '../../utils/traces'

/**
 * OpenTelemetry spans of MCP calls, recorded by the elicitation fixture's own tracer provider
 * (server/plugins/tracing.ts: the real SDK with an in-memory exporter, the AsyncLocalStorage
 * context manager, the W3C propagator). The client sends a W3C `traceparent` in `params._meta`,
 * as the MCP semantic conventions say, and each test reads the spans of its own trace.
 */

let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('elicitation')
})
afterAll(async () => {
  await app?.stop()
})

function spansOf(traceId: string, count: number): Promise<RecordedSpan[]> {
  return spansAt([app.url], traceId, count)
}

/** The session id the legacy client was given, kept to check that no span carries it. */
let lastSessionId: string | undefined

async function callTraced(era: 'legacy' | 'modern', name: string, args: Record<string, unknown>, meta: Record<string, string>, answer?: Answerer) {
  const options: ConnectOptions = { answer }
  const client = era === 'legacy' ? await connectLegacy(app.url, options) : await connectModern(app.url, options)
  lastSessionId = era === 'legacy' ? client.transport?.sessionId : undefined
  try {
    return await client.callTool({ name, arguments: args, _meta: meta })
  }
  finally {
    await client.close()
  }
}

describe.each(['legacy', 'modern'] as const)('%s era', (era) => {
  it('makes one SERVER span per call, parented by the client\'s traceparent, with the app\'s own span inside', async () => {
    const { traceId, clientSpanId, meta } = newTrace()
    expect(textOf(await callTraced(era, 'traced_work', {}, meta))).toBe('worked')
    const spans = await spansOf(traceId, 2)
    const call = spans.find(span => span.name === 'tools/call traced_work')
    expect(call).toMatchObject({
      kind: SERVER,
      parentSpanId: clientSpanId,
      attributes: { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'traced_work', 'gen_ai.operation.name': 'execute_tool', 'network.transport': 'tcp', 'nuxt_mcp.outcome': 'ok' },
    })
    expect(typeof call?.attributes['jsonrpc.request.id']).toBe('string')
    if (era === 'modern') expect(call?.attributes).not.toHaveProperty('mcp.session.id')
    else {
      // A keyed hash of the session id, never the id: for an anonymous session it is the credential.
      expect(call?.attributes['mcp.session.id']).toMatch(SESSION_TAG)
      expect(lastSessionId).toMatch(/\S/)
      expect(JSON.stringify(spans)).not.toContain(lastSessionId)
    }
    expect(spans.find(span => span.name === 'app.work')?.parentSpanId).toBe(call?.spanId)
    expect(spans).toHaveLength(2)
  })

  it('makes a CLIENT span for the question, a child of the call that asked', async () => {
    const { traceId, meta } = newTrace()
    expect(textOf(await callTraced(era, 'traced_work', { ask: true }, meta, () => ({ action: 'accept', content: { confirm: true } })))).toBe('worked')
    // Legacy: one call span with the wait inside. Modern: a round that asked, and the retry.
    const expected = era === 'legacy' ? 3 : 4
    const spans = await spansOf(traceId, expected)
    const calls = spans.filter(span => span.name === 'tools/call traced_work')
    const question = spans.find(span => span.name === 'elicitation/create')
    expect(calls.map(span => span.attributes['nuxt_mcp.outcome'])).toEqual(era === 'legacy' ? ['ok'] : ['input-required', 'ok'])
    expect(question).toMatchObject({ kind: CLIENT, parentSpanId: calls[0]?.spanId, attributes: { 'mcp.method.name': 'elicitation/create' } })
    expect(question?.attributes['mcp.session.id']).toBe(calls[0]?.attributes['mcp.session.id'])
    if (era === 'legacy') expect(JSON.stringify(spans)).not.toContain(lastSessionId)
    expect(spans.find(span => span.name === 'app.work')?.parentSpanId).toBe(calls.at(-1)?.spanId)
    expect(spans).toHaveLength(expected)
  })

  it('marks a tool error and a protocol error on the span, as the conventions say', async () => {
    const toolError = newTrace()
    expect((await callTraced(era, 'ask_bad_schema', {}, toolError.meta)).isError).toBe(true)
    const [failed] = await spansOf(toolError.traceId, 1)
    expect(failed).toMatchObject({ name: 'tools/call ask_bad_schema', status: { code: ERROR }, attributes: { 'error.type': 'tool_error', 'nuxt_mcp.outcome': 'tool-error' } })

    const unknown = newTrace()
    await expect(callTraced(era, 'no_such_tool', {}, unknown.meta)).rejects.toThrow(/Unknown tool/)
    const [refused] = await spansOf(unknown.traceId, 1)
    expect(refused).toMatchObject({ name: 'tools/call no_such_tool', status: { code: ERROR }, attributes: { 'error.type': '-32602', 'rpc.response.status_code': '-32602', 'nuxt_mcp.outcome': 'protocol-error' } })
    expect(refused?.status.message).toMatch(/Unknown tool "no_such_tool"/)
  })
})
