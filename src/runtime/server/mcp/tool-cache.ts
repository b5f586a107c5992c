import type { McpSharedState } from '../cluster/shared-state'
import { CACHE_BYTE_DEFAULTS } from '../common/config'
import { storageCacheStore, type McpCacheStorage } from './cache-storage'
import { cacheSlot, capEntries, memoryCacheStore, sharedCacheStore, type CacheBounds, type CacheCaller, type CacheSlot, type McpCacheStore } from './cache-store'

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

/**
 * The canonical JSON of `value` (object keys sorted, so `{ a, b }` and `{ b, a }` are one key),
 * or `undefined` when it is not plain JSON: a `Date`, `URL` or `Map` (which `JSON.stringify`
 * writes as `{}` or a string, so two values would share a key), a class instance, a function, a
 * number JSON cannot hold. `undefined` as a value is written as `~`, which no JSON text is, so it
 * never meets `null`.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [null, undefined] }) // '{"a":[null,~],"b":1}'
 * canonicalJson({ at: new Date() }) // undefined
 * ```
 */
export function canonicalJson(value: unknown): string | undefined {
  if (value === undefined) return '~'
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : undefined
  if (Array.isArray(value)) {
    const items = value.map(canonicalJson)
    return items.every(item => item !== undefined) ? `[${items.join(',')}]` : undefined
  }
  if (typeof value !== 'object') return undefined
  const prototype: unknown = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return undefined
  const fields: string[] = []
  for (const key of Object.keys(value).sort()) {
    const field = canonicalJson(Reflect.get(value, key))
    if (field === undefined) return undefined
    fields.push(`${JSON.stringify(key)}:${field}`)
  }
  return `{${fields.join(',')}}`
}

/**
 * The arguments part of a call's key: `getKey`'s value as canonical JSON (none when it is not
 * plain JSON: a `Map` would be `{}` for every call), else the parsed arguments when they are plain
 * JSON (so a default the schema fills in is one entry with or without it), else the arguments as
 * sent (a schema that turns a string into a `URL`, say: parsed, every link would look alike).
 * Tagged, so the three never meet; `undefined` when not even what was sent is plain JSON.
 *
 * @example
 * ```ts
 * argumentsKey(plan, { page: 2 }, { page: 2 }) // 'parsed:{"page":2}'
 * ```
 */
export function argumentsKey(plan: ToolCachePlan, parsed: Record<string, unknown>, sent: unknown): string | undefined {
  if (plan.getKey) {
    const key = canonicalJson(plan.getKey(parsed))
    return key === undefined ? undefined : `key:${key}`
  }
  const plain = canonicalJson(parsed)
  if (plain !== undefined) return `parsed:${plain}`
  const raw = canonicalJson(sent)
  return raw === undefined ? undefined : `sent:${raw}`
}

/**
 * Where one call's result is kept: endpoint, tool, caller (unless shared) and arguments
 * ({@link argumentsKey}), hashed; `undefined` when it is not kept (a per-caller cache and no
 * principal, or arguments that are not JSON).
 *
 * @example
 * ```ts
 * toolCacheSlot(plan, '/mcp', 'docs', { principal: 'ada' }, { page: 2 }, { page: 2 }) // { key: 'nuxt-mcp-cache:…', owner: … }
 * ```
 */
export function toolCacheSlot(plan: ToolCachePlan, route: string, tool: string, caller: CacheCaller | undefined, parsed: Record<string, unknown>, sent: unknown): CacheSlot | undefined {
  const args = argumentsKey(plan, parsed, sent)
  if (args === undefined) return undefined
  const who = plan.shared ? '*' : JSON.stringify(caller?.principal ?? '')
  return cacheSlot(`cache:${route}:${JSON.stringify(tool)}:${who}:${args}`, plan.shared, caller)
}

/**
 * A cached result, or `undefined`; a store that cannot be read is a miss (the tool runs).
 *
 * @example
 * ```ts
 * const hit = await readCachedResult(store, slot.key)
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
 * await keepResult(store, slot, result, plan.ttlMs)
 * ```
 */
export async function keepResult(store: McpCacheStore, slot: CacheSlot, result: unknown, ttlMs: number): Promise<void> {
  try {
    await store.put(slot, JSON.stringify(result), ttlMs)
  }
  catch {
    // A cache that cannot keep an entry costs a re-run, never the call.
  }
}
