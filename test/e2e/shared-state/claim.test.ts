import { connect, createServer } from 'node:net'
import type { AddressInfo, Server, Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedis } from '../../../scripts/cluster.mjs'
import type { RedisServer } from '../../../scripts/cluster.mjs'
import { connectRedisState } from '../../../src/runtime/server/cluster/redis'
import type { McpSharedState } from '../../../src/runtime/server/cluster/shared-state'

// A `once()` step is claimed in Redis before it runs. When Redis applies a claim and the
// connection dies before its reply arrives, ioredis sends the command again once it is back: the
// claim must still be its maker's, or the maker waits for a step nobody runs (found by the chaos
// run, where Redis was SIGKILLed between the two).
let redis: RedisServer
const opened: McpSharedState[] = []
const servers: Server[] = []

beforeAll(async () => {
  redis = await startRedis()
})

afterAll(async () => {
  for (const state of opened) await state.close()
  for (const server of servers) server.close()
  await redis?.stop()
})

/**
 * A TCP proxy to Redis that, once, lets the command containing `marker` through and then cuts
 * the connection before Redis's reply reaches the client: the reply is lost after the command
 * was applied. Counts the cuts, so the test knows the loss happened.
 */
async function startReplyLosingProxy(target: URL, marker: string): Promise<{ url: string, cuts: () => number }> {
  let armed = true
  let cuts = 0
  const server = createServer((client: Socket) => {
    const upstream = connect(Number(target.port), target.hostname)
    let dropNextReply = false
    client.on('data', (chunk: Buffer) => {
      if (armed && chunk.toString('latin1').includes(marker)) {
        armed = false
        dropNextReply = true
      }
      upstream.write(chunk)
    })
    upstream.on('data', (chunk: Buffer) => {
      if (!dropNextReply) return void client.write(chunk)
      cuts++
      client.destroy()
      upstream.destroy()
    })
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
    client.on('error', () => {})
    upstream.on('error', () => {})
  })
  servers.push(server)
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return { url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`, cuts: () => cuts }
}

describe('a claim in Redis', () => {
  it('is still its maker\'s when its reply was lost and ioredis sent it again', async () => {
    // The claim is the first command that names the step's key.
    const proxy = await startReplyLosingProxy(new URL(redis.url), 'once:flow:step')
    const maker = await connectRedisState({ url: proxy.url, prefix: 'claim-test:', route: '/mcp' })
    const other = await connectRedisState({ url: redis.url, prefix: 'claim-test:', route: '/mcp' })
    opened.push(maker, other)
    expect(await maker.claim('once:flow:step', 60_000)).toBe(true)
    expect(proxy.cuts()).toBe(1)
    // Claimed once: another instance, and a later claim of the same maker, are refused.
    expect(await other.claim('once:flow:step', 60_000)).toBe(false)
    expect(await maker.claim('once:flow:step', 60_000)).toBe(false)
  }, 20_000)
})
