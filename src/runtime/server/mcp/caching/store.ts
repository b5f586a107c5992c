/**
 * Where the caching room keeps results: in this process, in Redis (`NUXT_MCP_REDIS_URL`) or on
 * the app's Nitro storage mount (`mcp.cache.storage`), each under one hashed key and within the
 * byte bounds of `mcp.cache`. Which one an endpoint uses is chosen here, once.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { callerKeyOf } from '../../common/context'
import { utf8Bytes } from '../../common/byte-length'
import type { McpSharedState } from '../../cluster/shared-state'
import { CACHE_BYTE_DEFAULTS } from '../../common/config'
import { isRecord } from '../../common/is-record'

/**
 * Where one cached result goes: its store key (hashed, {@link hashCacheKey}) and whose byte share
 * it counts against (the caller who made it, hashed too).
 *
 * @example
 * ```ts
 * const slot: CacheSlot = cacheSlot('cache:/mcp:"docs":"ada":{}', false, { principal: 'ada' })!
 * await store.put(slot, JSON.stringify(result), 60_000)
 * ```
 */
export interface CacheSlot {
  key: string
  owner: string
}

/**
 * Where cached results are read and kept: memory, Redis, or a Nitro storage mount.
 *
 * @example
 * ```ts
 * const store: McpCacheStore = memoryCacheStore(config.cache)
 * const text = await store.get(slot.key)
 * ```
 */
export interface McpCacheStore {
  /** The kept text under `key`, or `undefined`. */
  get: (key: string) => Promise<string | undefined>
  /** Keeps `value` for `ttlMs` when the store's bounds allow it; `false` when it kept nothing. */
  put: (slot: CacheSlot, value: string, ttlMs: number) => Promise<boolean>
}

/**
 * The cache's byte bounds (`mcp.cache`): per entry everywhere, in all and per caller where the
 * store counts bytes.
 *
 * @example
 * ```ts
 * const bounds: CacheBounds = { maxEntryBytes: 1 << 20, maxBytes: 64 << 20, maxBytesPerCaller: 8 << 20 }
 * ```
 */
export interface CacheBounds {
  /** A result larger than this (JSON bytes) is not kept. */
  maxEntryBytes: number
  /** What the endpoint's results may take in all, in memory or Redis (keys and values). */
  maxBytes: number
  /** What one caller's results may take of `maxBytes`: one caller cannot fill it for everyone. */
  maxBytesPerCaller: number
}

/**
 * What an entry costs besides its key and value: the store's own record of it (in this process a
 * map entry and its object; in Redis the key's header and the budget's index records). Counted,
 * so that many tiny entries are bounded by the budget as a few large ones are (a count cap
 * instead would let one caller's small entries fill it for everyone).
 */
const ENTRY_OVERHEAD_BYTES = 256

/** How often, at most, the in-process cache walks its entries for expired ones to make room. */
const SWEEP_EVERY_MS = 1000

/**
 * Who a call or read is for, as the request scope carries it: the principal, else the client
 * address an anonymous caller is counted by.
 *
 * @example
 * ```ts
 * const caller: CacheCaller = { address: '10.0.0.1' }
 * ```
 */
export interface CacheCaller {
  principal?: string
  address?: string
}

/**
 * The store key of a cache key's text: the same in memory, Redis and on Nitro storage, and short
 * whatever the text (it carries the arguments), so a key costs the same for any argument. Nitro
 * drivers map keys to paths, which the hex digest also suits.
 *
 * @example
 * ```ts
 * hashCacheKey('cache:/mcp:"docs":"ada":{"page":2}') // 'nuxt-mcp-cache:3f1e…' (64 hex digits)
 * ```
 */
export function hashCacheKey(text: string): string {
  return `nuxt-mcp-cache:${bytesToHex(sha256(utf8ToBytes(text)))}`
}

/**
 * The slot of one call or read: `undefined` when it is kept per caller and there is no caller to
 * keep it for (no principal: an anonymous caller, a legacy session without one, an `mcp:auth`
 * hook that set `authInfo` without a subject). Keying such calls on one empty principal would
 * hand one anonymous caller's result to every other. Its owner is the caller's key for every
 * per-caller cap ({@link callerKeyOf}: an anonymous caller counted by client address), so one
 * anonymous caller filling its share leaves every other's alone.
 *
 * @example
 * ```ts
 * cacheSlot('cache:/mcp:"docs":"ada":{}', false, { principal: 'ada' }) // { key: 'nuxt-mcp-cache:…', owner: 'nuxt-mcp-cache:…' }
 * cacheSlot('cache:/mcp:"docs":*:{}', true, { address: '10.0.0.1' }) // { key: …, owner: the hash of 'address:10.0.0.1' }
 * cacheSlot('cache:/mcp:"docs":"":{}', false, undefined) // undefined
 * ```
 */
export function cacheSlot(text: string, shared: boolean, caller: CacheCaller | undefined): CacheSlot | undefined {
  const principal = caller?.principal || undefined
  if (!shared && !principal) return undefined
  return { key: hashCacheKey(text), owner: hashCacheKey(`owner:${callerKeyOf(principal, caller?.address ?? '')}`) }
}

