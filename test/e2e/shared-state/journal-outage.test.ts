import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { useCluster } from '../../utils/cluster'
import { until } from '../../utils/until'
import { nextMessage, openRawLegacy, sseEvents, toRpcMessage } from '../../utils/raw-legacy'
import { LEGACY } from '../../utils/raw'

// A legacy call's stream is copied to Redis so that another instance can answer for it if its
// instance dies. A stream opened while Redis was restarting must still be copied once Redis is
// back: the chaos run found a call that hung when its instance died just after such a restart,
// its copy never written, so the instance the client resumed on had no request to answer.
const cluster = useCluster('shared-state', 2, {}, { appendfsync: 'always' })
let connection: Redis | undefined
afterAll(() => connection?.disconnect())


describe('a legacy stream opened while Redis restarts', () => {
  it('is copied once Redis is back, so the instance the client resumes on answers for its dead owner', async () => {
    const [owner, other] = cluster().instances
    if (!owner?.pid || !other) throw new Error('two instances expected')
    const session = await openRawLegacy({ url: owner.url })
    const headers = { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-session-id': session.id, 'mcp-protocol-version': LEGACY }
    // The other instance holds the session too (set up from its record) before Redis goes.
    const listed = await fetch(other.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) })
    expect(listed.status).toBe(200)
    await listed.body?.cancel()

    await cluster().redis.stop()
    // Past the first 2 s of an outage the instance stops queueing commands for Redis and fails
    // them at once (a new session is refused with 503 without waiting): only then does a copy
    // made now fail rather than wait for Redis.
    await until(async () => {
      const started = Date.now()
      const refused = await fetch(owner.url, { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'probe', version: '1' } } }) })
      await refused.body?.cancel()
      return refused.status === 503 && Date.now() - started < 500
    }, 'commands to Redis failing at once', 10_000, 200)
    // The call opens its stream (and asks) while Redis is away: its copy cannot be written now.
    const controller = new AbortController()
    const call = await fetch(owner.url, { method: 'POST', headers, signal: controller.signal, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ask_wait', arguments: { label: 'outage' } } }) })
    const events = sseEvents(call)
    const priming = await nextMessage(events, 'the priming event')
    expect(JSON.parse((await nextMessage(events, 'the question')).data)).toMatchObject({ method: 'elicitation/create' })
    await cluster().redis.start()

    // Once Redis is back the copy is written, its head (the stream's requests) first.
    connection = new Redis(cluster().redis.url)
    const key = `nuxt-mcp:/mcp:events:${session.id}:${priming.id!.replace(/_0$/, '')}`
    await until(async () => await connection!.llen(key) >= 2, 'the stream copied to Redis', 10_000, 100)
    expect(JSON.parse((await connection.lrange(key, 0, 0))[0]!)).toEqual({ requests: [3] })

    // The owner dies with the call open; the client resumes on the other instance, which answers
    // the call with the error that says so once the owner's heartbeat has lapsed.
    process.kill(-owner.pid, 'SIGKILL')
    controller.abort()
    const resumed = sseEvents(await fetch(other.url, { headers: { ...headers, 'accept': 'text/event-stream', 'last-event-id': priming.id! } }))
    let answer: ReturnType<typeof toRpcMessage> | undefined
    while (!answer) {
      const event = await nextMessage(resumed, 'the call\'s answer')
      const message = event.data ? toRpcMessage(JSON.parse(event.data)) : undefined
      if (message?.id === 3) answer = message
    }
    expect(answer.error?.message).toMatch(/stopped before it answered/)
  }, 60_000)
})
