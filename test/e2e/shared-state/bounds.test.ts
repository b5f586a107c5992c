import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedis } from '../../../scripts/cluster.mjs'
import type { RedisServer } from '../../../scripts/cluster.mjs'
import { connectRedisState } from '../../../src/runtime/server/cluster/redis'
import type { McpSharedState } from '../../../src/runtime/server/cluster/shared-state'
import { createSharedSessionValues } from '../../../src/runtime/server/transport/shared/session-values'
import { SharedSessionDirectory, valuesKey } from '../../../src/runtime/server/transport/shared/sessions'
import { MAX_COPY_BYTES, SharedStreamLog } from '../../../src/runtime/server/transport/shared/streams'
import { JOURNAL_TTL_MS, MAX_EVENTS, StreamJournal } from '../../../src/runtime/server/transport/streams/journal'
import { MAX_JOURNALS_PER_SESSION } from '../../../src/runtime/server/transport/streams/journal-shelf'
import { PostStreams } from '../../../src/runtime/server/transport/streams/post-streams'
import { WebResponseSink } from '../../../src/runtime/server/transport/http/response-sink'

// What one session keeps in Redis is bounded by what it may hold, whatever a client sends or a
// handler does late: its useMcpSession() values live as long as its record (a handler that
// outlives its session, awaiting I/O then DELETE on any instance, must not write them back, where
// they would stay until their TTL), and a stream's kept events are as many as a journal keeps in
// memory (a session's GET stream would otherwise grow for the session's life), in at most
// MAX_COPY_BYTES besides the newest, and a stream forgotten here takes its copy with it.
let redis: RedisServer
let state: McpSharedState
let raw: Redis | undefined

beforeAll(async () => {
  redis = await startRedis()
  state = await connectRedisState({ url: redis.url, prefix: 'values-test:', route: '/mcp' })
})

afterAll(async () => {
  raw?.disconnect()
  await state?.close()
  await redis?.stop()
})

describe('shared session values', () => {
  it('keeps nothing set after the session\'s record was removed: 100 sessions removed, then 60 KB set in each', async () => {
    const directory = new SharedSessionDirectory(state, 60_000)
    const values = createSharedSessionValues(directory)
    const big = JSON.stringify('x'.repeat(60 * 1024))
    const ids = Array.from({ length: 100 }, () => crypto.randomUUID())
    for (const id of ids) {
      await directory.save(id, { owner: 'owner', initialize: { jsonrpc: '2.0', id: 0, method: 'initialize' }, created: Date.now() })
      expect(await values.set(id, 'small', '1', 100)).toBe('set')
      await directory.remove(id, 'owner')
    }
    const late = await Promise.all(ids.map(id => values.set(id, 'late', big, 100)))
    expect(late.every(outcome => outcome === 'closed')).toBe(true)
    for (const id of ids) expect(await state.hashAll(valuesKey(id))).toEqual({})
  })
})

describe('a stream\'s kept events in Redis', () => {
  it('are as many as a journal keeps (500), after the head a resume on another instance needs: 2,000 GET-stream messages', async () => {
    const log = new SharedStreamLog(state)
    const sessionId = crypto.randomUUID()
    const journal = new StreamJournal(`${state.instanceId}.g1`, [], log.sink(sessionId))
    for (let n = 1; n <= 2000; n++) journal.record({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } })
    // The sink does not wait for Redis: its copies are written in order, behind the journal.
    await log.written(sessionId, journal.streamId)
    const kept = await log.read(sessionId, journal.streamId)
    expect(kept?.requests).toEqual([])
    expect(kept?.events.length).toBe(MAX_EVENTS)
    expect(kept?.events[0]?.seq).toBe(2000 - MAX_EVENTS + 1)
    expect(kept?.events.at(-1)?.seq).toBe(2000)
  })
})

