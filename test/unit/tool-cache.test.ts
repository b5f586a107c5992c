import { describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../src/runtime/server/common/store/memory'
import { keepResult, planToolCache, readCachedResult, toolCacheKey } from '../../src/runtime/server/mcp/tool-cache'
import { cacheHint, keepResource, planResourceCache, readCachedResource, resourceCacheKey } from '../../src/runtime/server/mcp/resource-cache'

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

describe('planResourceCache', () => {
  it('reads the same durations as a tool, and the scope', () => {
    expect(planResourceCache('10m', 'r')).toEqual({ ttlMs: 600_000, shared: false })
    expect(planResourceCache({ maxAge: 60, scope: 'shared' }, 'r')).toEqual({ ttlMs: 60_000, shared: true })
  })

  it('refuses the old hint-only form, naming the resource and the new spelling', () => {
    // @ts-expect-error the old form is no longer in the type: a JavaScript caller still gets the message
    expect(() => planResourceCache({ ttlMs: 60_000, scope: 'public' }, 'The resource "docs" (server/mcp/resources/docs.ts)')).toThrow(/The resource "docs" \(server\/mcp\/resources\/docs\.ts\): `cache: \{ ttlMs, scope \}` is the old hint-only form\. Write `cache: \{ maxAge: '60s', scope: 'shared' \}`/)
  })

  it('keys by endpoint, resource, caller and URI (or getKey), and hints what is left', async () => {
    const plan = planResourceCache({ maxAge: 60, getKey: uri => uri.pathname }, 'r')
    const key = resourceCacheKey(plan, '/mcp', 'docs', 'ada', new URL('docs://x/a?v=1'), {})
    expect(resourceCacheKey(plan, '/mcp', 'docs', 'ada', new URL('docs://x/a?v=2'), {})).toBe(key)
    expect(resourceCacheKey(plan, '/mcp', 'docs', 'bob', new URL('docs://x/a'), {})).not.toBe(key)
    expect(cacheHint(plan, 1234.4)).toEqual({ ttlMs: 1234, cacheScope: 'private' })
    const store = createMemoryStore()
    await keepResource(store, key, { contents: [{ uri: 'docs://x/a', text: 'a' }] }, 60_000)
    const hit = await readCachedResource(store, key, 60_000)
    expect(hit?.result).toEqual({ contents: [{ uri: 'docs://x/a', text: 'a' }] })
    expect(hit?.remainingMs).toBeGreaterThan(59_000)
    // An entry past the resource's age is a miss even if the store still has it.
    expect(await readCachedResource(store, key, -1)).toBeUndefined()
  })
})
