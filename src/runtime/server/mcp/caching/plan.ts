/**
 * The caching room (`mcp/caching/`): a definition's `cache` option read once into a plan, the key
 * of one call or read, and the reading and keeping of its result, one way for tools and resources
 * alike (this file); where results are kept, in this process, in Redis or on the app's Nitro
 * storage mount, within their byte bounds (`store.ts`). It must not know the server, the registry
 * or the request: the handlers hand it a plan, a caller and what to key on; the entry point hands
 * it the storage mount.
 */
import type { CacheScope, ReadResourceResult } from '@modelcontextprotocol/server'
import { isRecord } from '../../common/is-record'
import { cacheSlot, type CacheCaller, type CacheSlot, type McpCacheStore } from './store'

/**
 * A tool's `cache` option: how long a result may be served again for the same arguments.
 * A duration (`'30s'`, `'10m'`, `'2h'`, `'1d'`, or a number of seconds), or the object form.
 *
 * @example
 * ```ts
 * export default defineMcpTool({ name: 'docs', cache: { maxAge: '10m', scope: 'shared' }, handler: () => 'docs' })
 * ```
 */
export type McpToolCache = string | number | McpToolCacheOptions

/**
 * The object form of a tool's `cache`.
 *
 * @example
 * ```ts
 * const cache: McpToolCacheOptions = { maxAge: '10m', getKey: args => String(args.page) }
 * ```
 */
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

/**
 * A resource's `cache` option: how long a read is served again for the same URI and caller, and
 * what 2026-07-28 clients are told they may keep (`ttlMs` / `cacheScope` on the result). A duration
 * (`'30s'`, `'10m'`, `'2h'`, `'1d'`, or a number of seconds), or the object form.
 *
 * @example
 * ```ts
 * export default defineMcpResource({ uri: 'docs://index', cache: '1h', handler: () => 'index' })
 * ```
 */
export type McpResourceCache = string | number | McpResourceCacheOptions

/**
 * The object form of a resource's `cache`.
 *
 * @example
 * ```ts
 * const cache: McpResourceCacheOptions = { maxAge: '1h', scope: 'shared', getKey: uri => uri.pathname }
 * ```
 */
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

/**
 * A definition's cache, resolved once when the registry is built: the same for a tool and a
 * resource but for what `getKey` is given.
 *
 * @example
 * ```ts
 * const plan: CachePlan<never> = { ttlMs: 600_000, shared: false }
 * ```
 */
export interface CachePlan<GetKey> {
  ttlMs: number
  shared: boolean
  getKey?: GetKey
}

/**
 * A tool's cache plan: `getKey` is given the parsed arguments.
 *
 * @example
 * ```ts
 * const plan: ToolCachePlan = planToolCache('10m', 'The tool "docs"')
 * ```
 */
export type ToolCachePlan = CachePlan<NonNullable<McpToolCacheOptions['getKey']>>

/**
 * A resource's cache plan: `getKey` is given the URI and the template's variables.
 *
 * @example
 * ```ts
 * const plan: ResourceCachePlan = planResourceCache('1h', 'The resource "docs"')
 * ```
 */
export type ResourceCachePlan = CachePlan<NonNullable<McpResourceCacheOptions['getKey']>>

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
 * Reads a definition's `cache` option, the same way for a tool ({@link planToolCache}) and a
 * resource ({@link planResourceCache}, which first refuses the old form), or throws naming the
 * definition and the fix.
 *
 * @example
 * ```ts
 * planCache('10m', 'The tool "docs"') // { ttlMs: 600000, shared: false }
 * ```
 */
export function planCache<GetKey>(option: string | number | { maxAge: string | number, scope?: 'principal' | 'shared', getKey?: GetKey }, where: string): CachePlan<GetKey> {
  const options = typeof option === 'object' ? option : { maxAge: option }
  return { ttlMs: cacheDurationMs(options.maxAge, where), shared: options.scope === 'shared', ...(options.getKey !== undefined && { getKey: options.getKey }) }
}

/**
 * Reads a tool's `cache` option ({@link planCache}), or throws naming the tool and the fix.
 *
 * @example
 * ```ts
 * planToolCache('10m', 'The tool "docs"') // { ttlMs: 600000, shared: false }
 * ```
 */
