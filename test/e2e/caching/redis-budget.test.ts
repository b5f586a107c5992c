import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startRedis } from '../../../scripts/cluster.mjs'
import type { RedisServer } from '../../../scripts/cluster.mjs'
import { connectRedisState } from '../../../src/runtime/server/cluster/redis'
import { cacheSlot, sharedCacheStore } from '../../../src/runtime/server/mcp/caching/store'
import { connectModern, textOf } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import { until } from '../../utils/until'
import type { RunningFixture } from '../../utils/fixture'

/**
 * The result cache in Redis is bounded in bytes (issue 48): keys are hashed, a result over
 * `mcp.cache.maxEntryBytes` is not kept, and one caller keeps at most `maxBytesPerCaller` of the
 * endpoint's `maxBytes`, so one caller cannot fill Redis, nor the budget every caller shares.
 * Measured by what Redis reports (the length of every key and value, and MEMORY USAGE), not by timing.
 */
const MAX_BYTES = 4 * 1024 * 1024
const PER_CALLER = 512 * 1024
const LARGE = 100 * 1024

let redis: RedisServer
let app: RunningFixture
let connection: Redis

beforeAll(async () => {
  redis = await startRedis()
  app = await startFixture('elicitation', { NUXT_MCP_REDIS_URL: redis.url, NUXT_MCP_CACHE_MAX_BYTES: String(MAX_BYTES), NUXT_MCP_CACHE_MAX_BYTES_PER_CALLER: String(PER_CALLER) })
  connection = new Redis(redis.url)
})
afterAll(async () => {
  connection?.disconnect()
  await app?.stop()
  await redis?.stop()
})

/** Every key in Redis with the bytes Redis says it uses, and the length of its key and string value (what the budget counts). */
async function keptKeys(): Promise<{ key: string, bytes: number, length: number }[]> {
  const keys = await connection.keys('*')
  return Promise.all(keys.map(async key => ({
    key,
    bytes: Number(await connection.memory('USAGE', key)),
    length: key.length + (await connection.type(key) === 'string' ? await connection.strlen(key) : 0),
  })))
}

async function total(): Promise<{ bytes: number, length: number }> {
  const kept = await keptKeys()
  return { bytes: kept.reduce((sum, { bytes }) => sum + bytes, 0), length: kept.reduce((sum, { length }) => sum + length, 0) }
}

async function echo(user: string, texts: string[]): Promise<string[]> {
  const client = await connectModern(app.url, { requestInit: { headers: { 'x-user': user } } })
  try {
    const results: string[] = []
    for (const text of texts) results.push(textOf(await client.callTool({ name: 'cached_echo', arguments: { text } })).slice(0, 12))
    return results
  }
  finally {
    await client.close()
  }
}

describe('the result cache in Redis', () => {
  it('keeps no more than one caller\'s share after 100 calls with a 100 KB argument, under hashed keys', { timeout: 180_000 }, async () => {
    const before = await total()
    const texts = Array.from({ length: 100 }, (_, i) => `${String(i).padStart(3, '0')}:${'x'.repeat(LARGE)}`)
    await echo('ada', texts)
    const after = await total()
    // Five 100 KB results fit in the 512 KiB share: what the keys and values hold stays within it.
    expect(after.length - before.length).toBeGreaterThan(2 * LARGE)
    expect(after.length - before.length).toBeLessThanOrEqual(PER_CALLER)
    // And what Redis uses for them: the allocator rounds a 100 KB value up to its 112 KiB size
    // class, and the budget's own records take a few hundred bytes (without the budget: 20 MB).
    expect(after.bytes - before.bytes).toBeLessThanOrEqual(PER_CALLER * 1.25)
    const longest = Math.max(...(await keptKeys()).map(({ key }) => key.length))
    expect(longest).toBeLessThan(200)
    // The first ones were kept and are served again.
    expect(await echo('ada', [texts[0]!])).toEqual(['run 1: 000:x'])
  })

  it('still keeps another caller\'s results after one caller filled their share', async () => {
    const text = `bob:${'y'.repeat(LARGE)}`
    expect(await echo('bob', [text, text])).toEqual(['run 1: bob:y', 'run 1: bob:y'])
  })

  it('does not keep a result over the per-entry cap (1 MiB by default)', { timeout: 60_000 }, async () => {
    const text = `big:${'z'.repeat(1200 * 1024)}`
    expect(await echo('carol', [text, text])).toEqual(['run 1: big:z', 'run 2: big:z'])
  })
})

describe('the budget in Redis, shared by two instances', () => {
  it('holds one total and one share per caller across instances, and an entry past its expiry gives its bytes back', async () => {
    const connect = () => connectRedisState({ url: redis.url, prefix: 'budget-test:', route: '/mcp' })
    const [a, b] = await Promise.all([connect(), connect()])
    try {
      const bounds = { maxEntryBytes: 10_000, maxBytes: 2000, maxBytesPerCaller: 1200 }
      const onA = sharedCacheStore(Promise.resolve(a), bounds)
      const onB = sharedCacheStore(Promise.resolve(b), bounds)
      // Each entry counts 535 bytes (a 79-byte hashed key, 200 bytes of value, 256 for its records).
      const value = 'v'.repeat(200)
      const ada = [1, 2, 3].map(n => cacheSlot(`ada-${n}`, false, { principal: 'ada' })!)
      expect(await onA.put(ada[0]!, value, 60_000)).toBe(true)
      expect(await onB.put(ada[1]!, value, 60_000)).toBe(true)
      // A third would take ada past her 1,200-byte share, on whichever instance.
      expect(await onA.put(ada[2]!, value, 60_000)).toBe(false)
      expect(await onB.get(ada[0]!.key)).toBe(value)
      const bob = cacheSlot('bob-1', false, { principal: 'bob' })!
      // Bob's entry is brief: it expires (by Redis's clock) within the test.
      expect(await onB.put(bob, value, 3000)).toBe(true)
      // 1,605 bytes kept: a fourth entry would pass the 2,000 in all, whoever keeps it.
      const carol = cacheSlot('carol-1', false, { principal: 'carol' })!
      expect(await onA.put(carol, value, 60_000)).toBe(false)
      // An instance whose clock runs two minutes ahead frees nothing early: the budget counts
      // expiry by Redis's clock, the one the entries expire by (issue 48).
      vi.useFakeTimers({ toFake: ['Date'] })
      vi.setSystemTime(Date.now() + 120_000)
      expect(await onA.put(carol, value, 60_000)).toBe(false)
      expect(await connection.hget('budget-test:/mcp:cache-budget:bytes', 'total')).toBe('1605')
      vi.useRealTimers()
      // Once Redis has expired bob's entry, the next write gives its bytes back first.
      await until(async () => await connection.exists(`budget-test:/mcp:${bob.key}`) === 0, 'bob\'s entry to expire in Redis', 10_000, 100)
      expect(await onB.put(carol, value, 60_000)).toBe(true)
      expect(await connection.hget('budget-test:/mcp:cache-budget:bytes', 'total')).toBe('1605')
    }
    finally {
      vi.useRealTimers()
      await Promise.all([a.close(), b.close()])
    }
  })
})
