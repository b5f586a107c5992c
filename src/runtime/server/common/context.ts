import { AsyncLocalStorage } from 'node:async_hooks'
import type { H3Event } from 'h3'
import type { AuthInfo } from '@modelcontextprotocol/server'

/** The protocol era one request is served in. */
export type McpEra = 'legacy' | 'modern'

/**
 * What the module knows about the HTTP request being served. It lives in an `AsyncLocalStorage`
 * owned by the module, so handlers reach it across every `await` without Nitro's asyncContext flag.
 */
export interface McpRequestScope {
  event: H3Event
  era: McpEra
  /** The route of the endpoint serving it (`/mcp`, or another endpoint's, e.g. `/mcp/admin`). */
  route: string
  /** Aborted when the client goes away (h3 does not propagate disconnects itself). */
  readonly signal: AbortSignal
  /** Who is calling, as set by the `mcp:auth` hook; binds modern `requestState`. */
  principal?: string
  authInfo?: AuthInfo
  /** The parsed JSON-RPC body of the POST, read once. */
  body?: unknown
  sessionId?: string
}

const storage = new AsyncLocalStorage<McpRequestScope>()

/**
 * Runs `fn` with `scope` as the current MCP request scope.
 *
 * @example
 * ```ts
 * await runInMcpScope({ event, era: 'modern', signal }, () => handler.fetch(request))
 * ```
 */
export function runInMcpScope<T>(scope: McpRequestScope, fn: () => T): T {
  return storage.run(scope, fn)
}

/**
 * The scope of the MCP request being served, or `undefined` outside one.
 *
 * @example
 * ```ts
 * const scope = getMcpScope()
 * if (scope?.era === 'modern') console.log('stateless request')
 * ```
 */
export function getMcpScope(): McpRequestScope | undefined {
  return storage.getStore()
}
