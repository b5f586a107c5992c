import { createMemoryStore } from '../common/store/memory'
import type { McpStateStore } from '../common/store/store'
import { deferredStore } from '../common/shared/deferred-store'
import type { McpSharedState } from '../common/shared/shared-state'
import { storageCacheStore, type McpCacheStorage, type McpCacheStore } from './cache-storage'

/** Cached tool and resource results one process keeps at most (beyond it, results are simply not kept). */
const TOOL_CACHE_MAX_ENTRIES = 10_000

/**
 * Where an endpoint's tools and resources keep cached results, or `undefined` when none has a `cache`. Apart
 * from the replay guard's records: a busy cache must never make `once()` unavailable. On the
 * app's Nitro storage mount when `mcp.cache.storage` names one, else in Redis when the instances
 * share state, else in this process, bounded.
 *
 * @example
 * ```ts
 * const cacheStore = createResultCacheStore([...registry.tools.values(), ...registry.resources.values()], shared)
 * ```
 */
export function createResultCacheStore(definitions: readonly { cache?: { ttlMs: number } }[], shared: Promise<McpSharedState> | undefined, storage?: McpCacheStorage): McpCacheStore | undefined {
  if (!definitions.some(definition => definition.cache)) return undefined
  // The app's own Nitro storage mount when it names one (`mcp.cache.storage`), e.g. a KV binding.
  if (storage) return storageCacheStore(storage)
  return shared ? deferredStore(shared) : createMemoryStore(TOOL_CACHE_MAX_ENTRIES)
}

/**
 * A tool's `cache` option: how long a result may be served again for the same arguments.
 * A duration (`'30s'`, `'10m'`, `'2h'`, `'1d'`, or a number of seconds), or the object form.
 */
export type McpToolCache = string | number | McpToolCacheOptions

export interface McpToolCacheOptions {
  /** How long a result is served again: a duration string or seconds. */
  maxAge: string | number
  /**
   * `principal` (the default): each caller has their own entries, so one person's result never
   * reaches another. `shared`: one entry for everyone (only for results that do not depend on who asks).
   */
  scope?: 'principal' | 'shared'
  /** The key for these arguments, instead of their JSON (e.g. to ignore an argument). */
  getKey?: (args: Record<string, unknown>) => string
}

/** A tool's cache, resolved once when the registry is built. */
export interface ToolCachePlan {
  ttlMs: number
  shared: boolean
  getKey?: (args: Record<string, unknown>) => string
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/**
 * A cache's `maxAge` in milliseconds, or throws naming the definition and the fix.
 *
 * @example
 * ```ts
 * cacheDurationMs('10m', 'The resource "docs"') // 600000
 * ```
 */
export function cacheDurationMs(value: string | number, where: string): number {
  const ms = typeof value === 'number' ? value * 1000 : (() => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(value)
    return match ? Number(match[1]) * (UNITS[match[2]!] ?? 0) : Number.NaN
  })()
  if (!Number.isFinite(ms) || ms <= 0) {
    throw new Error(`[nuxt-mcp-elicitation] ${where}: its cache maxAge ${JSON.stringify(value)} is not a duration. Write a positive number of seconds, or a string such as '30s', '10m', '2h' or '1d'.`)
  }
  return ms
}

/**
 * Reads a tool's `cache` option, or throws naming the tool and the fix.
 *
 * @example
 * ```ts
 * planToolCache('10m', 'The tool "docs"') // { ttlMs: 600000, shared: false }
 * ```
 */
export function planToolCache(option: McpToolCache, where: string): ToolCachePlan {
  const options = typeof option === 'object' ? option : { maxAge: option }
  return { ttlMs: cacheDurationMs(options.maxAge, where), shared: options.scope === 'shared', ...(options.getKey && { getKey: options.getKey }) }
}

/** JSON with object keys sorted, so `{ a, b }` and `{ b, a }` are one key. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value).sort().map(key => `${JSON.stringify(key)}:${stableJson(Reflect.get(value, key))}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/**
 * The store key of one call: endpoint, tool, caller (unless shared) and arguments.
 *
 * @example
 * ```ts
 * toolCacheKey(plan, '/mcp', 'docs', 'ada', { page: 2 }) // 'cache:/mcp:"docs":"ada":{"page":2}'
 * ```
 */
export function toolCacheKey(plan: ToolCachePlan, route: string, tool: string, principal: string | undefined, args: Record<string, unknown>): string {
  const who = plan.shared ? '*' : JSON.stringify(principal ?? '')
  return `cache:${route}:${JSON.stringify(tool)}:${who}:${plan.getKey ? JSON.stringify(plan.getKey(args)) : stableJson(args)}`
}

/**
 * A cached result, or `undefined`; a store that cannot be read is a miss (the tool runs).
 *
 * @example
 * ```ts
 * const hit = await readCachedResult(store, key)
 * ```
 */
export async function readCachedResult(store: McpCacheStore, key: string): Promise<unknown> {
  try {
    const text = await store.get(key)
    return text === undefined ? undefined : JSON.parse(text)
  }
  catch {
    return undefined
  }
}

/**
 * Keeps a result; a full or unreachable store just keeps nothing (the next call runs the tool).
 *
 * @example
 * ```ts
 * await keepResult(store, key, result, plan.ttlMs)
 * ```
 */
export async function keepResult(store: McpCacheStore, key: string, result: unknown, ttlMs: number): Promise<void> {
  try {
    await store.put(key, JSON.stringify(result), ttlMs)
  }
  catch {
    // A cache that cannot keep an entry costs a re-run, never the call.
  }
}
