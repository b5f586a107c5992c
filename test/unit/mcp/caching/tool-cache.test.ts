import { describe, expect, it } from 'vitest'
import { cacheSlot, entryBytes, hashCacheKey, memoryCacheStore } from '../../../../src/runtime/server/mcp/caching/store'
import type { CacheBounds } from '../../../../src/runtime/server/mcp/caching/store'
import { cacheHint, canonicalJson, keepCached, keepResource, planResourceCache, planToolCache, readCached, readCachedResource, resourceCacheSlot, toolCacheSlot } from '../../../../src/runtime/server/mcp/caching/plan'
import type { ToolCachePlan } from '../../../../src/runtime/server/mcp/caching/plan'

const BOUNDS: CacheBounds = { maxEntryBytes: 1024 * 1024, maxBytes: 64 * 1024 * 1024, maxBytesPerCaller: 8 * 1024 * 1024 }

/** What a JavaScript `getKey` may return whatever its type says. */
function untyped(value: unknown): string {
  return value as string
}

/** A call's slot key, its arguments as sent being the parsed ones (as for plain JSON they are). */
function keyOf(plan: ToolCachePlan, route: string, tool: string, principal: string | undefined, args: Record<string, unknown>): string | undefined {
  return toolCacheSlot(plan, route, tool, principal === undefined ? undefined : { principal }, args, args)?.key
}

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

describe('toolCacheSlot', () => {
  const plan = planToolCache('1m', 't')
  it('is one hashed key for the same arguments in any order, and apart per caller, tool and endpoint', () => {
    const key = keyOf(plan, '/mcp', 'docs', 'ada', { a: 1, b: { y: 2, x: [3] } })
    expect(key).toMatch(/^nuxt-mcp-cache:[0-9a-f]{64}$/)
    expect(keyOf(plan, '/mcp', 'docs', 'ada', { b: { x: [3], y: 2 }, a: 1 })).toBe(key)
    for (const other of [
      keyOf(plan, '/mcp', 'docs', 'bob', { a: 1, b: { y: 2, x: [3] } }),
      keyOf(plan, '/mcp', 'other', 'ada', { a: 1, b: { y: 2, x: [3] } }),
      keyOf(plan, '/mcp/admin', 'docs', 'ada', { a: 1, b: { y: 2, x: [3] } }),
      keyOf(plan, '/mcp', 'docs', 'ada', { a: 2, b: { y: 2, x: [3] } }),
    ]) expect(other).not.toBe(key)
  })

  it('is no slot at all per caller without a principal (issue 48): no entry every anonymous caller shares', () => {
    expect(toolCacheSlot(plan, '/mcp', 'docs', undefined, {}, {})).toBeUndefined()
    expect(toolCacheSlot(plan, '/mcp', 'docs', { principal: '' }, {}, {})).toBeUndefined()
    expect(toolCacheSlot(planToolCache({ maxAge: 60, scope: 'shared' }, 't'), '/mcp', 'docs', undefined, {}, {})).toBeDefined()
  })

  it('is one key for everyone with scope shared, and follows getKey', () => {
    const shared = planToolCache({ maxAge: 60, scope: 'shared', getKey: args => String(args.page) }, 't')
    expect(keyOf(shared, '/mcp', 'docs', 'ada', { page: 2, noise: 1 })).toBe(keyOf(shared, '/mcp', 'docs', 'bob', { page: 2, noise: 9 }))
  })

  it('never gives different arguments one key (issue 48): values with no JSON of their own are keyed as sent, undefined is not null', () => {
    const shared = planToolCache({ maxAge: 60, scope: 'shared' }, 't')
    const slot = (parsed: Record<string, unknown>, sent: Record<string, unknown>) => toolCacheSlot(shared, '/mcp', 'docs', undefined, parsed, sent)?.key
    const a = slot({ url: new URL('https://a.example/') }, { url: 'https://a.example/' })
    const b = slot({ url: new URL('https://b.example/') }, { url: 'https://b.example/' })
    expect(a).toBeDefined()
    expect(a).not.toBe(b)
    expect(slot({ at: new Date(0) }, { at: '1970' })).not.toBe(slot({ at: new Date(1) }, { at: '1971' }))
    expect(slot({ map: new Map([[1, 2]]) }, { map: [[1, 2]] })).not.toBe(slot({ map: new Map() }, { map: [] }))
    expect(slot({ x: undefined }, {})).not.toBe(slot({ x: null }, { x: null }))
    expect(slot({ list: [undefined] }, {})).not.toBe(slot({ list: [null] }, {}))
    // Parsed values that are not JSON, and sent ones that are not either: nothing to key on, not kept.
    expect(slot({ n: Number.NaN }, { n: Number.NaN })).toBeUndefined()
  })

  it('keys getKey\'s value by its canonical JSON, and keeps nothing when it has none (issue 48): a Map, or a field undefined or null, are never one key', () => {
    const plan = planToolCache({ maxAge: 60, scope: 'shared', getKey: args => args.at as string }, 't')
    const slot = (at: unknown) => toolCacheSlot(plan, '/mcp', 'docs', undefined, { at }, { at })?.key
    expect(slot('x')).toBeDefined()
    expect(slot(new Map([[1, 2]]))).toBeUndefined()
    expect(slot({ a: undefined })).not.toBe(slot({}))
    expect(slot(undefined)).not.toBe(slot(null))
    const resources = planResourceCache({ maxAge: 60, scope: 'shared', getKey: uri => untyped(uri.hash ? new Map([[uri.hash, 1]]) : { page: uri.searchParams.get('page') ?? undefined }) }, 'r')
    const read = (uri: string) => resourceCacheSlot(resources, '/mcp', 'docs', undefined, new URL(uri), {})?.key
    expect(read('docs://x/a#one')).toBeUndefined()
    expect(read('docs://x/a')).not.toBe(read('docs://x/a?page=null'))
    expect(read('docs://x/a?page=2')).toBeDefined()
  })

  it('counts anonymous callers by their address (issue 48): each has a share of their own', () => {
    const shared = planToolCache({ maxAge: 60, scope: 'shared' }, 't')
    const ownerOf = (caller: { principal?: string, address?: string }) => toolCacheSlot(shared, '/mcp', 'docs', caller, {}, {})!.owner
    expect(ownerOf({ address: '10.0.0.1' })).not.toBe(ownerOf({ address: '10.0.0.2' }))
    expect(ownerOf({ address: '10.0.0.1' })).toBe(ownerOf({ address: '10.0.0.1' }))
    expect(ownerOf({ principal: 'ada', address: '10.0.0.1' })).toBe(ownerOf({ principal: 'ada', address: '10.0.0.2' }))
    expect(ownerOf({ principal: 'ada', address: '10.0.0.1' })).not.toBe(ownerOf({ address: '10.0.0.1' }))
    expect(ownerOf({ address: '10.0.0.1' })).toMatch(/^nuxt-mcp-cache:[0-9a-f]{64}$/)
  })

  it('hashes with the one key function every store uses', () => {
    expect(cacheSlot('text', true, undefined)?.key).toBe(hashCacheKey('text'))
  })
})

