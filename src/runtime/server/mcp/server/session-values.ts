/** Most keys one session holds. */
export const MAX_SESSION_KEYS = 100
/** Largest value one key holds, as JSON. */
export const MAX_SESSION_VALUE_BYTES = 64 * 1024
/** Longest key. */
export const MAX_SESSION_KEY_LENGTH = 200

/**
 * Where the values of `useMcpSession()` live: this process's memory, or with
 * `NUXT_MCP_REDIS_URL` a Redis hash per session that every instance reads. Values are JSON text.
 */
export interface SessionValuesStore {
  /** The session opened: its values may be set from now until it is forgotten. */
  open: (sessionId: string) => void
  get: (sessionId: string, key: string) => Promise<string | undefined>
  /**
   * Sets `key`, in one step with its checks: `'full'` when it is new and the session holds
   * `maxKeys` keys already, `'closed'` when the session is gone (a handler that outlived its
   * session must not bring its values back, where nothing would remove them again).
   */
  set: (sessionId: string, key: string, json: string, maxKeys: number) => Promise<'set' | 'full' | 'closed'>
  remove: (sessionId: string, keys: string[]) => Promise<void>
  all: (sessionId: string) => Promise<Record<string, string>>
  /** Drops a closed session's values (this process's copy; the shared ones go with the session's record). */
  forget: (sessionId: string) => void
}

/**
 * The in-process store: one map per open session, made when the session opens and dropped when
 * it closes.
 *
 * @example
 * ```ts
 * const store = createMemorySessionValues()
 * store.open('session-id')
 * await store.set('session-id', 'cart', '["apple"]', 100) // 'set'
 * ```
 */
export function createMemorySessionValues(): SessionValuesStore {
  const sessions = new Map<string, Map<string, string>>()
  return {
    open: (sessionId) => {
      if (!sessions.has(sessionId)) sessions.set(sessionId, new Map())
    },
    get: async (sessionId, key) => sessions.get(sessionId)?.get(key),
    set: async (sessionId, key, json, maxKeys) => {
      const values = sessions.get(sessionId)
      if (!values) return 'closed'
      if (!values.has(key) && values.size >= maxKeys) return 'full'
      values.set(key, json)
      return 'set'
    },
    remove: async (sessionId, keys) => {
      for (const key of keys) sessions.get(sessionId)?.delete(key)
    },
    all: async sessionId => Object.fromEntries(sessions.get(sessionId) ?? []),
    forget: sessionId => void sessions.delete(sessionId),
  }
}

/** In this process, one store serves every endpoint: session ids are unique across them. */
const inProcess = createMemorySessionValues()
/** The shared stores (`NUXT_MCP_REDIS_URL`), by endpoint route: each under its endpoint's keys. */
const shared = new Map<string, SessionValuesStore>()

/** Installs (or, with `undefined`, removes) the shared store of the endpoint at `route`. */
export function installSessionValuesStore(route: string, next: SessionValuesStore | undefined): void {
  if (next) shared.set(route, next)
  else shared.delete(route)
}

/** The store the endpoint at `route` uses. */
export function sessionValuesStore(route: string): SessionValuesStore {
  return shared.get(route) ?? inProcess
}
