import { McpStoreUnavailableError } from './store'
import type { McpStateStore } from './store'

/** Most records the in-process store holds; past it, new claims fail closed. */
export const MEMORY_STORE_MAX_ENTRIES = 100_000

interface Entry {
  value: string | undefined
  expires: number
}

/**
 * The in-process {@link McpStateStore}: a map with expiry, in this process only. Bounded: when
 * it is full of unexpired records a new claim or record fails with
 * {@link McpStoreUnavailableError} instead of dropping a record someone relies on.
 *
 * @example
 * ```ts
 * const store = createMemoryStore()
 * if (await store.claim('once:flow:charge', 60_000)) await charge()
 * ```
 */
export function createMemoryStore(maxEntries = MEMORY_STORE_MAX_ENTRIES): McpStateStore {
  const entries = new Map<string, Entry>()

  function live(key: string, now: number): Entry | undefined {
    const entry = entries.get(key)
    if (entry && entry.expires <= now) {
      entries.delete(key)
      return undefined
    }
    return entry
  }

  function makeRoom(now: number): void {
    if (entries.size < maxEntries) return
    for (const [key, entry] of entries) if (entry.expires <= now) entries.delete(key)
    if (entries.size >= maxEntries) {
      throw new McpStoreUnavailableError(`The in-process MCP store holds ${maxEntries} unexpired records (one per once() step replayed within its flow's state lifetime): retry later, or shorten mcp.elicitation.stateTtlSeconds.`)
    }
  }

  return {
    async claim(key, ttlMs) {
      const now = Date.now()
      if (live(key, now)) return false
      makeRoom(now)
      entries.set(key, { value: undefined, expires: now + ttlMs })
      return true
    },
    async put(key, value, ttlMs) {
      const now = Date.now()
      if (!entries.has(key)) makeRoom(now)
      entries.set(key, { value, expires: now + ttlMs })
    },
    async get(key) {
      return live(key, Date.now())?.value
    },
    async delete(key) {
      entries.delete(key)
    },
  }
}