/**
 * What keeping `value` in `slot` counts against the budget: its key, its value and
 * {@link ENTRY_OVERHEAD_BYTES}.
 *
 * @example
 * ```ts
 * entryBytes(cacheSlot('k', true, undefined)!, 'x') // 256 + 79 + 1
 * ```
 */
export function entryBytes(slot: CacheSlot, value: string): number {
  return ENTRY_OVERHEAD_BYTES + utf8Bytes(slot.key) + utf8Bytes(value)
}

/**
 * `store`, keeping no entry over `maxEntryBytes`: the one bound every store has (a Nitro storage
 * driver counts no bytes).
 *
 * @example
 * ```ts
 * const store = capEntries(storageCacheStore(useStorage('mcp-cache')), 1024 * 1024)
 * ```
 */
export function capEntries(store: McpCacheStore, maxEntryBytes: number): McpCacheStore {
  return {
    get: key => store.get(key),
    put: async (slot, value, ttlMs) => utf8Bytes(value) <= maxEntryBytes && await store.put(slot, value, ttlMs),
  }
}

interface MemoryEntry {
  value: string
  owner: string
  bytes: number
  expires: number
}

/**
 * The in-process cache, with what it holds in bytes (for tests and diagnostics).
 *
 * @example
 * ```ts
 * const store: MemoryCacheStore = memoryCacheStore(config.cache)
 * store.keptBytes() // 0
 * ```
 */
export interface MemoryCacheStore extends McpCacheStore {
  /** The bytes ({@link entryBytes}) of the entries not yet dropped. */
  keptBytes: () => number
}

/**
 * The result cache in this process, bounded in bytes: an entry that would take the cache past
 * `maxBytes`, or its caller past `maxBytesPerCaller`, is not kept (nothing unexpired is evicted
 * for it: one caller's results never push out another's).
 *
 * @example
 * ```ts
 * const store = memoryCacheStore({ maxEntryBytes: 1 << 20, maxBytes: 64 << 20, maxBytesPerCaller: 8 << 20 })
 * ```
 */
export function memoryCacheStore(bounds: CacheBounds): MemoryCacheStore {
  const entries = new Map<string, MemoryEntry>()
  const owners = new Map<string, number>()
  let total = 0
  let sweptAt = Number.NEGATIVE_INFINITY

  function drop(key: string): void {
    const entry = entries.get(key)
    if (!entry) return
    entries.delete(key)
    total -= entry.bytes
    const left = (owners.get(entry.owner) ?? 0) - entry.bytes
    if (left > 0) owners.set(entry.owner, left)
    else owners.delete(entry.owner)
  }

  function fits(owner: string, bytes: number): boolean {
    return total + bytes <= bounds.maxBytes && (owners.get(owner) ?? 0) + bytes <= bounds.maxBytesPerCaller
  }

  return {
    async get(key) {
      const entry = entries.get(key)
      if (entry && entry.expires <= Date.now()) drop(key)
      return entry && entry.expires > Date.now() ? entry.value : undefined
    },
    async put(slot, value, ttlMs) {
      const now = Date.now()
      const bytes = entryBytes(slot, value)
      drop(slot.key)
      if (!fits(slot.owner, bytes)) {
        // Only what expired makes room; an unexpired entry is never pushed out for another. At
        // most one sweep a second: a caller at their share would otherwise make every miss walk
        // every entry.
        if (now - sweptAt < SWEEP_EVERY_MS) return false
        sweptAt = now
        for (const [key, entry] of entries) if (entry.expires <= now) drop(key)
        if (!fits(slot.owner, bytes)) return false
      }
      entries.set(slot.key, { value, owner: slot.owner, bytes, expires: now + ttlMs })
      total += bytes
      owners.set(slot.owner, (owners.get(slot.owner) ?? 0) + bytes)
      return true
    },
    keptBytes: () => total,
  }
}

/**
 * The result cache in Redis (`NUXT_MCP_REDIS_URL`), shared by every instance and bounded in
 * bytes as {@link memoryCacheStore} is: the check and the write are one step in Redis
 * (`McpSharedState.keepWithin`), so the budget holds across instances.
 *
 * @example
 * ```ts
 * const store = sharedCacheStore(useMcpSharedState(config, '/mcp')!, config.cache)
 * ```
 */
export function sharedCacheStore(shared: Promise<McpSharedState>, bounds: CacheBounds): McpCacheStore {
  return {
    get: async key => (await shared).get(key),
    put: async (slot, value, ttlMs) => (await shared).keepWithin(slot.key, value, ttlMs, { owner: slot.owner, bytes: entryBytes(slot, value), maxBytes: bounds.maxBytes, maxOwnerBytes: bounds.maxBytesPerCaller }),
  }
}

/**
 * The part of a Nitro storage mount (`useStorage('<mount>')`, unstorage's `Storage`) the result
 * cache needs. Structural, so this wing knows no Nitro: the entry point hands the mount in.
 *
 * @example
 * ```ts
 * const storage: McpCacheStorage = useStorage('mcp-cache')
 * ```
 */
