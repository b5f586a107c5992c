import { Redis } from 'ioredis'
import type { RedisOptions } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedis } from '../../../scripts/cluster.mjs'
import type { RedisServer } from '../../../scripts/cluster.mjs'
import { connectRedisState, subscriberOptions } from '../../../src/runtime/server/cluster/redis'
import type { McpSharedState } from '../../../src/runtime/server/cluster/shared-state'
import { until } from '../../utils/until'

// What reaches an instance from the others travels over Redis pub/sub, so a subscription that
// silently does not hold loses every message meant for that instance. ioredis writes a SUBSCRIBE
// made during its connection's handshake straight to the socket; with the ready check on, the
// check's INFO is then refused in subscriber mode, the connection resets and the channel stays
// unsubscribed. That is what an endpoint made at startup, or anything subscribing right after
// Redis restarts, ran into.
let redis: RedisServer
const opened: { disconnect: () => void }[] = []

beforeAll(async () => {
  redis = await startRedis()
})

afterAll(async () => {
  for (const client of opened) client.disconnect()
  await redis?.stop()
})

function open(options: RedisOptions = {}): Redis {
  const client = new Redis(redis.url, { retryStrategy: times => Math.min(times * 100, 1000), ...options })
  opened.push(client)
  return client
}

describe('the subscriber connection', () => {
  it('holds a subscription made during its handshake, and hears the first message', async () => {
    const subscriber = open(subscriberOptions({}))
    const errors: string[] = []
    const heard: string[] = []
    subscriber.on('error', (error: Error) => errors.push(error.message))
    subscriber.on('message', (_channel: string, message: string) => heard.push(message))
    // The 'connect' event comes while the handshake (CLIENT SETINFO, the ready check) is still in
    // flight: the ordering that lost the subscription, made explicit.
    const subscribed = new Promise<unknown>((resolve, reject) => subscriber.once('connect', () => subscriber.subscribe('handshake').then(resolve, reject)))
    await subscribed
    await until(() => subscriber.status === 'ready', 'ready subscriber')
    await open().publish('handshake', 'first')
    await until(() => heard.length > 0, 'first message heard')
    expect(heard).toEqual(['first'])
    expect(errors).toEqual([])
  })

  it('connectRedisState: a channel subscribed as soon as the state is made hears each message, also after Redis restarts', async () => {
    const state: McpSharedState = await connectRedisState({ url: redis.url, prefix: 'subscriber-test:', route: '/mcp' })
    opened.push({ disconnect: () => void state.close() })
    const heard: string[] = []
    await state.subscribe('news', message => heard.push(message))
    await state.publish('news', 'one')
    await until(() => heard.includes('one'), 'first message heard')

    await redis.stop()
    await redis.start()
    // Subscribed again by the client itself once it is back (a new channel too): published after
    // the reconnect, both are heard.
    const later: string[] = []
    const subscribing = state.subscribe('later', message => later.push(message))
    await until(async () => state.publish('news', 'two').then(() => heard.includes('two'), () => false), 'message heard after the restart', 10_000)
    await subscribing
    await until(async () => state.publish('later', 'three').then(() => later.includes('three'), () => false), 'message heard on the new channel', 10_000)
  }, 30_000)

  it('connectRedisState: a command made while Redis restarts waits for it; past 2 s of outage, commands fail at once', async () => {
    const state: McpSharedState = await connectRedisState({ url: redis.url, prefix: 'outage-test:', route: '/mcp' })
    opened.push({ disconnect: () => void state.close() })
    await state.put('kept', 'before', 60_000)
    // A short outage: the command waits for the connection, and gets its answer.
    await redis.stop()
    const during = state.get('kept')
    await new Promise(done => setTimeout(done, 300))
    await redis.start()
    expect(await during).toBeUndefined() // (no persistence: Redis came back empty, and answered)
    // A long one: after 2 s without Redis, a command fails at once, not after its 2 s timeout,
    // so commands stop piling up in memory.
    await redis.stop()
    await new Promise(done => setTimeout(done, 2500))
    const started = Date.now()
    await expect(state.get('kept')).rejects.toThrow(/could not be reached/)
    expect(Date.now() - started).toBeLessThan(1000)
    await redis.start()
    await until(async () => state.put('kept', 'after', 60_000).then(() => true, () => false), 'commands served again once Redis is back', 10_000)
    expect(await state.get('kept')).toBe('after')
  }, 30_000)
})
