import { McpStoreUnavailableError, SHARED_STATE_UNAVAILABLE } from '../common/store/store'
import type { McpStateStore } from '../common/store/store'

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
      // (Why it failed, e.g. ioredis not installed, is for the server's log, not for clients.)
      const detail = error instanceof McpStoreUnavailableError ? error.detail : error instanceof Error ? error.message : String(error)
      throw new McpStoreUnavailableError(SHARED_STATE_UNAVAILABLE, { cause: error, detail })
    }
  }
  return {
    claim: async (key, ttlMs) => (await backing()).claim(key, ttlMs),
    put: async (key, value, ttlMs) => (await backing()).put(key, value, ttlMs),
    get: async key => (await backing()).get(key),
    delete: async key => (await backing()).delete(key),
  }
}