describe('canonicalJson', () => {
  it('sorts keys, writes undefined apart from null, and refuses what is not plain JSON', () => {
    expect(canonicalJson({ b: 1, a: [null, undefined, 'x'] })).toBe('{"a":[null,~,"x"],"b":1}')
    for (const value of [new Date(0), new URL('https://a.example/'), new Map(), new Set(), () => 1, 1n, Infinity, { nested: new Date(0) }]) {
      expect(canonicalJson(value)).toBeUndefined()
    }
    expect(canonicalJson(Object.create(null))).toBe('{}')
  })
})

describe('the cache store', () => {
  it('keeps and serves a result, and a full store keeps nothing without failing the call', async () => {
    // Room for one small entry (each counts 256 bytes besides its key and value).
    const store = memoryCacheStore({ maxEntryBytes: 1024, maxBytes: 700, maxBytesPerCaller: 700 })
    const first = cacheSlot('k1', false, { principal: 'ada' })!
    const second = cacheSlot('k2', false, { principal: 'ada' })!
    await keepCached({ store, slot: first, ttlMs: 60_000 }, { content: [{ type: 'text', text: 'x' }] })
    expect(await readCached({ store, slot: first, ttlMs: 60_000 })).toEqual({ content: [{ type: 'text', text: 'x' }] })
    await expect(keepCached({ store, slot: second, ttlMs: 60_000 }, { content: [] })).resolves.toBeUndefined()
    expect(await readCached({ store, slot: second, ttlMs: 60_000 })).toBeUndefined()
  })

  it('keeps no more than one caller\'s share after 100 calls with a 1 MB argument and a 200 KB result (issue 48)', { timeout: 120_000 }, async () => {
    const bounds: CacheBounds = { maxEntryBytes: 1024 * 1024, maxBytes: 4 * 1024 * 1024, maxBytesPerCaller: 1024 * 1024 }
    const store = memoryCacheStore(bounds)
    const plan = planToolCache('10m', 't')
    const big = 'x'.repeat(1024 * 1024)
    const result = { content: [{ type: 'text', text: 'y'.repeat(200 * 1024) }] }
    for (let i = 0; i < 100; i++) {
      const args = { i, big }
      await keepCached({ store, slot: toolCacheSlot(plan, '/mcp', 'echo', { principal: 'ada' }, args, args)!, ttlMs: plan.ttlMs }, result)
    }
    expect(store.keptBytes()).toBeGreaterThan(4 * 200 * 1024)
    expect(store.keptBytes()).toBeLessThanOrEqual(bounds.maxBytesPerCaller)
    // Another caller is not stopped by the first one's share, nor evicts it.
    const bob = toolCacheSlot(plan, '/mcp', 'echo', { principal: 'bob' }, { i: 0 }, { i: 0 })!
    await keepCached({ store, slot: bob, ttlMs: plan.ttlMs }, result)
    expect(await readCached({ store, slot: bob, ttlMs: plan.ttlMs })).toEqual(result)
    const first = { i: 0, big }
    expect(await readCached({ store, slot: toolCacheSlot(plan, '/mcp', 'echo', { principal: 'ada' }, first, first)!, ttlMs: plan.ttlMs })).toEqual(result)
  })

  it('keeps nothing past the total budget, counting each entry\'s own record so that tiny entries are bounded too, and what expired gives its bytes back', async () => {
    const bounds = { maxEntryBytes: 1000, maxBytes: 1200, maxBytesPerCaller: 800 }
    const store = memoryCacheStore(bounds)
    const value = 'v'.repeat(200)
    const slots = ['a', 'b', 'c'].flatMap(who => [1, 2].map(n => cacheSlot(`${who}${n}`, false, { principal: who })!))
    expect(entryBytes(slots[0]!, value)).toBe(256 + 79 + 200)
    const kept = []
    for (const slot of slots) kept.push(await store.put(slot, value, 60_000))
    // Each entry is 535 bytes: one per caller fits its 800-byte share, two callers fill the 1,200.
    expect(kept).toEqual([true, false, true, false, false, false])
    expect(store.keptBytes()).toBe(2 * 535)
    const gone = memoryCacheStore(bounds)
    expect(await gone.put(slots[0]!, value, -1)).toBe(true)
    expect(await gone.put(slots[1]!, value, 60_000)).toBe(true)
    expect(gone.keptBytes()).toBe(535)
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
    const slot = resourceCacheSlot(plan, '/mcp', 'docs', { principal: 'ada' }, new URL('docs://x/a?v=1'), {})!
    const key = slot.key
    expect(resourceCacheSlot(plan, '/mcp', 'docs', { principal: 'ada' }, new URL('docs://x/a?v=2'), {})?.key).toBe(key)
    expect(resourceCacheSlot(plan, '/mcp', 'docs', { principal: 'bob' }, new URL('docs://x/a'), {})?.key).not.toBe(key)
    expect(resourceCacheSlot(plan, '/mcp', 'docs', undefined, new URL('docs://x/a'), {})).toBeUndefined()
    expect(cacheHint(plan, 1234.4)).toEqual({ ttlMs: 1234, cacheScope: 'private' })
    const store = memoryCacheStore(BOUNDS)
    await keepResource({ store, slot, ttlMs: 60_000 }, { contents: [{ uri: 'docs://x/a', text: 'a' }] })
    const hit = await readCachedResource({ store, slot, ttlMs: 60_000 })
    expect(hit?.result).toEqual({ contents: [{ uri: 'docs://x/a', text: 'a' }] })
    expect(hit?.remainingMs).toBeGreaterThan(59_000)
    // An entry past the resource's age is a miss even if the store still has it.
    expect(await readCachedResource({ store, slot, ttlMs: -1 })).toBeUndefined()
  })
})
