import { describe, expect, it } from 'vitest'
import { createStorage } from 'unstorage'
import { cacheSlot, capEntries, storageCacheStore } from '../../../../src/runtime/server/mcp/caching/store'

/** The result cache on a Nitro storage mount: unstorage itself, with its memory driver (which ignores `ttl`). */
describe('storageCacheStore', () => {
  it('keeps and serves a value under the hashed key every store uses, and forgets it at its own expiry', async () => {
    const storage = createStorage()
    const store = storageCacheStore(storage)
    const slot = cacheSlot('cache:/mcp:"docs":"ada":{"page":2}', false, { principal: 'ada' })!
    expect(await store.put(slot, '{"content":[]}', 60_000)).toBe(true)
    expect(await store.get(slot.key)).toBe('{"content":[]}')
    expect(await storage.getKeys()).toEqual([expect.stringMatching(/^nuxt-mcp-cache:[0-9a-f]{64}$/)])
    const short = cacheSlot('short', true, undefined)!
    await store.put(short, 'x', -1)
    // The driver keeps it (memory ignores ttl); the entry's own expiry makes it a miss.
    expect(await storage.getKeys()).toHaveLength(2)
    expect(await store.get(short.key)).toBeUndefined()
    expect(await store.get(cacheSlot('never-kept', true, undefined)!.key)).toBeUndefined()
  })

  it('keeps no entry over the per-entry cap, the one bound a driver that counts no bytes has', async () => {
    const storage = createStorage()
    const store = capEntries(storageCacheStore(storage), 10)
    expect(await store.put(cacheSlot('a', true, undefined)!, 'x'.repeat(11), 60_000)).toBe(false)
    expect(await store.put(cacheSlot('b', true, undefined)!, 'x'.repeat(10), 60_000)).toBe(true)
    // Bytes, not characters: five two-byte letters are ten bytes.
    expect(await store.put(cacheSlot('c', true, undefined)!, 'é'.repeat(6), 60_000)).toBe(false)
    expect(await storage.getKeys()).toHaveLength(1)
  })
})
