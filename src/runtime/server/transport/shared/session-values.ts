import type { SessionValuesStore } from '../../mcp/session-values'
import { valuesKey } from './sessions'
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
    set: (sessionId, key, json, maxKeys) => shared.hashSet(valuesKey(sessionId), key, json, directory.ttlMs, maxKeys),
    remove: (sessionId, keys) => shared.hashDelete(valuesKey(sessionId), keys),
    all: sessionId => shared.hashAll(valuesKey(sessionId)),
    // The session may live on at other instances: its values go with its record.
    forget: () => {},
  }
}
