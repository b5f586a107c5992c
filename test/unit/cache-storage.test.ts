import { describe, expect, it } from 'vitest'
import { createStorage } from 'unstorage'
import { storageCacheStore } from '../../src/runtime/server/mcp/cache-storage'

/** The result cache on a Nitro storage mount: unstorage itself, with its memory driver (which ignores `ttl`). */
describe('storageCacheStore', () => {
  it('keeps and serves a value under a hashed key, and forgets it at its own expiry', async () => {
    const storage = createStorage()
    const store = storageCacheStore(storage)
    await store.put('cache:/mcp:"docs":"ada":{"page":2}', '{"content":[]}', 60_000)
    expect(await store.get('cache:/mcp:"docs":"ada":{"page":2}')).toBe('{"content":[]}')
    expect(await storage.getKeys()).toEqual([expect.stringMatching(/^nuxt-mcp-cache:[0-9a-f]{64}$/)])
    await store.put('short', 'x', -1)
    // The driver keeps it (memory ignores ttl); the entry's own expiry makes it a miss.
    expect(await storage.getKeys()).toHaveLength(2)
    expect(await store.get('short')).toBeUndefined()
    expect(await store.get('never-kept')).toBeUndefined()
  })
})
