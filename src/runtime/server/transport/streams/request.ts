import { isJSONRPCRequest } from '@modelcontextprotocol/server'
import type { IncomingMessage } from 'node:http'
import type { AuthInfo, JSONRPCRequest } from '@modelcontextprotocol/server'
import type { ResponseSink } from '../http/response-sink'
import type { AbandonRequest } from './post-streams'

// What a legacy request says about its session: who calls, whether it opens one, which id.

/** What one legacy HTTP exchange hands the transport. */
export interface LegacyExchange {
  req: IncomingMessage
  /** Node's response, or a sink that becomes a web `Response` (Bun, Deno). */
  res: ResponseSink
  /** The JSON body of a POST, already read and parsed once by the endpoint. */
  body?: unknown
  authInfo?: AuthInfo
  /**
   * Takes the abort of the POST's requests away from its connection: a resumable stream's
   * requests outlive a dropped connection for a grace period, then call what this returns.
   */
  deferAbort?: () => AbandonRequest
  /** Keeps the POST counted as in flight past its connection; call what it returns when its requests are done. */
  holdInFlight?: () => () => void
}

/** Who is calling, as the `mcp:auth` hooks decided, and from where (for anonymous callers). */
export interface LegacyCaller { principal?: string, authInfo?: AuthInfo, address: string }

/**
 * What a session's record keeps of its `initialize`, to replay it on another instance: the
 * revision, the capabilities and the client's name, and nothing else the client sent (`_meta`,
 * unknown params), which the record would otherwise carry for the session's life.
 */
export function initializeForHydration(initialize: JSONRPCRequest): JSONRPCRequest {
  const { protocolVersion, capabilities, clientInfo } = initialize.params ?? {}
  return { jsonrpc: '2.0', id: initialize.id, method: 'initialize', params: { protocolVersion, capabilities, clientInfo } }
}

/** The `initialize` request a POST carries alone, as it must be sent. */
export function initializeOf(body: unknown): JSONRPCRequest | undefined {
  return isJSONRPCRequest(body) && body.method === 'initialize' ? body : undefined
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** Whether `id` could be one of ours (a random UUID): only such ids are looked up in Redis. */
export function isSessionId(id: string): boolean {
  return UUID.test(id)
}

/** Whether a POST body (one message or a batch) holds an `initialize` request. */
export function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body]
  return messages.some(message => typeof message === 'object' && message !== null && 'method' in message && message.method === 'initialize')
}
