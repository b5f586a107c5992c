import { describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../src/runtime/server/common/store/memory'
import { keepResult, planToolCache, readCachedResult, toolCacheKey } from '../../src/runtime/server/mcp/tool-cache'

describe('planToolCache', () => {
  it('reads durations and seconds', () => {
    expect(planToolCache('30s', 't').ttlMs).toBe(30_000)
    expect(planToolCache('10m', 't').ttlMs).toBe(600_000)
    expect(planToolCache('2h', 't').ttlMs).toBe(7_200_000)
    expect(planToolCache('1d', 't').ttlMs).toBe(86_400_000)
    expect(planToolCache(90, 't')).toEqual({ ttlMs: 90_000, shared: false })
    expect(planToolCache({ maxAge: '1m', scope: 'shared' }, 't')).toEqual({ ttlMs: 60_000, shared: true })
  })

  it('refuses what is not a duration, naming the tool and the fix', () => {
    for (const bad of ['soon', '10 minutes', 0, -5, '']) {
      expect(() => planToolCache(bad, 'The tool "docs" (server/mcp/tools/docs.ts)')).toThrow(/The tool "docs" \(server\/mcp\/tools\/docs\.ts\): its cache maxAge .* is not a duration\. Write a positive number of seconds, or a string such as '30s'/)
    }
  })
})

describe('toolCacheKey', () => {
  const plan = planToolCache('1m', 't')
  it('is one key for the same arguments in any order, and apart per caller, tool and endpoint', () => {
    const key = toolCacheKey(plan, '/mcp', 'docs', 'ada', { a: 1, b: { y: 2, x: [3] } })
    expect(toolCacheKey(plan, '/mcp', 'docs', 'ada', { b: { x: [3], y: 2 }, a: 1 })).toBe(key)
    for (const other of [
      toolCacheKey(plan, '/mcp', 'docs', 'bob', { a: 1, b: { y: 2, x: [3] } }),
      toolCacheKey(plan, '/mcp', 'other', 'ada', { a: 1, b: { y: 2, x: [3] } }),
      toolCacheKey(plan, '/mcp/admin', 'docs', 'ada', { a: 1, b: { y: 2, x: [3] } }),
      toolCacheKey(plan, '/mcp', 'docs', 'ada', { a: 2, b: { y: 2, x: [3] } }),
    ]) expect(other).not.toBe(key)
  })

  it('is one key for everyone with scope shared, and follows getKey', () => {
    const shared = planToolCache({ maxAge: 60, scope: 'shared', getKey: args => String(args.page) }, 't')
    expect(toolCacheKey(shared, '/mcp', 'docs', 'ada', { page: 2, noise: 1 })).toBe(toolCacheKey(shared, '/mcp', 'docs', 'bob', { page: 2, noise: 9 }))
  })
})

describe('the cache store', () => {
  it('keeps and serves a result, and a full store keeps nothing without failing the call', async () => {
    const store = createMemoryStore(1)
    await keepResult(store, 'k1', { content: [{ type: 'text', text: 'x' }] }, 60_000)
    expect(await readCachedResult(store, 'k1')).toEqual({ content: [{ type: 'text', text: 'x' }] })
    await expect(keepResult(store, 'k2', { content: [] }, 60_000)).resolves.toBeUndefined()
    expect(await readCachedResult(store, 'k2')).toBeUndefined()
  })
})