describe('a stream\'s copy in Redis, in bytes', () => {
  /** The bytes of a copy's events (its items after the head), as Redis holds them. */
  async function copiedBytes(key: string): Promise<number> {
    raw ??= new Redis(redis.url)
    const items = await raw.lrange(key, 1, -1)
    return items.reduce((sum, item) => sum + Buffer.byteLength(item), 0)
  }

  it('keeps at most MAX_COPY_BYTES of events, the newest, and expires with its byte count: 200 messages of 20 KB (4 MB)', async () => {
    const log = new SharedStreamLog(state)
    const sessionId = crypto.randomUUID()
    const journal = new StreamJournal(`${state.instanceId}.g1`, [], log.sink(sessionId))
    const bulk = 'b'.repeat(20_000)
    for (let n = 1; n <= 200; n++) journal.record({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `${n} ${bulk}` } })
    await log.written(sessionId, journal.streamId)
    const key = `values-test:/mcp:events:${sessionId}:${journal.streamId}`
    const bytes = await copiedBytes(key)
    expect(bytes).toBeLessThanOrEqual(MAX_COPY_BYTES)
    expect(bytes).toBeGreaterThan(MAX_COPY_BYTES - 25_000)
    const kept = await log.read(sessionId, journal.streamId)
    expect(kept?.requests).toEqual([])
    expect(kept?.events.at(-1)?.seq).toBe(200)
    expect(kept?.events.length).toBeLessThan(60)
    // The count beside the list says what the list holds, and both go when the stream is idle.
    expect(Number(await raw!.get(`${key}:bytes`))).toBe(bytes)
    for (const counted of [key, `${key}:bytes`]) {
      const ttl = await raw!.pttl(counted)
      expect(ttl).toBeGreaterThan(0)
      expect(ttl).toBeLessThanOrEqual(JOURNAL_TTL_MS)
    }
  })

  it('keeps the newest event whatever its size: one answer of 3 MB after 10 small events', async () => {
    const log = new SharedStreamLog(state)
    const sessionId = crypto.randomUUID()
    const journal = new StreamJournal(`${state.instanceId}.s1`, [7], log.sink(sessionId))
    for (let n = 1; n <= 10; n++) journal.record({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: n } })
    journal.record({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'a'.repeat(3_000_000) }] } })
    await log.written(sessionId, journal.streamId)
    const kept = await log.read(sessionId, journal.streamId)
    expect(kept?.requests).toEqual([7])
    expect(kept?.events.map(event => event.seq)).toEqual([11])
  })

  it('goes when its stream is forgotten here: of 40 answered streams of one session, the oldest 8 (made room for) and then all (the session ended everywhere: DELETE, made room for, or ended on another instance)', async () => {
    const log = new SharedStreamLog(state)
    const sessionId = crypto.randomUUID()
    const streams = new PostStreams(state.instanceId, log.sink(sessionId))
    streams.resumable = true
    for (let id = 1; id <= 40; id++) {
      streams.open(new WebResponseSink(), [id], { 'mcp-session-id': sessionId })
      streams.send({ jsonrpc: '2.0', id: `q${id}`, method: 'elicitation/create', params: { message: `question ${id}`, requestedSchema: { type: 'object', properties: {} } } }, id)
      streams.send({ jsonrpc: '2.0', id, result: { content: [] } }, id)
    }
    const ids = Array.from({ length: 40 }, (_, index) => `${state.instanceId}.s${index + 1}`)
    await Promise.all(ids.map(streamId => log.written(sessionId, streamId)))
    const copied = await Promise.all(ids.map(async streamId => (await log.read(sessionId, streamId)) !== undefined))
    // The oldest 8, forgotten to keep 32, are gone; the newest (forgotten only 5 s after its
    // answer) is still there.
    expect(copied.slice(0, 40 - MAX_JOURNALS_PER_SESSION)).toEqual(Array.from({ length: 8 }, () => false))
    expect(copied.at(-1)).toBe(true)
    streams.closeAll(true)
    await Promise.all(ids.map(streamId => log.written(sessionId, streamId)))
    expect(await Promise.all(ids.map(async streamId => (await log.read(sessionId, streamId)) !== undefined))).toEqual(ids.map(() => false))
  })
})