export interface McpCacheStorage {
  getItem: (key: string) => Promise<unknown>
  setItem: (key: string, value: string, options?: { ttl?: number }) => Promise<void>
}

// Cloudflare KV refuses an expiry under 60 s; the entry's own expiry below is the one that counts.
const MIN_DRIVER_TTL_SECONDS = 60

/**
 * A result cache on a Nitro storage mount (`mcp.cache.storage`): Redis, a Cloudflare KV binding,
 * the file system, whatever driver the app mounted, so several instances (or Workers isolates)
 * serve one another's results. Keys come hashed, as for every store (`hashCacheKey`: drivers map
 * keys to paths and forbid characters a key's text may hold); each entry carries its own expiry,
 * as most drivers ignore `ttl`. Drivers count no bytes: the per-entry cap is this store's bound.
 *
 * @example
 * ```ts
 * const cacheStore = storageCacheStore(useStorage('mcp-cache'))
 * ```
 */
export function storageCacheStore(storage: McpCacheStorage): McpCacheStore {
  return {
    async get(key) {
      // unstorage hands JSON back parsed; a driver that does not, as text.
      const raw = await storage.getItem(key)
      const entry: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw
      if (!isRecord(entry) || typeof entry.value !== 'string' || typeof entry.expiresAt !== 'number') return undefined
      return entry.expiresAt > Date.now() ? entry.value : undefined
    },
    async put(slot, value, ttlMs) {
      const ttl = Math.max(MIN_DRIVER_TTL_SECONDS, Math.ceil(ttlMs / 1000))
      await storage.setItem(slot.key, JSON.stringify({ value, expiresAt: Date.now() + ttlMs }), { ttl })
      return true
    },
  }
}

/**
 * Where an endpoint's tools and resources keep cached results, or `undefined` when none has a `cache`. Apart
 * from the replay guard's records: a busy cache must never make `once()` unavailable. On the
 * app's Nitro storage mount when `mcp.cache.storage` names one (no entry over
 * `bounds.maxEntryBytes`: its drivers count no bytes), else in Redis when the instances share
 * state, else in this process, both within all of `bounds`.
 *
 * @example
 * ```ts
 * const cacheStore = createResultCacheStore([...registry.tools.values(), ...registry.resources.values()], shared, undefined, config.cache)
 * ```
 */
export function createResultCacheStore(definitions: readonly { cache?: { ttlMs: number } }[], shared: Promise<McpSharedState> | undefined, storage: McpCacheStorage | undefined, bounds: CacheBounds): McpCacheStore | undefined {
  if (!definitions.some(definition => definition.cache)) return undefined
  if (storage && (bounds.maxBytes !== CACHE_BYTE_DEFAULTS.maxBytes || bounds.maxBytesPerCaller !== CACHE_BYTE_DEFAULTS.maxBytesPerCaller)) {
    console.warn(`[nuxt-mcp-elicitation] mcp.cache.maxBytes and mcp.cache.maxBytesPerCaller are not counted on a Nitro storage mount (mcp.cache.storage), whose drivers count no bytes: there only mcp.cache.maxEntryBytes (${bounds.maxEntryBytes}) bounds the cache. Bound the mount itself (e.g. Redis maxmemory), or unset mcp.cache.storage to keep results in Redis (NUXT_MCP_REDIS_URL) or in this process within those budgets.`)
  }
  // The app's own Nitro storage mount when it names one (`mcp.cache.storage`), e.g. a KV binding.
  const store = storage ? storageCacheStore(storage) : shared ? sharedCacheStore(shared, bounds) : memoryCacheStore(bounds)
  return capEntries(store, bounds.maxEntryBytes)
}

/**
 * What to log when the endpoint at `route` keeps results per caller (`scope: 'principal'`, the
 * default) but no request can have a principal (neither `mcp.auth` nor an `mcp:auth` hook): such
 * a cache keeps nothing. `undefined` when no definition has one.
 *
 * @example
 * ```ts
 * anonymousCacheWarning('/mcp', [...registry.tools.values()]) // 'The MCP endpoint /mcp keeps results per caller for the tool "docs" (…)…'
 * ```
 */
export function anonymousCacheWarning(route: string, definitions: readonly { name: string, file: string, cache?: { shared: boolean } }[]): string | undefined {
  const perCaller = definitions.filter(definition => definition.cache && !definition.cache.shared).map(definition => `"${definition.name}" (${definition.file})`)
  if (perCaller.length === 0) return undefined
  return `[nuxt-mcp-elicitation] The MCP endpoint ${route} keeps results per caller (cache scope 'principal', the default) for ${perCaller.join(', ')}, but has neither mcp.auth nor an mcp:auth hook: no call has a principal, so these results are never cached. Authenticate callers (mcp.auth, or an mcp:auth hook that sets auth.principal), or write cache: { maxAge, scope: 'shared' } where the result does not depend on who asks. (Logged once.)`
}
