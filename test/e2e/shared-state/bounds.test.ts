import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedis } from '../../../scripts/cluster.mjs'
import type { RedisServer } from '../../../scripts/cluster.mjs'
import { connectRedisState } from '../../../src/runtime/server/common/shared/redis'
import type { McpSharedState } from '../../../src/runtime/server/common/shared/shared-state'
import { createSharedSessionValues } from '../../../src/runtime/server/transport/shared/session-values'
import { SharedSessionDirectory, valuesKey } from '../../../src/runtime/server/transport/shared/sessions'
import { SharedStreamLog } from '../../../src/runtime/server/transport/shared/streams'
import { MAX_EVENTS, StreamJournal } from '../../../src/runtime/server/transport/streams/journal'

// What one session keeps in Redis is bounded by what it may hold, whatever a client sends or a
// handler does late: its useMcpSession() values live as long as its record (a handler that
// outlives its session, awaiting I/O then DELETE on any instance, must not write them back, where
// they would stay until their TTL), and a stream's kept events are as many as a journal keeps in
// memory (a session's GET stream would otherwise grow for the session's life).
let redis: RedisServer
let state: McpSharedState

beforeAll(async () => {
  redis = await startRedis()
  state = await connectRedisState({ url: redis.url, prefix: 'values-test:', route: '/mcp' })
})

afterAll(async () => {
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
