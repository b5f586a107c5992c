import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import type { McpStateStore } from '../common/store/store'
import { isRecord } from '../common/is-record'

/**
 * The part of a Nitro storage mount (`useStorage('<mount>')`, unstorage's `Storage`) the result
 * cache needs. Structural, so this wing knows no Nitro: the entry point hands the mount in.
 */
export interface McpCacheStorage {
  getItem: (key: string) => Promise<unknown>
  setItem: (key: string, value: string, options?: { ttl?: number }) => Promise<void>
}

/** Where cached results are read and kept: the replay guard's store shape, without its claims. */
export type McpCacheStore = Pick<McpStateStore, 'get' | 'put'>

// Cloudflare KV refuses an expiry under 60 s; the entry's own expiry below is the one that counts.
const MIN_DRIVER_TTL_SECONDS = 60

/**
 * A result cache on a Nitro storage mount (`mcp.cache.storage`): Redis, a Cloudflare KV binding,
 * the file system, whatever driver the app mounted, so several instances (or Workers isolates)
 * serve one another's results. Keys are hashed (drivers map keys to paths and forbid characters
 * a cache key may hold); each entry carries its own expiry, as most drivers ignore `ttl`.
 *
 * @example
 * ```ts
 * const cacheStore = storageCacheStore(useStorage('mcp-cache'))
 * ```
 */
export function storageCacheStore(storage: McpCacheStorage): McpCacheStore {
  const keyOf = (key: string) => `nuxt-mcp-cache:${bytesToHex(sha256(utf8ToBytes(key)))}`
  return {
    async get(key) {
      // unstorage hands JSON back parsed; a driver that does not, as text.
      const raw = await storage.getItem(keyOf(key))
      const entry: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw
      if (!isRecord(entry) || typeof entry.value !== 'string' || typeof entry.expiresAt !== 'number') return undefined
      return entry.expiresAt > Date.now() ? entry.value : undefined
    },
    async put(key, value, ttlMs) {
      const ttl = Math.max(MIN_DRIVER_TTL_SECONDS, Math.ceil(ttlMs / 1000))
      await storage.setItem(keyOf(key), JSON.stringify({ value, expiresAt: Date.now() + ttlMs }), { ttl })
    },
  }
}
