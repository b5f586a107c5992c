import { isRecord } from '../../common/is-record'
import type { McpCacheStore } from './store'

/**
 * The part of a Nitro storage mount (`useStorage('<mount>')`, unstorage's `Storage`) the result
 * cache needs. Structural, so this wing knows no Nitro: the entry point hands the mount in.
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
