import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { useCluster } from '../../utils/cluster'
import { JSON_HEADERS, LEGACY } from '../../utils/raw'

// What Redis keeps of a legacy session is what another instance needs to serve it, and no more:
// a client's oversized initialize or a logging level the spec does not know would otherwise be
// stored for the session's life (and a level broadcast to every instance) before anything
// checked it.
const cluster = useCluster('shared-state', 2)
let redis: Redis | undefined

afterAll(() => redis?.disconnect())

function keys(): Redis {
  redis ??= new Redis(cluster().redis.url)
  return redis
}

async function post(url: URL, headers: Record<string, string>, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) })
}

/** The JSON-RPC message of a response: JSON, or the first SSE event with data (after any priming event). */
async function messageOf(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text()
  const data = text.startsWith('{') ? text : text.split('\n').find(line => line.startsWith('data: {'))!.slice(6)
  return JSON.parse(data) as Record<string, unknown>
}

describe('a shared session\'s record', () => {
  it('keeps of initialize only the revision, capabilities and client name, and the session is served on the other instance from it', async () => {
    const [first, second] = cluster().instances.map(instance => instance.url)
    const bulk = 'x'.repeat(50_000)
    const init = await post(first!, {}, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: { elicitation: { form: {} } }, clientInfo: { name: 'bulky', version: '1' }, _meta: { bulk }, extra: bulk } })
    expect(init.status).toBe(200)
    await init.text()
    const session = init.headers.get('mcp-session-id')!
    const record = await keys().get(`nuxt-mcp:/mcp:session:${session}`)
    expect(record!.length).toBeLessThan(1000)
    expect(JSON.parse(record!).initialize).toEqual({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: { elicitation: { form: {} } }, clientInfo: { name: 'bulky', version: '1' } } })
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY }
    await (await post(first!, headers, { jsonrpc: '2.0', method: 'notifications/initialized' })).text()
    const listed = await messageOf(await post(second!, headers, { jsonrpc: '2.0', id: 1, method: 'tools/list' }))
    expect(listed).toMatchObject({ id: 1, result: { tools: expect.arrayContaining([expect.objectContaining({ name: 'echo' })]) } })
    await fetch(first!, { method: 'DELETE', headers })
  })

  it('keeps a logging level only once it is one the spec knows', async () => {
    const [first] = cluster().instances.map(instance => instance.url)
    const init = await post(first!, {}, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'levels', version: '1' } } })
    await init.text()
    const session = init.headers.get('mcp-session-id')!
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY }
    await (await post(first!, headers, { jsonrpc: '2.0', method: 'notifications/initialized' })).text()
    const bogus = await messageOf(await post(first!, headers, { jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'y'.repeat(5000) } }))
    // (The SDK's own refusal; what matters here is that nothing kept or sent it on.)
    expect(bogus).toMatchObject({ id: 1, error: { message: expect.any(String) } })
    expect(await keys().get(`nuxt-mcp:/mcp:level:${session}`)).toBeNull()
    const debug = await messageOf(await post(first!, headers, { jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'debug' } }))
    expect(debug).toMatchObject({ id: 2, result: {} })
    expect(await keys().get(`nuxt-mcp:/mcp:level:${session}`)).toBe('debug')
    await fetch(first!, { method: 'DELETE', headers })
  })
})
