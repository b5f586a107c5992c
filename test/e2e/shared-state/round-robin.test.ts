import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitationCompleteNotificationSchema, LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { beforeAll, describe, expect, it } from 'vitest'
import type { RuntimeApp } from '../../utils/fixture'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import type { ScriptedAnswer } from '../../utils/clients'
import { useCluster } from '../../utils/cluster'
import { startFixtureOn } from '../../utils/fixture'
import type { LoadBalancer, RedisServer } from '../../../scripts/cluster.mjs'
import { postModern } from '../../utils/raw'

// Two built instances of one app sharing NUXT_MCP_REDIS_URL and the state secret, behind nginx
// round-robin with no affinity: consecutive requests of one client alternate between them.
const cluster = useCluster('shared-state', 2)
let instances: RuntimeApp[]
let redis: RedisServer
let lb: LoadBalancer
let url: URL

beforeAll(() => {
  ;({ instances, redis, lb, url } = cluster())
})

/** One round of stamp_then_ask on one instance: the state and the key of its question. */
async function roundOf(instance: RuntimeApp, params: Record<string, unknown>): Promise<{ requestState: string, key: string }> {
  const { message } = await postModern(instance.url, 'tools/call', { name: 'stamp_then_ask', arguments: {}, ...params })
  const result = message.result as { resultType?: string, requestState?: string, inputRequests?: Record<string, unknown> } | undefined
  if (result?.resultType !== 'input_required' || !result.requestState) throw new Error(`not input_required: ${JSON.stringify(message)}`)
  return { requestState: result.requestState, key: Object.keys(result.inputRequests ?? {})[0]! }
}

const accept = (): ScriptedAnswer => ({ action: 'accept', content: { name: 'Ada', plan: 'pro' } })

