import { McpStoreUnavailableError } from '../store/store'
import type { McpStateStore } from '../store/store'

/**
 * A store usable at once whose backing store is still connecting: each call waits for it. A
 * connection that failed (the client package missing) fails each call as unavailable, so a
 * `once()` step fails closed instead of running unguarded.
 *
 * @example
 * ```ts
 * const store = deferredStore(connectRedisState(options))
 * ```
 */
export function deferredStore(ready: Promise<McpStateStore>): McpStateStore {
  async function backing(): Promise<McpStateStore> {
    try {
      return await ready
    }
    catch (error) {
      throw new McpStoreUnavailableError(error instanceof Error ? error.message : String(error), { cause: error })
    }
  }
  return {
    claim: async (key, ttlMs) => (await backing()).claim(key, ttlMs),
    put: async (key, value, ttlMs) => (await backing()).put(key, value, ttlMs),
    get: async key => (await backing()).get(key),
  }
}
