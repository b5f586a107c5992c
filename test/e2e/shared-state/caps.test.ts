import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { describe, expect, it } from 'vitest'
import { connectLegacy, textOf } from '../../utils/clients'
import type { ScriptedAnswer } from '../../utils/clients'
import { useCluster } from '../../utils/cluster'
import { until } from '../../utils/until'
import { JSON_HEADERS } from '../../utils/raw'

// The session caps hold across instances: two instances sharing Redis behind nginx, at most two
// sessions per caller and three in all. Anonymous callers are told apart by the address nginx
// passes on in X-Forwarded-For (it is a trusted proxy), so a client names itself with its own.
const cluster = useCluster('shared-state', 2, { NUXT_MCP_SESSIONS_MAX_PER_PRINCIPAL: '2', NUXT_MCP_SESSIONS_MAX: '3' })

function connectFrom(address: string, answer?: () => Promise<ScriptedAnswer>) {
  return connectLegacy(cluster().url, { requestInit: { headers: { 'x-forwarded-for': address } }, ...(answer && { answer }) })
}

async function statusOf(client: Awaited<ReturnType<typeof connectLegacy>>): Promise<string> {
  return client.callTool({ name: 'whereami', arguments: {} }).then(() => 'served', (error: unknown) => String(error))
}

const never = () => new Promise<ScriptedAnswer>(() => {})

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'burst', version: '1' } } })

describe('session caps across instances', () => {
  it('hold exactly when initializes arrive at once on both instances: none past a cap is opened, each refusal names it', async () => {
    const burst = '10.0.0.9'
    // Eight at once through round-robin: four reach each instance.
    const opened = await Promise.all(Array.from({ length: 8 }, async () => {
      const response = await fetch(cluster().url, { method: 'POST', headers: { ...JSON_HEADERS, 'x-forwarded-for': burst }, body: initialize })
      return { status: response.status, id: response.headers.get('mcp-session-id'), body: await response.text() }
    }))
    for (const refused of opened.filter(result => result.status !== 200)) {
      expect(refused.status).toBe(503)
      expect(refused.body).toMatch(/Too many MCP sessions of one caller \(2\)|Too many open MCP sessions \(3\)/)
    }
    const ids = opened.flatMap(result => result.id ? [result.id] : [])
    const alive = await Promise.all(ids.map(async (id) => {
      const response = await fetch(cluster().url, { method: 'POST', headers: { ...JSON_HEADERS, 'x-forwarded-for': burst, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) })
      await response.body?.cancel()
      return response.status === 200
    }))
    expect(alive.filter(Boolean).length).toBeGreaterThan(0)
    expect(alive.filter(Boolean).length).toBeLessThanOrEqual(2)
    // Ended for good, so the next tests start with no session of this caller.
    await Promise.all(ids.map(id => fetch(cluster().url, { method: 'DELETE', headers: { 'x-forwarded-for': burst, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' } }).then(response => response.body?.cancel())))
  })

  it('ends the caller\'s least recently used idle session on every instance, and refuses with 503 when all are busy', async () => {
    const first = await connectFrom('10.0.0.1', never)
    const second = await connectFrom('10.0.0.1', never)
    // Both instances learn both sessions.
    for (const client of [first, second, first, second]) expect(await statusOf(client)).toBe('served')
    await statusOf(second)
    const third = await connectFrom('10.0.0.1', never)
    // The first was the least recently used: gone everywhere (both instances answer 404, the
    // other one once the pub/sub message has reached it, milliseconds later).
    await until(async () => /Session not found/.test(await statusOf(first)), 'the end of the first session', 2000, 50)
    expect(await statusOf(first)).toMatch(/Session not found/)
    expect(await statusOf(first)).toMatch(/Session not found/)
    expect(await statusOf(second)).toBe('served')
    // Now both sessions of this caller wait on a person, on whichever instances: neither may go.
    const waits = [second, third].map(client => client.callTool({ name: 'ask_wait', arguments: { label: `busy-${Math.random()}` } }).catch(() => undefined))
    await new Promise(done => setTimeout(done, 2000))
    const refused = await connectFrom('10.0.0.1').then(() => 'opened', (error: unknown) => String(error))
    expect(refused).toMatch(/Too many MCP sessions of one caller \(2\), each with a request in flight.*NUXT_MCP_SESSIONS_MAX_PER_PRINCIPAL/)
    // Ended for good (DELETE): closing alone would leave them busy for the 5 s a client has to
    // resume a dropped call, and counted by the next test's caps.
    await Promise.all([second, third].map(async (client) => {
      if (!(client.transport instanceof StreamableHTTPClientTransport)) throw new Error('not a Streamable HTTP transport')
      await client.transport.terminateSession()
    }))
    await Promise.all([second.close(), third.close()])
    await Promise.all(waits)
    await first.close()
  }, 60_000)

  it('ends the least recently used idle session of anybody at the global cap', async () => {
    const a1 = await connectFrom('10.0.0.2')
    const a2 = await connectFrom('10.0.0.2')
    const b1 = await connectFrom('10.0.0.3')
    for (const client of [a1, a2, b1]) expect(await statusOf(client)).toBe('served')
    await statusOf(a2)
    await statusOf(b1)
    // Three open: the fourth, of a third caller, ends a1 (the least recently used of all).
    const c1 = await connectFrom('10.0.0.4')
    await until(async () => /Session not found/.test(await statusOf(a1)), 'the end of a1', 2000, 50)
    expect(await statusOf(a1)).toMatch(/Session not found/)
    for (const client of [a2, b1, c1]) expect(await statusOf(client)).toBe('served')
    await Promise.all([a1, a2, b1, c1].map(client => client.close()))
  }, 60_000)
})
