import { describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../../src/runtime/server/common/store/memory'

describe('the in-process store', () => {
  it('gives a claim to exactly one of many concurrent callers', async () => {
    const store = createMemoryStore()
    const won = await Promise.all(Array.from({ length: 20 }, () => store.claim('k', 1000)))
    expect(won.filter(Boolean)).toHaveLength(1)
  })

  it('forgets a claim and a record once they expire', async () => {
    const store = createMemoryStore()
    expect(await store.claim('k', 20)).toBe(true)
    await store.put('v', 'x', 20)
    expect(await store.get('v')).toBe('x')
    await new Promise(resolve => setTimeout(resolve, 40))
    expect(await store.get('v')).toBeUndefined()
    expect(await store.claim('k', 20)).toBe(true)
  })

  it('fails closed when full of unexpired records, and makes room from expired ones', async () => {
    const store = createMemoryStore(2)
    await store.claim('a', 20)
    await store.claim('b', 60_000)
    await new Promise(resolve => setTimeout(resolve, 40))
    expect(await store.claim('c', 60_000)).toBe(true)
    await expect(store.claim('d', 60_000)).rejects.toThrow(/holds 2 unexpired records/)
  })
})