export function planToolCache(option: McpToolCache, where: string): ToolCachePlan {
  return planCache(option, where)
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
  return planCache(option, where)
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
 * The URI part of a read's key: `getKey`'s value as canonical JSON (none when it is not plain
 * JSON), else the URI.
 *
 * @example
 * ```ts
 * uriKey(plan, new URL('docs://a'), {}) // '"docs://a"'
 * ```
 */
export function uriKey(plan: ResourceCachePlan, uri: URL, variables: Record<string, string | string[]>): string | undefined {
  return plan.getKey ? canonicalJson(plan.getKey(uri, variables)) : JSON.stringify(uri.href)
}

/** Each kind's part of the key text (as before they shared one flow, so kept entries keep their keys). */
const KEY_PREFIXES = { tool: 'cache', resource: 'resource-cache' } as const

/**
 * Where one call or read is kept: endpoint, definition, caller (unless shared) and what it is
 * keyed on ({@link argumentsKey}, {@link uriKey}), hashed; `undefined` when it is not kept (no
 * key, or a per-caller cache and no principal).
 *
 * @example
 * ```ts
 * cacheSlotOf('tool', plan, '/mcp', 'docs', { principal: 'ada' }, 'parsed:{}') // { key: 'nuxt-mcp-cache:…', owner: … }
 * ```
 */
export function cacheSlotOf(kind: keyof typeof KEY_PREFIXES, plan: CachePlan<unknown>, route: string, name: string, caller: CacheCaller | undefined, key: string | undefined): CacheSlot | undefined {
  if (key === undefined) return undefined
  const who = plan.shared ? '*' : JSON.stringify(caller?.principal ?? '')
  return cacheSlot(`${KEY_PREFIXES[kind]}:${route}:${JSON.stringify(name)}:${who}:${key}`, plan.shared, caller)
}

/**
 * Where one tool call's result is kept ({@link cacheSlotOf} keyed by {@link argumentsKey}).
 *
 * @example
 * ```ts
 * toolCacheSlot(plan, '/mcp', 'docs', { principal: 'ada' }, { page: 2 }, { page: 2 }) // { key: 'nuxt-mcp-cache:…', owner: … }
 * ```
 */
export function toolCacheSlot(plan: ToolCachePlan, route: string, tool: string, caller: CacheCaller | undefined, parsed: Record<string, unknown>, sent: unknown): CacheSlot | undefined {
  return cacheSlotOf('tool', plan, route, tool, caller, argumentsKey(plan, parsed, sent))
}

/**
 * Where one resource read is kept ({@link cacheSlotOf} keyed by {@link uriKey}).
 *
 * @example
 * ```ts
 * resourceCacheSlot(plan, '/mcp', 'docs', { principal: 'ada' }, new URL('docs://a'), {}) // { key: 'nuxt-mcp-cache:…', owner: … }
 * ```
 */
export function resourceCacheSlot(plan: ResourceCachePlan, route: string, resource: string, caller: CacheCaller | undefined, uri: URL, variables: Record<string, string | string[]>): CacheSlot | undefined {
  return cacheSlotOf('resource', plan, route, resource, caller, uriKey(plan, uri, variables))
}

/**
 * One call's or read's cache: the store, its slot and how long an entry lasts.
 *
 * @example
 * ```ts
 * const use: CacheUse = { store, slot, ttlMs: plan.ttlMs }
 * ```
 */
export interface CacheUse {
  store: McpCacheStore
  slot: CacheSlot
  ttlMs: number
}

/**
 * The cache of one call or read, or `undefined` when it is not kept: no store, no plan, or no
 * slot (`slotOf` is asked only when there are both).
 *
 * @example
 * ```ts
 * const use = cacheUseOf(deps.cacheStore, tool.cache, plan => toolCacheSlot(plan, route, tool.name, caller, parsed, sent))
 * ```
 */
export function cacheUseOf<Plan extends CachePlan<unknown>>(store: McpCacheStore | undefined, plan: Plan | undefined, slotOf: (plan: Plan) => CacheSlot | undefined): CacheUse | undefined {
  if (!store || !plan) return undefined
  const slot = slotOf(plan)
  return slot && { store, slot, ttlMs: plan.ttlMs }
}

/**
 * What is kept in a cache's slot, parsed, or `undefined`; a store that cannot be read is a miss
 * (the handler runs).
 *
 * @example
 * ```ts
 * const hit = await readCached(use)
 * ```
 */
export async function readCached(use: CacheUse): Promise<unknown> {
  try {
    const text = await use.store.get(use.slot.key)
    return text === undefined ? undefined : JSON.parse(text)
  }
  catch {
    return undefined
  }
}

/**
 * Keeps `value` (as JSON) in a cache's slot; a full or unreachable store just keeps nothing (the
 * next call runs the handler).
 *
 * @example
 * ```ts
 * await keepCached(use, result)
 * ```
 */
export async function keepCached(use: CacheUse, value: unknown): Promise<void> {
  try {
    await use.store.put(use.slot, JSON.stringify(value), use.ttlMs)
  }
  catch {
    // A cache that cannot keep an entry costs a re-run, never the call.
  }
}

/**
 * A kept read and how long it has left, or `undefined`; an entry past its age, or not a read, is
 * a miss. A read is kept with the time it was made ({@link keepResource}), which its 2026-07-28
 * hint needs.
 *
 * @example
 * ```ts
 * const hit = await readCachedResource(use)
 * if (hit) return { ...hit.result, ...cacheHint(plan, hit.remainingMs) }
 * ```
 */
export async function readCachedResource(use: CacheUse): Promise<{ result: ReadResourceResult, remainingMs: number } | undefined> {
  const entry = await readCached(use)
  if (!isRecord(entry) || typeof entry.at !== 'number' || !isReadResult(entry.result)) return undefined
  const remainingMs = entry.at + use.ttlMs - Date.now()
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
 * await keepResource(use, result)
 * ```
 */
export async function keepResource(use: CacheUse, result: ReadResourceResult): Promise<void> {
  await keepCached(use, { at: Date.now(), result })
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
