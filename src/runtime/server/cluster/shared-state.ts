import type { McpStateStore } from '../common/store/store'

/**
 * What several instances of one endpoint share (`NUXT_MCP_REDIS_URL`): records with an expiry,
 * atomic claims, and messages between instances. Keys and channels are given unprefixed; the
 * implementation puts its prefix and the endpoint's route in front, so two endpoints never meet.
 * Every method fails with `McpStoreUnavailableError` when the shared store cannot be reached.
 */
export interface McpSharedState extends McpStateStore {
  /** This process's tag, unique among the instances: it addresses messages to this instance. */
  readonly instanceId: string
  /**
   * Keeps `value` under `key` for `ttlMs`, counting `budget.bytes` against what is kept this way
   * in all (`maxBytes`) and by `budget.owner` (`maxOwnerBytes`), in one step; `false`, and nothing
   * kept, when either would be passed. Entries that expired give their bytes back; none is evicted.
   */
  keepWithin: (key: string, value: string, ttlMs: number, budget: { owner: string, bytes: number, maxBytes: number, maxOwnerBytes: number }) => Promise<boolean>
  /** Removes `key` and returns what it held, in one step: of two callers, one gets the value. */
  take: (key: string) => Promise<string | undefined>
  /** Removes `key` (no error when it is absent). */
  delete: (key: string) => Promise<void>
  /** Keeps an existing `key` for `ttlMs` more; `false` when it is gone. */
  touch: (key: string, ttlMs: number) => Promise<boolean>
  /** Puts `member` in the ranked set `key` with `score` (or moves it there), and keeps the set `ttlMs` from now, in one step. */
  rank: (key: string, member: string, score: number, ttlMs: number) => Promise<void>
  /**
   * Ranks `member` with `score` in every set of `limits` and keeps each `ttlMs` from now, in one
   * step, only when each set (its members scored under `minScore` dropped first) holds fewer than
   * its `max` members other than `member`. The index of the first full set, or -1 when ranked.
   */
  rankWithin: (limits: { key: string, max: number }[], member: string, score: number, ttlMs: number, minScore: number) => Promise<number>
  /** Takes `member` out of the ranked set `key`. */
  unrank: (key: string, member: string) => Promise<void>
  /** Drops the members of `key` scored under `minScore`; returns how many are left, lowest scores first. */
  ranked: (key: string, minScore: number) => Promise<string[]>
  /**
   * Adds `values` at the end of the list `key` and keeps the list `ttlMs` from now, in one step;
   * with `keepLast`, the list then holds its first item (a header) and its last `keepLast` others,
   * and with `keepBytes` too, only as many of the newest of those as fit in `keepBytes` bytes
   * (the newest always): their bytes are counted beside the list, in {@link byteCountKey}, which
   * expires with it.
   */
  append: (key: string, values: string[], ttlMs: number, keepLast?: number, keepBytes?: number) => Promise<void>
  /** The whole list `key` (empty when it is absent). */
  list: (key: string) => Promise<string[]>
  /** Removes the first `count` items of the list `key` (what a reader took; items added since stay). */
  shift: (key: string, count: number) => Promise<void>
  /** One field of the hash `key`. */
  hashGet: (key: string, field: string) => Promise<string | undefined>
  /**
   * Sets one field of the hash `key` and keeps the hash `ttlMs` from now, in one step; with
   * `maxFields`, only when the field exists or the hash holds fewer than that (`'full'`), and with
   * `whileExists`, only while that key exists (`'absent'`): checked in the same step, so two
   * instances cannot both take the last place, nor a write follow the removal it depends on.
   */
  hashSet: (key: string, field: string, value: string, ttlMs: number, only?: { maxFields?: number, whileExists?: string }) => Promise<'set' | 'full' | 'absent'>
  /** Removes fields of the hash `key`. */
  hashDelete: (key: string, fields: string[]) => Promise<void>
  /** Every field of the hash `key` (empty when it is absent). */
  hashAll: (key: string) => Promise<Record<string, string>>
  /** Delivers `message` to every instance listening on `channel` (this one included); resolves with how many listeners got it. */
  publish: (channel: string, message: string) => Promise<number>
  /**
   * Listens on `channel` for as long as the state is open. `subscribed` runs each time the
   * subscription takes effect: at first, and again after every reconnection of the subscriber
   * (what was published meanwhile reached nobody here: a reader of a durable inbox reads it then).
   */
  subscribe: (channel: string, listener: (message: string) => void, subscribed?: () => void) => Promise<void>
  close: () => Promise<void>
}

/**
 * Where a bounded list's bytes are counted (`append` with `keepLast`): beside the list, so that
 * trimming by bytes never reads the whole list.
 *
 * @example
 * ```ts
 * byteCountKey('events:abc:x.s1') // 'events:abc:x.s1:bytes'
 * ```
 */
export function byteCountKey(key: string): string {
  return `${key}:bytes`
}

/** The channel every instance listens on. */
export const BROADCAST_CHANNEL = 'all'
