import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { redisCommand, startRedis } from '../../../scripts/cluster.mjs'
import type { RedisServer } from '../../../scripts/cluster.mjs'
import { connectRedisState } from '../../../src/runtime/server/cluster/redis'
import type { McpSharedState } from '../../../src/runtime/server/cluster/shared-state'
import { createSharedElicitationRegistry } from '../../../src/runtime/host/shared-registry'
import type { McpElicitationAnswer } from '../../../src/runtime/chat/elicitation/types'
import { startCutProxy } from '../../utils/cut-proxy'
import type { CutProxy } from '../../utils/cut-proxy'
import { until } from '../../utils/until'

// The host's shared registry of waiting elicitations (NUXT_MCP_REDIS_URL): the page's answer may
// reach an instance other than the one whose chat waits. While the waiting instance's connection
// to Redis is down (its subscriber reconnecting), an answer given elsewhere must wait for it, not
// be published to nobody while the page is told it went through.
let redis: RedisServer
let proxy: CutProxy
const states: McpSharedState[] = []

beforeAll(async () => {
  redis = await startRedis()
  proxy = await startCutProxy(new URL(redis.url))
})

afterAll(async () => {
  await Promise.allSettled(states.map(state => state.close()))
  await proxy?.close()
  await redis?.stop()
})

function connect(url: string): Promise<McpSharedState> {
  const state = connectRedisState({ url, prefix: 'host-outage-test:', route: '/api/_mcp/elicitations' })
  void state.then(opened => states.push(opened))
  return state
}

/** How many connections Redis holds in subscriber mode: the waiting instance's is one of them. */
async function subscribers(): Promise<number> {
  const list = await redisCommand(redis.port, 'CLIENT LIST TYPE pubsub')
  return list.split('\n').filter(line => line.includes('id=')).length
}

describe('the host registry shared through Redis, while the waiting instance reconnects', () => {
  it('an answer given through another instance reaches the waiting chat once its connection is back', async () => {
    // The waiting instance reaches Redis through a path the test can cut; the answering one directly.
    const waiting = createSharedElicitationRegistry(connect(proxy.url.href))
    const answering = createSharedElicitationRegistry(connect(redis.url))
    // Both listening first (connecting may take longer than the registry's 2 s wait under load).
    await until(async () => await subscribers() === 2, 'two subscribers (the waiting and the answering instance)', 15_000)
    const now = Date.now()
    const id = crypto.randomUUID()
    await waiting.add({ id, owner: 'browser-1', createdAt: now, expiresAt: now + 60_000, request: { mode: 'form', message: 'Really delete?', requestedSchema: { type: 'object', properties: {} } } })
    const heard = waiting.wait(id)

    // The waiting instance's connections go down and stay down a while: its subscriber is gone.
    proxy.block()
    await until(async () => await subscribers() === 1, 'the waiting instance\'s subscriber gone')
    const settled = await answering.settle(id, { action: 'accept', content: { confirm: true } })
    expect(settled).toBe(true)

    proxy.restore()
    const answer = await Promise.race([
      heard,
      new Promise<McpElicitationAnswer>((_, reject) => setTimeout(() => reject(new Error('the answer never reached the waiting instance (the page was told it went through); 10 s after its connection came back')), 10_000)),
    ])
    expect(answer).toEqual({ action: 'accept', content: { confirm: true } })
  }, 30_000)
})
