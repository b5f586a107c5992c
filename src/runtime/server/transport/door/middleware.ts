import type { H3Event } from 'h3'
import type { AuthInfo } from '@modelcontextprotocol/server'
import type { McpEra } from '../../common/context'
import { jsonRpcError } from '../http/errors'

/** The statuses a middleware may refuse with. */
export type McpRefusalStatus = 400 | 403 | 404 | 409 | 429 | 503

/** Thrown by {@link McpRequestContext.refuse}: the endpoint answers it, the server keeps serving. */
export class McpRequestRefusal extends Error {
  override readonly name = 'McpRequestRefusal'
  constructor(readonly status: McpRefusalStatus, message: string, readonly headers: Record<string, string> = {}) {
    super(message)
  }
}

/** What the `mcp:request` hooks see of one HTTP request to the endpoint, after authentication. */
export interface McpRequestContext {
  event: H3Event
  /** Set by the built-in OAuth check or the `mcp:auth` hooks; `undefined` for anonymous callers. */
  principal?: string
  authInfo?: AuthInfo
  era: McpEra
  /** The HTTP method: `POST` carries messages; `GET` opens a legacy stream; `DELETE` ends a session. */
  method: string
  /** The JSON-RPC methods the POST carries (`['tools/call']`); empty for answers, `GET` and `DELETE`. */
  rpcMethods: string[]
  /** The endpoint's route (`/mcp`). */
  route: string
  /**
   * Refuses the request: the client gets `status` and a JSON-RPC error with `message` (say why,
   * and what to do). 429 and 503 may carry `retry-after` in `headers`.
   */
  refuse: (status: McpRefusalStatus, message: string, headers?: Record<string, string>) => never
}

/** The id of a POST that carries one request: the refusal answers that request. */
function idOf(body: unknown): string | number | null {
  return typeof body === 'object' && body !== null && 'id' in body && (typeof body.id === 'string' || typeof body.id === 'number') ? body.id : null
}

function methodsOf(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body]
  return messages.flatMap(message => typeof message === 'object' && message !== null && 'method' in message && typeof message.method === 'string' ? [message.method] : [])
}

/**
 * Runs the `mcp:request` hooks of one request; resolves with the refusal to send, if one refused.
 * An error other than a refusal propagates (Nitro answers it 500, as for any broken handler).
 *
 * @example
 * ```ts
 * const beforeRequest = listeningHook(options.beforeRequest)
 * const refusal = beforeRequest && await runRequestMiddleware(beforeRequest, { event, era, method: 'POST', body, route: '/mcp' })
 * if (refusal) return refusal
 * ```
 */
export async function runRequestMiddleware(
  hooks: (context: McpRequestContext) => Promise<void>,
  request: { event: H3Event, era: McpEra, method: string, body: unknown, route: string, principal?: string, authInfo?: AuthInfo },
): Promise<Response | undefined> {
  const { body, ...rest } = request
  const context: McpRequestContext = {
    ...rest,
    rpcMethods: methodsOf(body),
    refuse(status, message, headers) {
      throw new McpRequestRefusal(status, message, headers)
    },
  }
  try {
    await hooks(context)
    return undefined
  }
  catch (error) {
    if (!(error instanceof McpRequestRefusal)) throw error
    return jsonRpcError(error.status, -32000, error.message, error.headers, idOf(body))
  }
}
