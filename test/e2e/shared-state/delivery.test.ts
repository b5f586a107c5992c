import { describe, expect, it } from 'vitest'
import { redisCommand } from '../../../scripts/cluster.mjs'
import { useCluster } from '../../utils/cluster'
import { nextMessage, openRawLegacy, sseMessages } from '../../utils/raw-legacy'

// What a waiting call depends on is delivered, not dropped, when the connections to Redis reset
// under it: an answer given on the other instance reaches the question once the connections are
// back (Redis says how many listeners a message reached; none means "try again").
const cluster = useCluster('shared-state', 2)

describe('messages between instances that a waiting call depends on', () => {
  it('an answer given on the other instance while every Redis connection resets reaches the question', async () => {
    const [asker, answerer] = cluster().instances
    const session = await openRawLegacy({ url: asker!.url })
    const onAnswerer = { url: answerer!.url }
    // The answering instance holds the session too (set up from its record), before the reset.
    const listed = await fetch(onAnswerer.url, { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-session-id': session.id, 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) })
    expect(listed.status).toBe(200)
    await listed.body?.cancel()

    const call = await session.post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ask_wait', arguments: { label: 'reset' } } })
    const messages = sseMessages(call)
    const question = await nextMessage(messages, 'the question')
    expect(question.method).toBe('elicitation/create')

    // Every connection the instances hold to Redis is closed at once; they come back by themselves.
    expect(await redisCommand(cluster().redis.port, 'CLIENT KILL TYPE pubsub')).toMatch(/^:[1-9]/)
    expect(await redisCommand(cluster().redis.port, 'CLIENT KILL TYPE normal')).toMatch(/^:[1-9]/)
    const answered = await fetch(onAnswerer.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-session-id': session.id, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { x: 'after the reset' } } }),
    })
    expect(answered.status).toBe(202)
    await answered.body?.cancel()

    const result = await Promise.race([
      nextMessage(messages, 'the result'),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the answer never reached the question (8 s)')), 8000)),
    ])
    expect(JSON.stringify(result)).toContain('accept')
    await session.close()
  }, 30_000)
})
