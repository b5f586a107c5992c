import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server'

// What kind of JSON-RPC message the legacy transport handles: it routes each kind its own way.

/** A request: it has a method and an id, and is owed an answer. */
export function isRequest(message: JSONRPCMessage): message is Extract<JSONRPCMessage, { method: string, id: RequestId }> {
  return 'method' in message && 'id' in message
}

/** An answer (a result or an error) to a request. */
export function isResponse(message: JSONRPCMessage): message is Extract<JSONRPCMessage, { id: RequestId }> & ({ result: unknown } | { error: unknown }) {
  return !('method' in message)
}

/** The RFC 5424 severities `logging/setLevel` takes. */
const LOGGING_LEVELS = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'])

/**
 * A `logging/setLevel` with a level the spec knows: only such a one is kept in Redis and sent to
 * every instance (any other is answered with the SDK's own error, and goes no further).
 */
export function isValidSetLevel(message: JSONRPCMessage): boolean {
  return 'method' in message && message.method === 'logging/setLevel' && typeof message.params?.level === 'string' && LOGGING_LEVELS.has(message.params.level)
}
