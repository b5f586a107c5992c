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
