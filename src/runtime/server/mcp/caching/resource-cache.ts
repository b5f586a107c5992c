import type { CacheScope, ReadResourceResult } from '@modelcontextprotocol/server'
import { cacheSlot, type CacheCaller, type CacheSlot, type McpCacheStore } from './store'
import { isRecord } from '../../common/is-record'
import { cacheDurationMs, canonicalJson } from './tool-cache'

/**
 * A resource's `cache` option: how long a read is served again for the same URI and caller, and
 * what 2026-07-28 clients are told they may keep (`ttlMs` / `cacheScope` on the result). A duration
 * (`'30s'`, `'10m'`, `'2h'`, `'1d'`, or a number of seconds), or the object form.
 */
export type McpResourceCache = string | number | McpResourceCacheOptions

export interface McpResourceCacheOptions {
  /** How long a read is served again: a duration string or seconds. */
  maxAge: string | number
  /**
   * `principal` (the default): each caller has their own entries, and clients are told
   * `cacheScope: 'private'`. `shared`: one entry for everyone, `cacheScope: 'public'` (only for
   * content that does not depend on who reads it).
   */
  scope?: 'principal' | 'shared'
  /** The key for this read, instead of its URI (e.g. to ignore a query parameter). */
  getKey?: (uri: URL, variables: Record<string, string | string[]>) => string
}

/** A resource's cache, resolved once when the registry is built. */
export interface ResourceCachePlan {
  ttlMs: number
  shared: boolean
  getKey?: (uri: URL, variables: Record<string, string | string[]>) => string
}

/**
 * Reads a resource's `cache` option, or throws naming the resource and the fix. The hint-only
 * form of earlier versions (`{ ttlMs, scope: 'public' | 'private' }`) is refused rather than half
 * honoured: the hint now follows from what the server keeps.
 *
 * @example
 * ```ts
 * planResourceCache({ maxAge: '1h', scope: 'shared' }, 'The resource "docs"') // { ttlMs: 3600000, shared: true }
 * ```
 */
export function planResourceCache(option: McpResourceCache, where: string): ResourceCachePlan {
  if (typeof option === 'object' && Object.hasOwn(option, 'ttlMs')) {
    throw new Error(`[nuxt-mcp-elicitation] ${where}: \`cache: { ttlMs, scope }\` is the old hint-only form. Write \`cache: { maxAge: '60s', scope: 'shared' }\` (scope 'shared' for what was 'public', 'principal' for 'private'): the server then keeps the read too, and tells 2026-07-28 clients the same ttlMs and cacheScope.`)
  }
  const options = typeof option === 'object' ? option : { maxAge: option }
  return { ttlMs: cacheDurationMs(options.maxAge, where), shared: options.scope === 'shared', ...(options.getKey && { getKey: options.getKey }) }
}

/**
 * Where one read is kept: endpoint, resource, caller (unless shared) and URI (or `getKey`'s
 * value as canonical JSON), hashed; `undefined` for a per-caller cache read without a principal,
 * or a `getKey` value that is not plain JSON (a `Map` would be `{}` for every read): not kept.
 *
 * @example
 * ```ts
 * resourceCacheSlot(plan, '/mcp', 'docs', { principal: 'ada' }, new URL('docs://a'), {}) // { key: 'nuxt-mcp-cache:…', owner: … }
 * ```
 */
export function resourceCacheSlot(plan: ResourceCachePlan, route: string, resource: string, caller: CacheCaller | undefined, uri: URL, variables: Record<string, string | string[]>): CacheSlot | undefined {
  const key = plan.getKey ? canonicalJson(plan.getKey(uri, variables)) : JSON.stringify(uri.href)
  if (key === undefined) return undefined
  const who = plan.shared ? '*' : JSON.stringify(caller?.principal ?? '')
  return cacheSlot(`resource-cache:${route}:${JSON.stringify(resource)}:${who}:${key}`, plan.shared, caller)
}

/**
 * The 2026-07-28 cache fields of a read: how long the client may keep it (what is left of the
 * server's own entry, so a client never keeps it longer than the server would) and for whom.
 *
 * @example
 * ```ts
 * cacheHint(plan, 42_000) // { ttlMs: 42000, cacheScope: 'private' }
 * ```
 */
export function cacheHint(plan: ResourceCachePlan, remainingMs: number): { ttlMs: number, cacheScope: CacheScope } {
  return { ttlMs: Math.max(0, Math.round(remainingMs)), cacheScope: plan.shared ? 'public' : 'private' }
}

/**
 * A kept read and how long it has left, or `undefined`; a store that cannot be read, or an entry
 * past its age, is a miss (the handler runs).
 *
 * @example
 * ```ts
 * const hit = await readCachedResource(store, slot.key, plan.ttlMs)
 * if (hit) return { ...hit.result, ...cacheHint(plan, hit.remainingMs) }
 * ```
 */
export async function readCachedResource(store: McpCacheStore, key: string, ttlMs: number): Promise<{ result: ReadResourceResult, remainingMs: number } | undefined> {
  let entry: unknown
  try {
    const text = await store.get(key)
    entry = text === undefined ? undefined : JSON.parse(text)
  }
  catch {
    return undefined
  }
  if (!isRecord(entry) || typeof entry.at !== 'number' || !isReadResult(entry.result)) return undefined
  const remainingMs = entry.at + ttlMs - Date.now()
  return remainingMs > 0 ? { result: entry.result, remainingMs } : undefined
}

function isReadResult(value: unknown): value is ReadResourceResult {
  return isRecord(value) && Array.isArray(value.contents)
}

/**
 * Keeps a read with the time it was made; a full or unreachable store keeps nothing.
 *
 * @example
 * ```ts
 * await keepResource(store, slot, result, plan.ttlMs)
 * ```
 */
export async function keepResource(store: McpCacheStore, slot: CacheSlot, result: ReadResourceResult, ttlMs: number): Promise<void> {
  try {
    await store.put(slot, JSON.stringify({ at: Date.now(), result }), ttlMs)
  }
  catch {
    // A cache that cannot keep an entry costs a re-run, never the read.
  }
}
