import { describe, expect, it } from 'vitest'
import { createSharedElicitationRegistry } from '../../../src/runtime/host/shared-registry'
import type { McpElicitationAnswer } from '../../../src/runtime/chat/elicitation/types'
import { useCuttableRedis } from '../../utils/cluster'
import { until } from '../../utils/until'

// The host's shared registry of waiting elicitations (NUXT_MCP_REDIS_URL): the page's answer may
// reach an instance other than the one whose chat waits. While the waiting instance's connection
// to Redis is down (its subscriber reconnecting), an answer given elsewhere must wait for it, not
// be published to nobody while the page is told it went through.
const cuttable = useCuttableRedis({ prefix: 'host-outage-test:', route: '/api/_mcp/elicitations' })

describe('the host registry shared through Redis, while the waiting instance reconnects', () => {
  it('an answer given through another instance reaches the waiting chat once its connection is back', async () => {
    // The waiting instance reaches Redis through a path the test can cut; the answering one directly.
    const waiting = createSharedElicitationRegistry(cuttable().connect('cut'))
    const answering = createSharedElicitationRegistry(cuttable().connect())
    // Both listening first (connecting may take longer than the registry's 2 s wait under load).
    await until(async () => await cuttable().subscribers() === 2, 'two subscribers (the waiting and the answering instance)', 15_000)
    const now = Date.now()
    const id = crypto.randomUUID()
    await waiting.add({ id, owner: 'browser-1', createdAt: now, expiresAt: now + 60_000, request: { mode: 'form', message: 'Really delete?', requestedSchema: { type: 'object', properties: {} } } })
    const heard = waiting.wait(id)

    // The waiting instance's connections go down and stay down a while: its subscriber is gone.
    cuttable().proxy.block()
    await until(async () => await cuttable().subscribers() === 1, 'the waiting instance\'s subscriber gone')
    const settled = await answering.settle(id, { action: 'accept', content: { confirm: true } })
    expect(settled).toBe(true)

    cuttable().proxy.restore()
    const answer = await Promise.race([
      heard,
      new Promise<McpElicitationAnswer>((_, reject) => setTimeout(() => reject(new Error('the answer never reached the waiting instance (the page was told it went through); 10 s after its connection came back')), 10_000)),
    ])
    expect(answer).toEqual({ action: 'accept', content: { confirm: true } })
  }, 30_000)
})