describe('several instances behind a round-robin load balancer, sharing state through Redis', () => {
  it('serves one legacy session (v1 Client) from both instances', async () => {
    const client = await connectLegacy(url)
    const pids = new Set<string>()
    for (let i = 0; i < 4; i++) pids.add(textOf(await client.callTool({ name: 'whereami', arguments: {} })))
    expect(pids).toEqual(new Set(instances.map(instance => String(instance.pid))))
    await client.close()
  })

  it('delivers a legacy answer that reaches the other instance to the one waiting for it', async () => {
    const client = await connectLegacy(url, { answer: accept })
    for (let i = 0; i < 4; i++) {
      expect(JSON.parse(textOf(await client.callTool({ name: 'ask_form', arguments: {} })))).toEqual({ action: 'accept', content: { name: 'Ada', plan: 'pro', subscribe: true } })
    }
    // The answers were POSTs of their own, each proxied to the instance after the one that asked.
    const posts = lb.upstreamLog().filter(line => line.includes(' POST '))
    expect(new Set(posts.map(line => line.split(' ')[0])).size).toBe(2)
    await client.close()
  })

  it('runs the v2 Client through the same load balancer, auto (legacy session) and pinned to 2026-07-28', async () => {
    for (const negotiation of ['auto', 'pinned'] as const) {
      const client = await connectModern(url, { answer: accept }, negotiation)
      for (let i = 0; i < 2; i++) expect(JSON.parse(textOf(await client.callTool({ name: 'ask_form', arguments: {} }))).content.name).toBe('Ada')
      await client.close()
    }
  })

  it('completes a URL elicitation from the instance that did not ask it', async () => {
    const received: Record<string, unknown>[] = []
    const client = await connectLegacy(url, { answer: () => ({ action: 'accept' }), received })
    const completed = new Promise<string>(resolve => client.setNotificationHandler(ElicitationCompleteNotificationSchema, n => resolve(n.params.elicitationId)))
    const { askedBy } = JSON.parse(textOf(await client.callTool({ name: 'ask_url_here', arguments: {} })))
    const elicitationId = String(received[0]?.elicitationId)
    const other = instances.find(instance => instance.pid !== askedBy)!
    const response = await fetch(new URL(`/complete?id=${encodeURIComponent(elicitationId)}`, other.origin))
    expect(await response.json()).toEqual({ done: true })
    expect(await completed).toBe(elicitationId)
    await client.close()
  })

  it('tells a subscribed session once of a resource change raised on either instance', async () => {
    const client = await connectLegacy(url)
    const updates: string[] = []
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => { updates.push(notification.params.uri) })
    await client.subscribeResource({ uri: 'app://status' })
    // Let every instance see the session (and the client's GET stream open on one of them).
    for (let i = 0; i < 2; i++) await client.callTool({ name: 'whereami', arguments: {} })
    for (const instance of instances) {
      expect(await (await fetch(new URL('/touch', instance.origin))).json()).toEqual({ notified: 1 })
    }
    const deadline = Date.now() + 3000
    while (updates.length < 2 && Date.now() < deadline) await new Promise(done => setTimeout(done, 50))
    await new Promise(done => setTimeout(done, 300))
    expect(updates).toEqual(['app://status', 'app://status'])
    await client.unsubscribeResource({ uri: 'app://status' })
    expect(await (await fetch(new URL('/touch', instances[0]!.origin))).json()).toEqual({ notified: 0 })
    await client.close()
  })

  it('holds a session\'s logging level on every instance, one that sets the session up later included', async () => {
    const client = await connectLegacy(url)
    const logs: string[] = []
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => { logs.push(`${notification.params.level}: ${String(notification.params.data)}`) })
    await client.setLoggingLevel('error')
    for (let i = 0; i < 4; i++) await client.callTool({ name: 'log_both', arguments: {} })
    expect(logs).toEqual(Array.from({ length: 4 }, () => 'error: an error'))
    // An instance that has never seen the session sets it up with the level it has now.
    const transport = client.transport
    if (!(transport instanceof StreamableHTTPClientTransport)) throw new Error('not a Streamable HTTP transport')
    const late = await startFixtureOn('node', 'shared-state', { env: { NUXT_MCP_REDIS_URL: redis.url, NUXT_MCP_STATE_SECRET: 'shared-state-test-secret-0123456789abcdefghij' } })
    try {
      const response = await fetch(late.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': transport.sessionId! },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'log_both', arguments: {} } }),
      })
      expect(response.status).toBe(200)
      // (`data: ` alone is the priming event, which a stream with more than its answer starts with.)
      const events = (await response.text()).split('\n').filter(line => line.startsWith('data: ') && line.length > 6).map(line => JSON.parse(line.slice(6)) as { method?: string, params?: { level?: string } })
      expect(events.filter(event => event.method === 'notifications/message').map(event => event.params?.level)).toEqual(['error'])
    }
    finally {
      await late.stop()
      await client.close()
    }
  }, 60_000)

  it('replays a 2026-07-28 once() step on another instance from its record (the replay guard in Redis)', async () => {
    const [first, second] = instances
    const round1 = await roundOf(first!, {})
    const round2 = { requestState: round1.requestState, inputResponses: { [round1.key]: { action: 'accept', content: { start: 'go' } } } }
    // The second round runs the step on the first instance...
    await roundOf(first!, round2)
    // ...and the same round replayed to the second instance gets its recorded outcome.
    const replayed = await roundOf(second!, round2)
    const done = await postModern(second!.url, 'tools/call', { name: 'stamp_then_ask', arguments: {}, requestState: replayed.requestState, inputResponses: { [replayed.key]: { action: 'accept', content: { note: 'on' } } } })
    expect(JSON.parse(textOf(done.message.result))).toEqual({ stampedBy: first!.pid, answeredOn: second!.pid })
  })

  it('ends a session on every instance when the client deletes it', async () => {
    const client = await connectLegacy(url)
    const transport = client.transport
    if (!(transport instanceof StreamableHTTPClientTransport)) throw new Error('not a Streamable HTTP transport')
    const sessionId = transport.sessionId!
    await client.callTool({ name: 'whereami', arguments: {} })
    await client.callTool({ name: 'whereami', arguments: {} })
    await transport.terminateSession()
    // The instance that got the DELETE answers once the record is gone; the others drop their
    // copies when Redis relays the news, within milliseconds.
    await new Promise(done => setTimeout(done, 200))
    for (const instance of instances) {
      const response = await fetch(instance.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': sessionId },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }),
      })
      expect(response.status).toBe(404)
    }
  })

  it('says what is wrong while Redis is down, keeps serving what needs no shared state, and recovers', async () => {
    const [first] = instances
    const round1 = await roundOf(first!, {})
    await redis.stop()
    try {
      const refused = await fetch(first!.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
        signal: AbortSignal.timeout(10_000),
      })
      expect(refused.status).toBe(503)
      // Which variable to look at, and nothing of Redis' address or the driver's error (those go
      // to the instance's log).
      const body = await refused.text()
      expect(body).toMatch(/the shared state \(NUXT_MCP_REDIS_URL\) could not be reached; retry later/)
      expect(body).not.toMatch(/127\.0\.0\.1|redis:|ECONNREFUSED|Connection is closed|\d{4,5}\)/)
      const echo = await postModern(first!.url, 'tools/call', { name: 'echo', arguments: { text: 'still here' } })
      expect(textOf(echo.message.result)).toBe('echo: still here')
      // A round that reaches a once() step needs the replay guard: it fails closed.
      const guarded = await postModern(first!.url, 'tools/call', { name: 'stamp_then_ask', arguments: {}, requestState: round1.requestState, inputResponses: { [round1.key]: { action: 'accept', content: { start: 'go' } } } })
      expect(guarded.message.result).toMatchObject({ isError: true })
      expect(textOf(guarded.message.result)).toBe('once("stamp") did not run: the shared state (NUXT_MCP_REDIS_URL) could not be reached; retry later')
      expect(first!.output()).toMatch(/The shared state could not be reached: Redis at redis:\/\/127\.0\.0\.1:\d+\/?: /)
    }
    finally {
      await redis.start()
    }
    // ioredis reconnects by itself (retry delays up to 2 s).
    const deadline = Date.now() + 15_000
    for (;;) {
      try {
        const client = await connectLegacy(url)
        expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'back' } }))).toBe('echo: back')
        await client.close()
        break
      }
      catch (error) {
        if (Date.now() > deadline) throw error
        await new Promise(done => setTimeout(done, 500))
      }
    }
  }, 60_000)

  it('an instance that starts while Redis is away serves sessions once Redis is back, messages between instances included', async () => {
    const [first] = instances
    await redis.stop()
    const late = await startFixtureOn('node', 'shared-state', { env: { NUXT_MCP_REDIS_URL: redis.url, NUXT_MCP_STATE_SECRET: 'shared-state-test-secret-0123456789abcdefghij', NUXT_MCP_TRUSTED_PROXIES: '127.0.0.1' } })
    try {
      // Its endpoint is made while Redis is away: 503s, not a hang.
      const refused = await fetch(late.url, { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }) })
      expect(refused.status).toBe(503)
      await redis.start()
      // A session opened on another instance, set up here too, then ended there: this instance
      // hears of it (its subscription to the other instances' messages came back with Redis).
      const deadline = Date.now() + 15_000
      let client: Awaited<ReturnType<typeof connectLegacy>> | undefined
      while (!client) {
        client = await connectLegacy(first!.url).catch(async (error: unknown) => {
          if (Date.now() > deadline) throw error
          await new Promise(done => setTimeout(done, 500))
          return undefined
        })
      }
      const transport = client.transport
      if (!(transport instanceof StreamableHTTPClientTransport)) throw new Error('not a Streamable HTTP transport')
      const sessionId = transport.sessionId!
      const listOn = (target: URL) => fetch(target, { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': sessionId }, body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list', params: {} }) })
      // Each instance reconnects on its own schedule (ioredis backs off up to 2 s between tries).
      let status = 0
      while (status !== 200 && Date.now() < deadline) {
        status = (await listOn(late.url)).status
        if (status !== 200) await new Promise(done => setTimeout(done, 250))
      }
      expect(status).toBe(200)
      await transport.terminateSession()
      await new Promise(done => setTimeout(done, 200))
      expect((await listOn(late.url)).status).toBe(404)
      await client.close()
    }
    finally {
      await late.stop()
    }
  }, 60_000)

  // Last: it kills an instance.
  it('goes on at the surviving instance when one is killed (SIGKILL) with a question waiting', async () => {
    let asked: (pid: number) => void = () => {}
    const askedBy = new Promise<number>((resolve) => { asked = resolve })
    const waiting = await connectLegacy(url, {
      answer: (params) => {
        asked(Number(/Asked by (\d+)/.exec(String(params.message))?.[1]))
        return new Promise<ScriptedAnswer>(() => {})
      },
    })
    const other = await connectModern(url, {}, 'auto')
    const started = Date.now()
    const call = waiting.callTool({ name: 'ask_wait', arguments: { label: 'dies' } }).then(() => 'answered', (error: unknown) => String(error))
    const pid = await askedBy
    process.kill(-pid, 'SIGKILL')
    const survivor = instances.find(instance => instance.pid !== pid)!
    // Both sessions go on, served by the instance left. nginx sends one POST on a kept-alive
    // connection to the dead instance and answers it 502 (it does not resend a POST); then it
    // marks that instance down. A host retries such a call, as here.
    const served = async (client: { callTool: (params: { name: string, arguments: Record<string, unknown> }) => Promise<unknown> }) => {
      const failures: string[] = []
      for (;;) {
        try {
          return { pid: textOf(await client.callTool({ name: 'whereami', arguments: {} })), failures }
        }
        catch (error) {
          failures.push(String(error))
          if (failures.length > 2) throw error
        }
      }
    }
    const afterKill = [await served(other), await served(waiting)]
    console.info(`[shared-state] after the kill: ${JSON.stringify(afterKill)}`)
    for (const { pid: servedBy, failures } of afterKill) {
      expect(servedBy).toBe(String(survivor.pid))
      for (const failure of failures) expect(failure).toMatch(/502 Bad Gateway/)
    }
    // The call that was waiting on the killed instance ends: the v1 Client resumes its stream
    // (GET + Last-Event-ID) on the survivor, which answers the call with an error once the dead
    // instance's heartbeat has lapsed (6 s). How long it took is what
    // docs/deploy/several-instances.md reports.
    const outcome = await call
    const took = Date.now() - started
    console.info(`[shared-state] the v1 Client's call on the killed instance ended after ${took} ms: ${outcome}`)
    expect(outcome).toMatch(/The server instance that ran this request \([a-z0-9]+\) stopped before it answered/)
    expect(took).toBeLessThan(20_000)
    await Promise.all([waiting.close(), other.close()])
  }, 90_000)
})
