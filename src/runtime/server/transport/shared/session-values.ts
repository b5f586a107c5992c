import type { SessionValuesStore } from '../../mcp/server/session-values'
import { recordKey, valuesKey } from './sessions'
import type { SharedSessionDirectory } from './sessions'

/**
 * `useMcpSession()` values in Redis (`NUXT_MCP_REDIS_URL`): one hash per session, which lives as
 * long as the session's record (pushed back with it, removed with it), so every instance that
 * serves the session reads and writes the same values.
 *
 * @example
 * ```ts
 * installSessionValuesStore(createSharedSessionValues(directory))
 * ```
 */
export function createSharedSessionValues(directory: SharedSessionDirectory): SessionValuesStore {
  const { shared } = directory
  return {
    get: (sessionId, key) => shared.hashGet(valuesKey(sessionId), key),
    // Records are made before the session's id is given out, so only a closed one lacks it.
    open: () => {},
    set: async (sessionId, key, json, maxKeys) => {
      const outcome = await shared.hashSet(valuesKey(sessionId), key, json, directory.ttlMs, { maxFields: maxKeys, whileExists: recordKey(sessionId) })
      return outcome === 'absent' ? 'closed' : outcome
    },
    remove: (sessionId, keys) => shared.hashDelete(valuesKey(sessionId), keys),
    all: sessionId => shared.hashAll(valuesKey(sessionId)),
    // The session may live on at other instances: its values go with its record.
    forget: () => {},
  }
}
