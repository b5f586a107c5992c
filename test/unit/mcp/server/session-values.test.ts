import { describe, expect, it } from 'vitest'
import { createMemorySessionValues } from '../../../../src/runtime/server/mcp/server/session-values'

// useMcpSession()'s in-process store: a session's values live from its opening to its end, and a
// handler that outlives its session (awaiting I/O, then DELETE) cannot bring them back, where
// nothing would ever remove them again.
describe('the in-process session values', () => {
  it('keeps nothing set after its session closed: 100 sessions closed, then 60 KB set in each', async () => {
    const store = createMemorySessionValues()
    const big = JSON.stringify('x'.repeat(60 * 1024))
    const ids = Array.from({ length: 100 }, (_, index) => `session-${index}`)
    for (const id of ids) {
      store.open(id)
      expect(await store.set(id, 'small', '1', 100)).toBe('set')
      store.forget(id)
    }
    for (const id of ids) expect(await store.set(id, 'late', big, 100)).toBe('closed')
    for (const id of ids) expect(await store.all(id)).toEqual({})
  })

  it('refuses a new key at the cap, and a session never opened', async () => {
    const store = createMemorySessionValues()
    store.open('open')
    expect(await store.set('open', 'a', '1', 1)).toBe('set')
    expect(await store.set('open', 'b', '2', 1)).toBe('full')
    expect(await store.set('open', 'a', '3', 1)).toBe('set')
    expect(await store.get('open', 'a')).toBe('3')
    expect(await store.set('never', 'a', '1', 1)).toBe('closed')
  })
})
