import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { beforeAll, describe, expect, it } from 'vitest'
import type { RuntimeApp } from '../../../scripts/runtimes.mjs'
import { connectLegacy, textOf } from '../../utils/clients'
import type { ScriptedAnswer } from '../../utils/clients'
import { useCluster } from '../../utils/cluster'
import { CLIENT, ERROR, SERVER, SESSION_TAG, newTrace, spansOf as spansAt } from '../../utils/traces'
import type { RecordedSpan } from '../../utils/traces'

/**
 * OpenTelemetry spans when a legacy session moves between instances: two instances behind nginx
 * round-robin, sharing Redis, each tracing with the real SDK into memory of its own
 * (test/fixtures/shared-state/server/plugins/tracing.ts). A call served by the instance that did
 * not open the session is traced there, under the client's traceparent and with the session's tag
 * (a hash of its id keyed with the shared NUXT_MCP_STATE_SECRET: the same on both instances).
 */

const cluster = useCluster('shared-state', 2)
let instances: RuntimeApp[]
let url: URL

beforeAll(() => {
  ;({ instances, url } = cluster())
})

/** The spans of one trace from both instances. */
function spansOf(traceId: string, count: number): Promise<RecordedSpan[]> {
  return spansAt(instances.map(instance => new URL(instance.origin)), traceId, count)
}

describe('a legacy session served by both instances', () => {
  it('traces each call on the instance that served it, under the client\'s traceparent, with the same session tag and never the session id', async () => {
    const client = await connectLegacy(url)
    const transport = client.transport
    if (!(transport instanceof StreamableHTTPClientTransport)) throw new Error('not a Streamable HTTP transport')
    const servedBy = new Set<number>()
    const tags = new Set<unknown>()
    expect(transport.sessionId).toMatch(/\S/)
    try {
      for (let i = 0; i < 4; i++) {
        const { traceId, clientSpanId, meta } = newTrace()
        const pid = Number(textOf(await client.callTool({ name: 'whereami', arguments: {}, _meta: meta })))
        const spans = await spansOf(traceId, 1)
        expect(spans).toHaveLength(1)
        expect(spans[0]).toMatchObject({
          name: 'tools/call whereami',
          kind: SERVER,
          parentSpanId: clientSpanId,
          pid,
          attributes: { 'mcp.session.id': expect.stringMatching(SESSION_TAG), 'gen_ai.tool.name': 'whereami', 'nuxt_mcp.outcome': 'ok' },
        })
        expect(JSON.stringify(spans)).not.toContain(transport.sessionId)
        servedBy.add(pid)
        tags.add(spans[0]?.attributes['mcp.session.id'])
      }
    }
    finally {
      await client.close()
    }
    // Round-robin without affinity: the session's calls went to both instances, and both traced.
    expect(servedBy).toEqual(new Set(instances.map(instance => instance.pid)))
    // One session, one tag, whichever instance served the call: its traces still group.
    expect(tags.size).toBe(1)
  })

  it('ends a question\'s span on the instance that waits, wherever the answer arrives', async () => {
    const accept = (): ScriptedAnswer => ({ action: 'accept', content: { name: 'Ada', plan: 'pro' } })
    const client = await connectLegacy(url, { answer: accept })
    try {
      for (let i = 0; i < 2; i++) {
        const { traceId, clientSpanId, meta } = newTrace()
        expect(JSON.parse(textOf(await client.callTool({ name: 'ask_form', arguments: {}, _meta: meta }))).action).toBe('accept')
        const spans = await spansOf(traceId, 2)
        const call = spans.find(span => span.kind === SERVER)
        const question = spans.find(span => span.kind === CLIENT)
        expect(call).toMatchObject({ name: 'tools/call ask_form', parentSpanId: clientSpanId })
        // The wait is the asking instance's: its span ends there, once the answer was handed over.
        expect(question).toMatchObject({ name: 'elicitation/create', parentSpanId: call?.spanId, pid: call?.pid })
        expect(question?.status.code).not.toBe(ERROR)
      }
    }
    finally {
      await client.close()
    }
  })
})
