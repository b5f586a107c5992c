import { getMcpScope } from '../../common/context'
import { MAX_SESSION_KEYS, MAX_SESSION_KEY_LENGTH, MAX_SESSION_VALUE_BYTES, sessionValuesStore } from './session-values'

/** Per-session values of one legacy session (see {@link useMcpSession}). */
export interface McpSession<T extends Record<string, unknown> = Record<string, unknown>> {
  /** The legacy session's id (`Mcp-Session-Id`). */
  readonly id: string
  /** The value under `key`, or `null` when there is none. */
  get: <K extends keyof T & string>(key: K) => Promise<T[K] | null>
  /** Keeps `value` (anything JSON can hold) under `key` for as long as the session lives. */
  set: <K extends keyof T & string>(key: K, value: T[K]) => Promise<void>
  remove: <K extends keyof T & string>(key: K) => Promise<void>
  has: <K extends keyof T & string>(key: K) => Promise<boolean>
  keys: () => Promise<string[]>
  clear: () => Promise<void>
}

function checkKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_SESSION_KEY_LENGTH) {
    throw new Error(`useMcpSession(): the key must be a non-empty string of at most ${MAX_SESSION_KEY_LENGTH} characters (got ${JSON.stringify(String(key).slice(0, 40))}).`)
  }
}

function toJson(key: string, value: unknown): string {
  let json: string | undefined
  try {
    json = JSON.stringify(value)
  }
  catch (error) {
    throw new Error(`useMcpSession(): the value of "${key}" cannot be stored as JSON (${error instanceof Error ? error.message : String(error)}). Store plain data: objects, arrays, strings, numbers, booleans, null.`, { cause: error })
  }
  if (json === undefined) throw new Error(`useMcpSession(): the value of "${key}" is ${typeof value}, which JSON cannot hold. Use remove("${key}") to drop a key.`)
  if (new TextEncoder().encode(json).length > MAX_SESSION_VALUE_BYTES) throw new Error(`useMcpSession(): the value of "${key}" is over ${MAX_SESSION_VALUE_BYTES / 1024} KiB as JSON. Keep large data in your own store, and its id in the session.`)
  return json
}

/**
 * Values kept for the current **legacy session** (≤ 2025-11-25) across its calls: a cart, a
 * wizard's progress, a choice made earlier. JSON values, scoped to the session's
 * `Mcp-Session-Id` (and so to its principal), in this process or, with `NUXT_MCP_REDIS_URL`, in
 * Redis for every instance; gone when the session ends. A 2026-07-28 request has no session:
 * there it throws, saying so, rather than guess a scope that could mix users. At most
 * {@link MAX_SESSION_KEYS} keys per session, each value at most 64 KiB as JSON.
 *
 * @example
 * ```ts
 * // server/mcp/tools/add-to-cart.ts
 * import { z } from 'zod'
 * export default defineMcpTool({
 *   inputSchema: { item: z.string() },
 *   async handler({ item }) {
 *     const session = useMcpSession<{ cart: string[] }>()
 *     const cart = [...(await session.get('cart') ?? []), item]
 *     await session.set('cart', cart)
 *     return `The cart holds ${cart.length} item(s).`
 *   },
 * })
 * ```
 */
export function useMcpSession<T extends Record<string, unknown> = Record<string, unknown>>(): McpSession<T> {
  const scope = getMcpScope()
  if (!scope) throw new Error('useMcpSession() works inside an MCP tool, resource or prompt handler only.')
  const id = scope.sessionId
  if (scope.era === 'modern' || id === undefined) {
    throw new Error('useMcpSession(): this 2026-07-28 request has no session (the revision is stateless), so there are no session values to read or keep. Keep what must last in your own store, keyed by the caller (context.principal); within one call, elicitation answers come back on every round.')
  }
  const store = sessionValuesStore(scope.route)
  return {
    id,
    async get(key) {
      checkKey(key)
      const json = await store.get(id, key)
      // Parsed as written by set() for the same T: the store holds only what set() checked.
      return json === undefined ? null : JSON.parse(json) as T[typeof key]
    },
    async set(key, value) {
      checkKey(key)
      const json = toJson(key, value)
      // The cap is checked where the value is written, in one step: sets racing each other (a
      // Promise.all, two instances) cannot both take the last place.
      const outcome = await store.set(id, key, json, MAX_SESSION_KEYS)
      if (outcome === 'full') throw new Error(`useMcpSession(): this session already holds ${MAX_SESSION_KEYS} keys, the most one session may. Remove one first, or group values under one key.`)
      if (outcome === 'closed') throw new Error(`useMcpSession(): session ${id} closed while this handler ran, so "${key}" was not kept (its values went with it). Keep what must outlive the session in your own store.`)
    },
    async remove(key) {
      checkKey(key)
      await store.remove(id, [key])
    },
    async has(key) {
      checkKey(key)
      return await store.get(id, key) !== undefined
    },
    keys: async () => Object.keys(await store.all(id)),
    clear: async () => store.remove(id, Object.keys(await store.all(id))),
  }
}
