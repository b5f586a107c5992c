import type { IncomingMessage } from 'node:http'
import { isInitializeRequest, parseJSONRPCMessage } from '@modelcontextprotocol/server'
import type { JSONRPCMessage } from '@modelcontextprotocol/server'
import { isRequest } from './message-kinds'

/** The SDK's own cap on a JSON-RPC batch in one POST. */
const MAX_BATCH = 100

/** Why a POST is refused: its HTTP status, JSON-RPC code, and a message that names the fix. */
export interface PostRefusal {
  status: number
  code: number
  message: string
}

/** A legacy POST read: its messages and whether it opens the session, or why it is refused. */
export type LegacyPost = { messages: JSONRPCMessage[], initialize: boolean } | { refusal: PostRefusal }

function acceptsBoth(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes('application/json') && accept.includes('text/event-stream')
}

const refuse = (status: number, code: number, message: string): LegacyPost => ({ refusal: { status, code, message } })

/**
 * Reads one legacy (≤ 2025-11-25) POST the way the SDK's own transport does: both media types
 * accepted, a batch of at most 100 JSON-RPC messages, `initialize` alone and only once per
 * session, nothing else before it. `initialized`: whether the session has been.
 *
 * @example
 * ```ts
 * const post = readLegacyPost(req, body, this.initialized)
 * if ('refusal' in post) return writeJsonRpcError(res, post.refusal.status, post.refusal.code, post.refusal.message)
 * ```
 */
export function readLegacyPost(req: IncomingMessage, body: unknown, initialized: boolean): LegacyPost {
  if (!acceptsBoth(req.headers.accept)) {
    return refuse(406, -32000, `Not Acceptable: the Accept header is "${req.headers.accept ?? '(none)'}"; a legacy MCP POST must accept both application/json and text/event-stream.`)
  }
  if (Array.isArray(body) && body.length > MAX_BATCH) {
    return refuse(400, -32600, `Invalid Request: a batch of ${body.length} messages exceeds ${MAX_BATCH}. Send them in smaller batches.`)
  }
  let messages: JSONRPCMessage[]
  try {
    messages = Array.isArray(body) ? body.map(item => parseJSONRPCMessage(item)) : [parseJSONRPCMessage(body)]
  }
  catch {
    return refuse(400, -32700, 'Parse error: the body is not a JSON-RPC 2.0 message (or batch of them). Send {"jsonrpc":"2.0","method":…} with an id for requests.')
  }
  const initialize = messages.some(message => isRequest(message) && message.method === 'initialize' && isInitializeRequest(message))
  if (initialize && initialized) return refuse(400, -32600, 'Invalid Request: this session is already initialized. Send initialize without Mcp-Session-Id to open a new one.')
  if (initialize && messages.length > 1) return refuse(400, -32600, 'Invalid Request: initialize must be sent alone, not in a batch.')
  if (!initialize && !initialized) return refuse(400, -32000, 'Bad Request: the session is not initialized. Send an initialize request first.')
  return { messages, initialize }
}
